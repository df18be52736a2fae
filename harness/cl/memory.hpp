// The device side of one case's buffers: how they are created (the buffer-flag modes of the
// OpenCL specification), how results come back (the read modes), and guard zones that catch
// writes past either end of a buffer on real devices, where no simulator watches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cl/opencl.hpp"
#include "core/finding.hpp"
#include "core/hostbuffer.hpp"

namespace clh {

/// How a buffer is created and filled.
enum class BufferMode {
  write,                ///< CL_MEM_READ_WRITE, filled with clEnqueueWriteBuffer
  copy_host_ptr,        ///< CL_MEM_COPY_HOST_PTR
  use_host_ptr,         ///< CL_MEM_USE_HOST_PTR: the host array is the buffer's storage
  alloc_host_ptr,       ///< CL_MEM_ALLOC_HOST_PTR, filled through a map
  alloc_copy_host_ptr,  ///< CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR
};
/// How results are taken back.
enum class ReadMode {
  blocking,            ///< clEnqueueReadBuffer(blocking)
  nonblocking_wait,    ///< non-blocking read, then clWaitForEvents on its event
  nonblocking_finish,  ///< non-blocking read, then clFinish
  map,                 ///< clEnqueueMapBuffer(blocking, CL_MAP_READ), copy, unmap
};
const char* toString(BufferMode m);
const char* toString(ReadMode m);
std::optional<BufferMode> bufferModeFromString(const std::string& s);
std::optional<ReadMode> readModeFromString(const std::string& s);
const std::vector<BufferMode>& allBufferModes();
const std::vector<ReadMode>& allReadModes();

/// One case's device buffers.
class CaseBuffers {
 public:
  /// `guard_bytes`: bytes of known pattern before and after each buffer (0: none).
  CaseBuffers(cl::Context& context, cl::CommandQueue& queue, BufferMode mode, size_t guard_bytes);

  /// Creates the buffer for `host` (its initial contents) and returns its index.
  size_t add(const std::string& name, const HostBuffer& host);
  /// What the kernel argument of buffer `i` is (a sub-buffer inside its guards when guarded).
  const cl::Buffer& arg(size_t i) const { return views_[i]; }
  /// Takes buffer `i` back into `out` (of the same type and count).
  void read(size_t i, HostBuffer& out, ReadMode mode);
  /// Checks every guard zone; one out_of_bounds finding per buffer whose guards changed.
  std::vector<Finding> checkGuards();

 private:
  struct Entry {
    std::string name;
    size_t bytes = 0;  ///< the contents
    size_t body = 0;   ///< what was allocated between the guards (never 0)
    std::vector<uint8_t> host;  ///< USE_HOST_PTR storage (with guards), kept alive for the case
  };
  cl::Context& context_;
  cl::CommandQueue& queue_;
  BufferMode mode_;
  size_t guard_;
  std::vector<Entry> entries_;
  std::vector<cl::Buffer> whole_;  ///< with guards
  std::vector<cl::Buffer> views_;  ///< what kernels see
};

/// The guard size for a device: a multiple of its base-address alignment, at least 4 KiB.
size_t guardBytesFor(const cl::Device& device);

}  // namespace clh
