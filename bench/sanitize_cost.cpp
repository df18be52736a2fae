// The sanitizer's cost per launch on a real device: each kernel as written and instrumented
// (harness/sanitize), at 16, 256, 1024 and 2^20 work-items, enqueue to finish, same buffers
// (sanitized: the __global shadow's zeroing before each launch included).
//   build/bench/bench_sanitize [--benchmark_filter=...]   (CLH_BENCH_DEVICE: a platform's name
//   part, default "Portable Computing Language"; the rewrite runs in clharness-rewrite, or comes
//   from CLHARNESS_REWRITE_CACHE); docs/performance.md has the figures.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cl/opencl.hpp"
#include "sanitize/helper.hpp"
#include "sanitize/run.hpp"
#include "sanitize/runtime.hpp"

namespace {

// Global accesses only; __local memory and a barrier. Both correct at every size used.
const char* kSaxpy = R"CL(__kernel void saxpy(__global const float* x, __global float* y, float a) {
  int i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)CL";
const char* kReverse = R"CL(__kernel void reverse(__global const float* in, __global float* out) {
  __local float tile[64];
  int l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - l];
}
)CL";

// A row of C = A B with A n x 64 and B 64 x n (one work-item per element of C, 2-D, n*n items):
// 128 __global reads per work-item, the catalog's matrix products' pattern.
const char* kMatmul = R"CL(__kernel void matmul(__global const float* a, __global float* c,
                     __global const float* b) {
  int row = get_global_id(1), col = get_global_id(0), n = get_global_size(0);
  float sum = 0.0f;
  for (int k = 0; k < 64; ++k) sum += a[row * 64 + k] * b[k * n + col];
  c[row * n + col] = sum;
}
)CL";

struct Fixture {
  cl::Context ctx;
  cl::Device dev;
  cl::CommandQueue queue;
};

Fixture& fixture() {
  static std::unique_ptr<Fixture> f = [] {
    const char* want = std::getenv("CLH_BENCH_DEVICE");
    const std::string name = want ? want : "Portable Computing Language";
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    for (auto& p : platforms) {
      if (p.getInfo<CL_PLATFORM_NAME>().find(name) == std::string::npos) continue;
      std::vector<cl::Device> devices;
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
      auto out = std::make_unique<Fixture>();
      out->dev = devices.at(0);
      out->ctx = cl::Context(out->dev);
      out->queue = cl::CommandQueue(out->ctx, out->dev);
      return out;
    }
    throw std::runtime_error("no platform named like " + name);
  }();
  return *f;
}

// One kernel with its buffers at `items` work-items, as written or instrumented.
struct Launch {
  cl::Kernel kernel;
  std::vector<cl::Buffer> buffers;  ///< the kernel's own, then sizes, records, dummy, shadow
  size_t items = 0, local = 0;
  size_t shadow_bytes = 0;
};

size_t square(size_t items) {
  size_t side = 1;
  while (side * side < items) side *= 2;
  return side;
}

// The rewrite through clharness-rewrite (or CLHARNESS_REWRITE_CACHE), from a file of the text.
clh::sanitize::Instrumented instrumented(const char* source, const char* name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("clh-bench-" + std::string(name) + "-" + std::to_string(::getpid()) + ".cl");
  std::ofstream(path) << source;
  auto inst = clh::sanitize::instrumentInHelper(path.string(), "bench.cl", name, "");
  std::filesystem::remove(path);
  return inst;
}

// The launch's global and local ranges: 1-D, or n x n in 2-D for the matrix product.
cl::NDRange globalRange(const Launch& l, bool matmul) {
  if (!matmul) return cl::NDRange(l.items);
  return cl::NDRange(square(l.items), l.items / square(l.items));
}
cl::NDRange localRange(const Launch& l, bool matmul) {
  if (!matmul) return cl::NDRange(l.local);
  const size_t x = std::min<size_t>(square(l.items), 16);
  return cl::NDRange(x, std::min<size_t>(l.items / square(l.items), 64 / x));
}

