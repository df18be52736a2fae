// The host-side modes of a run: how buffers are created (the OpenCL buffer flags) and how results
// come back. Plain names, free of OpenCL, so specs can name them; harness/cl/memory.* acts on them.
#pragma once

#include <optional>
#include <string>
#include <vector>

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
  /// clFinish, then the USE_HOST_PTR host array itself without a map. The specification leaves
  /// its contents undefined until a map: what it holds is recorded as an observation, never a
  /// failure. Buffers of other modes are read blocking.
  host_pointer,
};
const char* toString(BufferMode m);
const char* toString(ReadMode m);
std::optional<BufferMode> bufferModeFromString(const std::string& s);
std::optional<ReadMode> readModeFromString(const std::string& s);
const std::vector<BufferMode>& allBufferModes();
const std::vector<ReadMode>& allReadModes();

}  // namespace clh
