// Host buffer storage: large blocks kept from one case to the next (see hostbuffer.hpp).
#include "core/hostbuffer.hpp"

#include <mutex>
#include <vector>

namespace clh::detail {

namespace {

// Blocks of at least kKeptWords words are kept when freed, at most kMaxBlocks of them and
// kMaxWords words in all: enough for the buffers of a case and the results read back (a spec has
// a few buffers), bounded where sizes grow. Smaller blocks go back to malloc, which reuses them
// without new pages anyway.
constexpr size_t kKeptWords = (256 << 10) / 8;  // 256 KiB
constexpr size_t kMaxBlocks = 16;
constexpr size_t kMaxWords = (size_t{256} << 20) / 8;  // 256 MiB

struct Kept {
  std::mutex mutex;
  std::vector<std::pair<size_t, uint64_t*>> blocks;  // (capacity in words, block)
  size_t words = 0;
};

// Never destroyed: the tools end without exit-time destructors, and a block may be given back
// by a buffer that outlives main's locals.
Kept& kept() {
  static Kept* k = new Kept;
  return *k;
}

}  // namespace

uint64_t* takeStorage(size_t words, size_t* capacity) {
  if (words >= kKeptWords) {
    Kept& k = kept();
    std::lock_guard<std::mutex> lock(k.mutex);
    // The smallest kept block that fits and is at most twice the size.
    size_t best = k.blocks.size();
    for (size_t i = 0; i < k.blocks.size(); ++i)
      if (k.blocks[i].first >= words && k.blocks[i].first / 2 <= words &&
          (best == k.blocks.size() || k.blocks[i].first < k.blocks[best].first))
        best = i;
    if (best != k.blocks.size()) {
      *capacity = k.blocks[best].first;
      uint64_t* p = k.blocks[best].second;
      k.words -= *capacity;
      k.blocks.erase(k.blocks.begin() + static_cast<std::ptrdiff_t>(best));
      return p;
    }
  }
  *capacity = words;
  return new uint64_t[words];  // uninitialised: every user fills it
}

void giveStorage(uint64_t* p, size_t capacity) {
  if (!p) return;
  if (capacity >= kKeptWords) {
    Kept& k = kept();
    std::lock_guard<std::mutex> lock(k.mutex);
    if (k.blocks.size() < kMaxBlocks && k.words + capacity <= kMaxWords) {
      k.blocks.emplace_back(capacity, p);
      k.words += capacity;
      return;
    }
  }
  delete[] p;
}

}  // namespace clh::detail