Launch prepare(const char* source, const char* name, size_t items, bool sanitized) {
  Fixture& f = fixture();
  const clh::sanitize::Instrumented inst = instrumented(source, name);
  if (!inst.error.empty()) throw std::runtime_error(inst.error);
  cl::Program program(f.ctx, sanitized ? inst.source : std::string(source));
  program.build({f.dev}, "");
  Launch l{cl::Kernel(program, name), {}, items, std::min<size_t>(items, 64)};
  const bool matmul = std::string(name) == "matmul";
  const size_t bytes = items * sizeof(float), side = matmul ? square(items) : 0;
  const size_t tall = matmul ? side * 64 * sizeof(float) : bytes;  // a and b
  std::vector<float> init(std::max(items, side * 64), 0.5f);
  l.buffers.emplace_back(f.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, tall, init.data());
  l.buffers.emplace_back(f.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, init.data());
  l.kernel.setArg(0, l.buffers[0]);
  l.kernel.setArg(1, l.buffers[1]);
  if (std::string(name) == "saxpy") l.kernel.setArg(2, 2.0f);
  if (matmul) {
    l.buffers.emplace_back(f.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, tall, init.data());
    l.kernel.setArg(2, l.buffers[2]);
  }
  if (!sanitized) return l;
  std::vector<cl_ulong> sizes = {tall, bytes};
  if (matmul) sizes.push_back(tall);
  const size_t own = l.buffers.size();
  cl_ulong words = 0;
  for (const auto& o : inst.locals) words += (o.bytes + 3) / 4;
  sizes.push_back(words);
  // __global shadow words: every buffer's the kernel may write, as the sanitizer's run gives them
  const uint64_t readOnly = clh::sanitize::readOnlyGlobals(inst);
  cl_ulong shadowWords = 0;
  for (size_t b = 0; b < own; ++b)
    if (!((readOnly >> b) & 1)) shadowWords += sizes[b] / 4;
  sizes.push_back(shadowWords);
  sizes.push_back(readOnly);
  // 8: the runtime may move the shadow up to 8-byte alignment
  l.shadow_bytes = std::max<cl_ulong>(shadowWords, 1) * clh::sanitize::kGlobalShadowUints * 4 + 8;
  std::vector<uint32_t> records(inst.sites.size() * clh::sanitize::kRecordWords + 1, 0);
  l.buffers.emplace_back(f.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizes.size() * 8,
                         sizes.data());
  l.buffers.emplace_back(f.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, records.size() * 4,
                         records.data());
  l.buffers.emplace_back(f.ctx, CL_MEM_READ_WRITE, clh::sanitize::kGlobalDummyBytes);
  l.buffers.emplace_back(f.ctx, CL_MEM_READ_WRITE, l.shadow_bytes);
  const cl_uint at = static_cast<cl_uint>(inst.original_args);
  l.kernel.setArg(at, l.buffers[own]);
  l.kernel.setArg(at + 1, l.buffers[own + 1]);
  l.kernel.setArg(
      at + 2, cl::Local(words * clh::sanitize::kShadowUints * 4 + clh::sanitize::kLocalDummyBytes));
  l.kernel.setArg(at + 3, l.buffers[own + 2]);
  l.kernel.setArg(at + 4, l.buffers[own + 3]);
  return l;
}

void run(benchmark::State& state, const char* source, const char* name, bool sanitized) {
  const size_t items = static_cast<size_t>(state.range(0));
  Launch l = prepare(source, name, items, sanitized);
  Fixture& f = fixture();
  const bool matmul = std::string(name) == "matmul";
  const cl::NDRange global = globalRange(l, matmul), local = localRange(l, matmul);
  // PoCL compiles a kernel for each local size at its first launch: not the sanitizer's cost.
  f.queue.enqueueNDRangeKernel(l.kernel, cl::NullRange, global, local);
  f.queue.finish();
  for (auto _ : state) {
    if (sanitized)  // the __global shadow starts empty at each launch, as the scan's does
      f.queue.enqueueFillBuffer(l.buffers.back(), cl_uint{0}, 0, l.shadow_bytes);
    f.queue.enqueueNDRangeKernel(l.kernel, cl::NullRange, global, local);
    f.queue.finish();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int64_t n : {16, 256, 1024, 1 << 20}) b->Arg(n);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK_CAPTURE(run, saxpy_plain, kSaxpy, "saxpy", false)->Apply(sizes);
BENCHMARK_CAPTURE(run, saxpy_sanitized, kSaxpy, "saxpy", true)->Apply(sizes);
BENCHMARK_CAPTURE(run, reverse_plain, kReverse, "reverse", false)->Apply(sizes);
BENCHMARK_CAPTURE(run, reverse_sanitized, kReverse, "reverse", true)->Apply(sizes);
BENCHMARK_CAPTURE(run, matmul_plain, kMatmul, "matmul", false)->Apply(sizes);
BENCHMARK_CAPTURE(run, matmul_sanitized, kMatmul, "matmul", true)->Apply(sizes);
BENCHMARK_MAIN();
