// The harness's cost per case versus a bare opencl.hpp loop doing the same work on the same
// device: the same vadd kernel and sizes, fresh buffers each case, random inputs, a blocking read
// and an element-by-element comparison with a + b. Run: build/bench/bench_overhead
// (docs/performance.md).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cl/devices.hpp"
#include "cl/session.hpp"
#include "core/sizes.hpp"

namespace {

// The source tree: $CLHARNESS_ROOT when set (a bundle run elsewhere), else where it was built.
std::string root() {
  const char* r = std::getenv("CLHARNESS_ROOT");
  return r && *r ? r : CLHARNESS_SOURCE_ROOT;
}
const std::string kSpec = root() + "/specs/handson/vadd.yaml";
const std::string kKernel = root() + "/kernels/handson/vadd.cl";
constexpr size_t kLocal = 64;

// The first PoCL device, or the device named by CLH_BENCH_DEVICE (a regex).
const clh::DeviceInfo& device() {
  static clh::DeviceInfo dev = [] {
    clh::registerIcds(clh::IcdConfig{});
    const char* want = std::getenv("CLH_BENCH_DEVICE");
    auto all =
        clh::selectDevices(clh::enumerateDevices(), want ? want : "Portable Computing Language");
    if (all.empty()) {
      std::fprintf(stderr, "bench_overhead: no matching device\n");
      std::exit(3);
    }
    return all.front();
  }();
  return dev;
}

struct Rng {  // the same generator family the harness fills inputs with
  uint64_t s;
  float next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(-1.0 + 2.0 * (static_cast<double>(z >> 11) * 0x1.0p-53));
  }
};

void BM_BareLoop(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const size_t global = (n + kLocal - 1) / kLocal * kLocal;
  cl::Context ctx(device().device);
  cl::CommandQueue q(ctx, device().device, CL_QUEUE_PROFILING_ENABLE);
  std::ifstream in(kKernel);
  std::stringstream src;
  src << in.rdbuf();
  cl::Program prog(ctx, src.str());
  prog.build({device().device});
  cl::Kernel k(prog, "vadd");
  std::vector<float> a(n), b(n), c(n);
  Rng rng{1};
  size_t bad = 0;
  for (auto _ : state) {
    for (auto& v : a) v = rng.next();
    for (auto& v : b) v = rng.next();
    cl::Buffer da(ctx, CL_MEM_READ_WRITE, n * 4), db(ctx, CL_MEM_READ_WRITE, n * 4),
        dc(ctx, CL_MEM_READ_WRITE, n * 4);
    q.enqueueWriteBuffer(da, CL_FALSE, 0, n * 4, a.data());
    q.enqueueWriteBuffer(db, CL_FALSE, 0, n * 4, b.data());
    k.setArg(0, da);
    k.setArg(1, db);
    k.setArg(2, dc);
    k.setArg(3, static_cast<cl_uint>(n));
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(kLocal));
    q.enqueueReadBuffer(dc, CL_TRUE, 0, n * 4, c.data());
    for (size_t i = 0; i < n; ++i) bad += c[i] != a[i] + b[i];
  }
  if (bad) state.SkipWithError("the bare loop saw wrong results");
  state.SetItemsProcessed(state.iterations());
}

// The harness's case path. range(1) = 1 adds its guard zones around every buffer (the bare loop
// has none, so the comparison of like with like is without them).
void BM_Harness(benchmark::State& state) {
  const int64_t n = state.range(0);
  clh::RunOptions run;
  run.guard_zones = state.range(1) != 0;
  clh::Spec spec = clh::loadSpec(kSpec, root());
  clh::DeviceSession session(device());
  clh::Sizes sizes{{"N", n}, {"L", static_cast<int64_t>(kLocal)}};
  clh::ExprEnv env(clh::paramNames(spec));
  clh::completeDerived(spec, env, sizes);
  uint64_t seed = 1;
  size_t bad = 0;
  for (auto _ : state) {
    clh::CaseOutcome c = session.runCase(spec, sizes, seed++, run);  // new data every case
    bad += !c.ok();
  }
  if (bad) state.SkipWithError("the harness saw wrong results");
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_BareLoop)->Arg(16)->Arg(256)->Arg(1024)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Harness)
    ->ArgsProduct({{16, 256, 1024, 1 << 20}, {0, 1}})
    ->ArgNames({"n", "guards"})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
