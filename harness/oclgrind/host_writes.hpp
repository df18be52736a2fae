// Which bytes of the simulator's global memory the host wrote (clEnqueueWriteBuffer/Image, a
// COPY_HOST_PTR, a fill): the plugin asks whether an image or a buffer was written whole before
// a launch read it (image_checks.hpp).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>

namespace clh_oclgrind {

/// Byte ranges of each global buffer (Oclgrind's buffer number) the host stored to. Thread-safe.
class HostWrites {
 public:
  /// The host stored `size` bytes at `offset` of buffer `buffer`.
  void stored(size_t buffer, size_t offset, size_t size);
  /// The buffer was released: its number may be given to another.
  void released(size_t buffer);
  /// Whether the host stored every byte of [offset, offset + size) of `buffer`.
  bool covers(size_t buffer, size_t offset, size_t size) const;

 private:
  mutable std::mutex mutex_;
  /// buffer -> {start -> end}: disjoint ranges, merged where they touch.
  std::map<size_t, std::map<size_t, size_t>> written_;
};

}  // namespace clh_oclgrind
