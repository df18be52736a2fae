// Host code of the simulator scenarios: finding Oclgrind, building the test kernels and launching
// them with explicit local sizes (Oclgrind shows no barrier race with a NULL local size).
#include "scenarios.hpp"

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "cl/devices.hpp"

namespace clh::simtest {

bool findOclgrind(cl::Device& device) {
  static std::once_flag registered;
  std::call_once(registered, [] {
    IcdConfig config;
    config.folder = (std::filesystem::temp_directory_path() / "clharness-sim-tests-icd").string();
    registerIcds(config);
  });
  for (const DeviceInfo& info : enumerateDevices()) {
    if (info.simulator || info.platform.find("Oclgrind") != std::string::npos) {
      device = info.device;
      return true;
    }
  }
  return false;
}

OclgrindTarget makeTarget(const cl::Device& device, OclgrindSession& session) {
  OclgrindTarget target;
  target.device = device;
  target.context = cl::Context(std::vector<cl::Device>{device}, nullptr,
                               &OclgrindSession::contextNotify, &session);
  target.queue = cl::CommandQueue(target.context, device);
  return target;
}

std::string kernelSource(const std::string& file) {
  const std::string path = std::string(CLHARNESS_SIM_KERNELS_DIR) + "/" + file;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

cl::Program buildKernelFile(const OclgrindTarget& target, const std::string& file,
                            const std::string& options) {
  cl::Program program(target.context, kernelSource(file));
  program.build(std::vector<cl::Device>{target.device}, options.c_str());
  return program;
}

std::vector<float> runTiledMatmul(const OclgrindTarget& target, int n, int ts,
                                  bool drop_second_barrier) {
  std::string options = "-DTS=" + std::to_string(ts);
  if (drop_second_barrier) options += " -DDROP_SECOND_BARRIER";
  cl::Program program = buildKernelFile(target, "tiled_matmul.cl", options);
  const size_t count = static_cast<size_t>(n) * n;
  std::vector<float> a(count, 1.0f), b(count, 2.0f), c(count, -1.0f);
  cl::Buffer da(target.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(float),
                a.data());
  cl::Buffer db(target.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(float),
                b.data());
  cl::Buffer dc(target.context, CL_MEM_WRITE_ONLY, count * sizeof(float));
  cl::Kernel kernel(program, "mmul");
  kernel.setArg(0, n);
  kernel.setArg(1, da);
  kernel.setArg(2, db);
  kernel.setArg(3, dc);
  kernel.setArg(4, cl::Local(static_cast<size_t>(ts) * ts * sizeof(float)));
  kernel.setArg(5, cl::Local(static_cast<size_t>(ts) * ts * sizeof(float)));
  target.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n, n), cl::NDRange(ts, ts));
  target.queue.enqueueReadBuffer(dc, CL_TRUE, 0, count * sizeof(float), c.data());
  target.queue.finish();
  return c;
}

std::vector<int> runOneBufferKernel(const OclgrindTarget& target, const std::string& file,
                                    const std::string& kernel_name, size_t global, size_t local,
                                    size_t local_bytes) {
  cl::Program program = buildKernelFile(target, file, "");
  std::vector<int> out(global, -7);
  cl::Buffer buffer(target.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, global * sizeof(int),
                    out.data());
  cl::Kernel kernel(program, kernel_name.c_str());
  kernel.setArg(0, buffer);
  if (local_bytes > 0) kernel.setArg(1, cl::Local(local_bytes));
  target.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local));
  target.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, global * sizeof(int), out.data());
  target.queue.finish();
  return out;
}

int enqueueBadLocalSize(const OclgrindTarget& target) {
  cl::Program program = buildKernelFile(target, "divergence.cl", "");
  cl::Buffer buffer(target.context, CL_MEM_READ_WRITE, 16 * sizeof(int));
  cl::Kernel kernel(program, "half_barrier");
  kernel.setArg(0, buffer);
  try {
    target.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(16), cl::NDRange(3));
    target.queue.finish();
  } catch (const cl::Error& error) {
    return error.err();
  }
  return CL_SUCCESS;
}

}  // namespace clh::simtest
