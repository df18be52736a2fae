// The small kernels of tests/sim/kernels run on Oclgrind: shared by the simulator tests and by the
// tool that captures the parser's golden inputs (tests/sim/data), so both see the same launches.
#pragma once

#include <string>
#include <vector>

#include "cl/opencl.hpp"
#include "sim/oclgrind_session.hpp"

namespace clh::simtest {

/// An Oclgrind device with a context whose notify callback feeds `session` (API errors).
struct OclgrindTarget {
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
};

/// Registers the ICDs (once per process) and finds Oclgrind; false when it is not installed.
bool findOclgrind(cl::Device& device);

/// A fresh context and queue on `device`, reporting API errors into `session`.
OclgrindTarget makeTarget(const cl::Device& device, OclgrindSession& session);

/// The text of tests/sim/kernels/<file>.
std::string kernelSource(const std::string& file);

/// Builds tests/sim/kernels/<file> with `options`; throws cl::BuildError with the log.
cl::Program buildKernelFile(const OclgrindTarget& target, const std::string& file,
                            const std::string& options);

/// Runs the tiled matmul (N x N, TS x TS tiles, local size TS x TS) on all-ones A and all-twos B;
/// returns C, read after clFinish. `drop_second_barrier` builds the racy version.
std::vector<float> runTiledMatmul(const OclgrindTarget& target, int n, int ts,
                                  bool drop_second_barrier);

/// Runs `kernel_name` of `file` on one __global int/float buffer of `global` elements (plus a
/// __local buffer of `local_bytes` bytes as argument 1 when non-zero), with local size `local`;
/// returns the buffer's contents as raw 32-bit words.
std::vector<int> runOneBufferKernel(const OclgrindTarget& target, const std::string& file,
                                    const std::string& kernel_name, size_t global, size_t local,
                                    size_t local_bytes);

/// Enqueues a kernel with local size 3 over 16 work-items: CL_INVALID_WORK_GROUP_SIZE. Returns the
/// error code the enqueue gave.
int enqueueBadLocalSize(const OclgrindTarget& target);

}  // namespace clh::simtest
