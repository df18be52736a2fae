// Which bytes of each global buffer the host wrote, as merged ranges (host_writes.hpp).
#include "host_writes.hpp"

#include <algorithm>

namespace clh_oclgrind {

void HostWrites::stored(size_t buffer, size_t offset, size_t size) {
  if (size == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<size_t, size_t>& ranges = written_[buffer];
  size_t start = offset, end = offset + size;
  // The first range that could touch [start, end): the last one starting at or before it.
  auto it = ranges.upper_bound(start);
  if (it != ranges.begin() && std::prev(it)->second >= start) --it;
  while (it != ranges.end() && it->first <= end) {
    start = std::min(start, it->first);
    end = std::max(end, it->second);
    it = ranges.erase(it);
  }
  ranges.emplace(start, end);
}

void HostWrites::released(size_t buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  written_.erase(buffer);
}

bool HostWrites::covers(size_t buffer, size_t offset, size_t size) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = written_.find(buffer);
  if (found == written_.end()) return false;
  const std::map<size_t, size_t>& ranges = found->second;
  auto it = ranges.upper_bound(offset);
  if (it == ranges.begin()) return false;
  --it;
  return it->first <= offset && it->second >= offset + size;
}

}  // namespace clh_oclgrind
