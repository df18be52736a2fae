// The harness's cost per case versus a bare opencl.hpp loop doing the same work on one device: the
// same vadd kernel and sizes, fresh buffers each case, random inputs, a blocking read and an
// element-by-element comparison with a + b. Run: bench/run.sh DEVICE OUTDIR (docs/performance.md).
//   bench_overhead [benchmark flags]    CLH_BENCH_DEVICE selects the device (default: PoCL)
//   bench_overhead --phases             where a case's time goes, phase by phase (Markdown)
//   bench_overhead --paired             the ratios measured in pairs, round by round (Markdown):
//                                       what a loaded machine's ratio is read from
//   bench_overhead --ratios FILE.json   the ratio table (Markdown) of a run's --benchmark_out JSON,
//                                       and its check: exit 4 when a median is over 3x the bare
//                                       loop or a repetition over 3x its median (a stall)
//   CLH_BENCH_PROFILE=FILE              samples where the main thread's CPU goes
//   (bench/sampler.hpp)
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <sstream>

#include "cl/devices.hpp"
#include "cl/session.hpp"
#include "core/sizes.hpp"
#include "sampler.hpp"
#include "sim/oclgrind_session.hpp"
#include "sim/tool_failure.hpp"

namespace {

// The source tree: $CLHARNESS_ROOT when set (a bundle run elsewhere), else where it was built.
std::string root() {
  const char* r = std::getenv("CLHARNESS_ROOT");
  return r && *r ? r : CLHARNESS_SOURCE_ROOT;
}
constexpr size_t kLocal = 64;
constexpr int64_t kLargest = 1 << 20;

// The device and, on a simulator, the Oclgrind session with the plugin that the harness runs
// there (its race, uninitialized-value and API checks on, as in `clharness check`). The plugin is
// loaded into every context of the process, so the bare loop pays for the same checks.
struct Setup {
  clh::DeviceInfo device;
  std::unique_ptr<clh::OclgrindSession> sim;
  std::string log;           // the plugin's log, removed at exit
  std::string bare_options;  // the build options the harness uses here (the simulator's own)
};
Setup* setup = nullptr;

Setup& makeSetup() {
  static Setup s;
  clh::registerIcds(clh::IcdConfig{});
  const char* want = std::getenv("CLH_BENCH_DEVICE");
  auto all = clh::selectDevices(clh::enumerateDevices(),
                                want && *want ? want : "Portable Computing Language");
  if (all.empty()) {
    std::fprintf(stderr, "bench_overhead: no device matches '%s'\n%s", want ? want : "PoCL",
                 clh::deviceListing(clh::enumerateDevices()).c_str());
    std::exit(3);
  }
  s.device = all.front();
  if (s.device.simulator) {
    char path[] = "/tmp/clh-bench-oclgrind-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd < 0) std::exit(3);
    ::close(fd);
    s.log = path;
    s.sim = std::make_unique<clh::OclgrindSession>(clh::findOclgrindPlugin(), s.log);
    s.sim->applyToProcess();  // before the first context on the simulator
    s.bare_options = clh::preferredSimulatorOptions("");
  }
  return s;
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

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using Clock = std::chrono::steady_clock;

std::string fmt(double v) {  // a time or ratio, 3 significant digits
  char s[32];
  std::snprintf(s, sizeof s, v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
  return s;
}

// Adds the time since `since` to `field` of `p` (when there is one) and restarts the clock.
void phase(clh::CasePhases* p, double clh::CasePhases::*field, Clock::time_point& since) {
  if (!p) return;
  const Clock::time_point now = Clock::now();
  p->*field += std::chrono::duration<double>(now - since).count();
  since = now;
}

// The bare loop: a context, queue and kernel of its own; per case new inputs, fresh buffers, the
// writes, the launch, a blocking read and the comparison with a + b. Phases as the harness's.
struct BareRig {
  size_t n, global;
  cl::Context ctx;
  cl::CommandQueue q;
  cl::Kernel k;
  std::vector<float> a, b, c;
  Rng rng{1};
  explicit BareRig(size_t items)
      : n(items),
        global((n + kLocal - 1) / kLocal * kLocal),
        ctx(setup->device.device),
        q(ctx, setup->device.device, CL_QUEUE_PROFILING_ENABLE),
        a(n),
        b(n),
        c(n) {
    cl::Program prog(ctx, readText(root() + "/kernels/handson/vadd.cl"));
    prog.build({setup->device.device}, setup->bare_options.c_str());
    k = cl::Kernel(prog, "vadd");
  }
  // The number of wrong elements.
  size_t run(clh::CasePhases* p) {
    Clock::time_point t = p ? Clock::now() : Clock::time_point{};
    for (auto& v : a) v = rng.next();
    for (auto& v : b) v = rng.next();
    phase(p, &clh::CasePhases::inputs, t);
    cl::Buffer da(ctx, CL_MEM_READ_WRITE, n * 4), db(ctx, CL_MEM_READ_WRITE, n * 4),
        dc(ctx, CL_MEM_READ_WRITE, n * 4);
    q.enqueueWriteBuffer(da, CL_FALSE, 0, n * 4, a.data());
    q.enqueueWriteBuffer(db, CL_FALSE, 0, n * 4, b.data());
    phase(p, &clh::CasePhases::buffers, t);
    k.setArg(0, da);
    k.setArg(1, db);
    k.setArg(2, dc);
    k.setArg(3, static_cast<cl_uint>(n));
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(kLocal));
    phase(p, &clh::CasePhases::launch, t);
    q.enqueueReadBuffer(dc, CL_TRUE, 0, n * 4, c.data());
    phase(p, &clh::CasePhases::read, t);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += c[i] != a[i] + b[i];
    phase(p, &clh::CasePhases::compare, t);
    return bad;  // the buffers are released here
  }
};

// The harness's case path: DeviceSession::runCase on the vadd spec, a new seed (new data) every
// case, with or without guard zones.
struct HarnessRig {
  clh::Spec spec = clh::loadSpec(root() + "/specs/handson/vadd.yaml", root());
  clh::DeviceSession session{setup->device, setup->sim.get()};
  clh::Sizes sizes;
  clh::RunOptions run;
  uint64_t seed = 1;
  HarnessRig(int64_t n, bool guards) : sizes{{"N", n}, {"L", static_cast<int64_t>(kLocal)}} {
    run.guard_zones = guards;
    clh::ExprEnv env(clh::paramNames(spec));
    clh::completeDerived(spec, env, sizes);
    if (setup->sim) setup->sim->drain();  // what the bare loop's launches left in the log
  }
  // Whether the case passed.
  bool runCase(clh::CasePhases* p) {
    run.phases = p;
    return session.runCase(spec, sizes, seed++, run).ok();
  }
};

// The loops compared at one size, by index: 0 the bare loop, 1 the harness, 2 the harness with
// guards (when asked for). run() runs a case of one and exits on a wrong result.
struct Loops {
  BareRig bare;
  std::vector<std::unique_ptr<HarnessRig>> rigs;
  Loops(int64_t n, bool guards) : bare(static_cast<size_t>(n)) {
    rigs.push_back(std::make_unique<HarnessRig>(n, false));
    if (guards) rigs.push_back(std::make_unique<HarnessRig>(n, true));
  }
  size_t count() const { return 1 + rigs.size(); }
  void run(size_t v, clh::CasePhases* p = nullptr) {
    if (v == 0 ? bare.run(p) != 0 : !rigs[v - 1]->runCase(p)) {
      std::fprintf(stderr, "bench_overhead: a wrong result\n");
      if (!setup->log.empty()) std::remove(setup->log.c_str());
      std::exit(1);
    }
  }
};

// The slowest case of a repetition (µs), as a counter: a stall of a few cases shows there even
// when the repetition's mean hides it.
struct SlowestCase {
  Clock::time_point t = Clock::now();
  double worst = 0;
  void tick() {
    const Clock::time_point now = Clock::now();
    worst = std::max(worst, std::chrono::duration<double, std::micro>(now - t).count());
    t = now;
  }
  void report(benchmark::State& state) const { state.counters["slowest_case_us"] = worst; }
};

// Each rig runs one case before the timed loop: the harness builds its program at its first case
// (the session's cache), and PoCL compiles a kernel's work-group function at its first launch.
// Google Benchmark calls a benchmark anew for every repetition and keeps the iteration count it
// settled on in the first: when a first case (a build, up to seconds on a loaded or fresh machine)
// outlasted --benchmark_min_time, every repetition timed one case and its build, a "stall" of
// 50 ms of main-thread CPU a case that no real run has (issue 28).
void BM_BareLoop(benchmark::State& state) {
  BareRig rig(static_cast<size_t>(state.range(0)));
  rig.run(nullptr);
  size_t bad = 0;
  SlowestCase slowest;
  for (auto _ : state) {
    bad += rig.run(nullptr);
    slowest.tick();
  }
  if (bad) state.SkipWithError("the bare loop saw wrong results");
  state.SetItemsProcessed(state.iterations());
  slowest.report(state);
}

// range(1) = 1 adds guard zones around every buffer, as `clharness check` does on a real device
// (the bare loop has none, so the comparison of like with like is without them).
void BM_Harness(benchmark::State& state) {
  HarnessRig rig(state.range(0), state.range(1) != 0);
  rig.runCase(nullptr);  // the program's build (see BM_BareLoop)
  if (setup->sim) setup->sim->drain();
  size_t bad = 0;
  SlowestCase slowest;
  for (auto _ : state) {
    bad += !rig.runCase(nullptr);
    slowest.tick();
  }
  if (bad) state.SkipWithError("the harness saw wrong results");
  state.SetItemsProcessed(state.iterations());
  slowest.report(state);
}

// Where a case's wall time goes, phase by phase (CasePhases), for the bare loop and the harness
// without and with guards at each size: mean microseconds per case over five rounds of about
// 0.2 s each, the variants interleaved. "teardown" is what follows the last phase (buffers
// released, host memory freed): the case's whole time less its phases.
int phases(const std::vector<int64_t>& sizes, bool guards) {
  struct Row {
    const char* name;
    double clh::CasePhases::*field;
  };
  const Row rows[] = {{"resolve (sizes, program, memory check)", &clh::CasePhases::resolve},
                      {"inputs (generated, outputs poisoned)", &clh::CasePhases::inputs},
                      {"buffers (made, writes enqueued)", &clh::CasePhases::buffers},
                      {"launch (arguments, enqueue)", &clh::CasePhases::launch},
                      {"read (results, guards; waits for the kernel)", &clh::CasePhases::read},
                      {"checks (profiling, simulator log)", &clh::CasePhases::checks},
                      {"reference", &clh::CasePhases::reference},
                      {"compare (and findings)", &clh::CasePhases::compare}};
  std::printf("device: %s (driver %s)\n\n", setup->device.displayName().c_str(),
              setup->device.driver_version.c_str());
  for (int64_t n : sizes) {
    Loops loops(n, guards);
    const size_t variants = loops.count();
    std::vector<clh::CasePhases> sum(variants);
    std::vector<double> total(variants, 0);
    std::vector<long> cases(variants, 0);
    for (size_t v = 0; v < variants; ++v) loops.run(v);  // warm: first touches
    for (int round = 0; round < 5; ++round)
      for (size_t v = 0; v < variants; ++v) {
        // The simulator's log holds the other variants' launches (the plugin watches every
        // context of the process): skipped here, as no case of a real run meets them.
        if (setup->sim) setup->sim->drain();
        const Clock::time_point start = Clock::now();
        Clock::time_point now = start;
        while (now - start < std::chrono::milliseconds(200) || cases[v] == 0) {
          const Clock::time_point t0 = Clock::now();
          loops.run(v, &sum[v]);
          now = Clock::now();
          total[v] += std::chrono::duration<double>(now - t0).count();
          ++cases[v];
        }
      }
    std::printf("%lld elements, µs per case (%ld, %ld%s cases):\n\n", static_cast<long long>(n),
                cases[0], cases[1], guards ? (", " + std::to_string(cases[2])).c_str() : "");
    std::printf("| phase | bare loop | harness |%s\n| --- | ---: | ---: |%s\n",
                guards ? " harness + guards |" : "", guards ? " ---: |" : "");
    auto us = [&](size_t v, double x) { return 1e6 * x / static_cast<double>(cases[v]); };
    for (const Row& r : rows) {
      std::printf("| %s |", r.name);
      for (size_t v = 0; v < variants; ++v) std::printf(" %.1f |", us(v, sum[v].*r.field));
      std::printf("\n");
    }
    std::printf("| teardown (buffers released, host memory freed) |");
    for (size_t v = 0; v < variants; ++v) {
      double phased = 0;
      for (const Row& r : rows) phased += sum[v].*r.field;
      std::printf(" %.1f |", us(v, total[v] - phased));
    }
    std::printf("\n| **the case** |");
    for (size_t v = 0; v < variants; ++v) std::printf(" **%.1f** |", us(v, total[v]));
    std::printf("\n\n");
  }
  return 0;
}

// The ratios measured in pairs: at each size the bare loop and the harness without and with
// guards run in blocks of the same number of cases (about 5 ms of the bare loop, at least 2), one
// block of each in a fresh random order every round, and a round's harness and guards blocks are
// divided by its bare block. Each block starts with a case it does not time: the first case after
// another loop meets caches and freed memory that loop left (at 2^20 items the bare loop's fresh
// buffers then fault their pages in again), which no case of a real run meets. Sizes whose
// buffers are 1 MiB or more are left to ratios.md (the table says why). A shared machine's
// load moves over seconds and falls on the three blocks of a round alike; Google Benchmark's
// repetitions of one loop are seconds apart from the other loop's, and their ratio moves with that
// load (cv 15 to 35 % here, issue 28). Prints a Markdown table: the median of the rounds' ratios
// and their quartiles. Exit 4 when a median is over 3x (a stall). BENCH_PAIRED_SECONDS: the time
// spent at each size (default 4; at least 21 rounds).
int paired(const std::vector<int64_t>& sizes, bool guards) {
  constexpr double kBlock = 5e-3, kStall = 3.0;
  constexpr int64_t kLargeBuffer = int64_t{1} << 20;  // bytes
  bool largeSkipped = false;
  const char* secs = std::getenv("BENCH_PAIRED_SECONDS");
  const double budget = secs && *secs ? std::atof(secs) : 4.0;
  std::printf("device: %s (driver %s)\n\n", setup->device.displayName().c_str(),
              setup->device.driver_version.c_str());
  std::printf(
      "ratios in pairs: the loops of a size in blocks of the same cases, one block of each in a "
      "random order a round; each round's ratio to its own bare block; the median of the rounds "
      "[first quartile, third quartile] (BENCH_PAIRED_SECONDS=%g a size)\n\n",
      budget);
  std::printf(
      "| elements | rounds | cases a block | µs a case: bare loop, harness%s | harness/bare |%s\n",
      guards ? ", guards" : "", guards ? " guards/bare |" : "");
  std::printf("| ---: | ---: | ---: | ---: | ---: |%s\n", guards ? " ---: |" : "");
  std::mt19937 order(1);
  std::vector<std::string> failures;
  for (int64_t n : sizes) {
    if (n * static_cast<int64_t>(sizeof(float)) >= kLargeBuffer) {
      std::printf("| %lld | - | - | - | not in pairs: buffers of %lld KiB (see below) |%s\n",
                  static_cast<long long>(n), static_cast<long long>(n * 4 / 1024),
                  guards ? " - |" : "");
      largeSkipped = true;
      continue;
    }
    Loops loops(n, guards);
    // Warm-up (the builds, first touches), then the block: cases of about kBlock of the bare loop.
    for (size_t v = 0; v < loops.count(); ++v) loops.run(v);
    Clock::time_point t0 = Clock::now();
    for (int i = 0; i < 3; ++i) loops.run(0);
    const double bareCase = std::chrono::duration<double>(Clock::now() - t0).count() / 3;

    const int cases = std::max(2, static_cast<int>(kBlock / std::max(bareCase, 1e-9)));
    std::vector<size_t> variants(loops.count());
    std::iota(variants.begin(), variants.end(), size_t{0});
    std::vector<std::vector<double>> ratio(loops.count() - 1);
    std::vector<std::vector<double>> perCase(variants.size());  // µs a case, each round
    const Clock::time_point start = Clock::now();
    while (perCase[0].size() < 21 ||
           std::chrono::duration<double>(Clock::now() - start).count() < budget) {
      std::shuffle(variants.begin(), variants.end(), order);
      std::vector<double> t(variants.size());
      for (size_t v : variants) {
        if (setup->sim) setup->sim->drain();  // the other loops' launches (see phases)
        loops.run(v);                         // untimed: the loop's state back
        t0 = Clock::now();
        for (int c = 0; c < cases; ++c) loops.run(v);
        t[v] = std::chrono::duration<double>(Clock::now() - t0).count();
      }
      for (size_t v = 0; v < t.size(); ++v) perCase[v].push_back(1e6 * t[v] / cases);
      for (size_t r = 0; r < ratio.size(); ++r) ratio[r].push_back(t[r + 1] / t[0]);
    }
    auto quantile = [](std::vector<double> v, double q) {
      std::sort(v.begin(), v.end());
      return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
    };
    std::string medians;
    for (const auto& v : perCase) medians += (medians.empty() ? "" : ", ") + fmt(quantile(v, 0.5));
    std::printf("| %lld | %zu | %d | %s |", static_cast<long long>(n), perCase[0].size(), cases,
                medians.c_str());
    for (size_t r = 0; r < ratio.size(); ++r) {
      const double median = quantile(ratio[r], 0.5);
      std::printf(" %.2f [%.2f, %.2f] |", median, quantile(ratio[r], 0.25),
                  quantile(ratio[r], 0.75));
      if (median > kStall)
        failures.push_back(std::to_string(n) + " elements, " + (r ? "guards" : "harness") + ": " +
                           fmt(median) + "x the bare loop in the median round");
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  if (largeSkipped)
    std::printf(
        "\nA size whose buffers are %lld MiB or more each is not measured in pairs: in pairs the "
        "bare loop's new buffers of each case meet memory the other loops just used (measured at "
        "2^20 items on a 2-core machine with PoCL 3.1: 16 to 21 ms a case in pairs, 10 to 13 "
        "alone), which would flatter the harness; ratios.md's repetitions hold tens of its cases "
        "each.\n",
        static_cast<long long>(kLargeBuffer >> 20));
  std::printf("\ncheck (no median over %.0fx the bare loop): %s\n", kStall,
              failures.empty() ? "PASS" : "FAIL");
  for (const auto& f : failures) std::printf("FAIL: %s\n", f.c_str());
  return failures.empty() ? 0 : 4;
}

// The ratio table of a --benchmark_out JSON file: per size, the bare loop's time, the harness's
// without and with guard zones and their ratios to the bare loop. Medians of the repetitions when
// the run had some, else the single runs. Wall time (what a user waits for) and the main thread's
// CPU time (steadier on a loaded machine; the drivers' own threads are not in it). Then every
// repetition's time, the slowest one and the slowest single case, and the check that would have
// caught a stall: exit 4 when a harness median is over 3x the bare loop's, or a repetition is over
// 3x its benchmark's median.
int ratios(const std::string& path) {
  constexpr double kStall = 3.0;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "bench_overhead: cannot read %s\n", path.c_str());
    return 2;
  }
  const nlohmann::json j = nlohmann::json::parse(in);
  struct Times {
    double real = 0, cpu = 0, cv = -1;
    std::vector<double> reps;  // each repetition's wall time per case
    double slowest = 0;        // the slowest single case of any repetition
    int64_t cases = 0;         // the cases of a repetition (Google Benchmark's iterations)
  };
  std::map<int64_t, std::map<std::string, Times>> rows;  // size -> bare|harness|guards -> times
  bool aggregates = false;
  for (const auto& b : j.at("benchmarks"))
    aggregates = aggregates || b.value("run_type", "") == "aggregate";
  for (const auto& b : j.at("benchmarks")) {
    const std::string agg = b.value("aggregate_name", "");
    const bool iteration = b.value("run_type", "") == "iteration";
    if (!iteration && agg != "median" && agg != "cv") continue;
    const std::string name = b.at("run_name");
    std::string kind;
    int64_t n = 0;
    if (name.rfind("BM_BareLoop/", 0) == 0) {
      kind = "bare";
      n = std::stoll(name.substr(12));
    } else if (name.rfind("BM_Harness/n:", 0) == 0) {
      n = std::stoll(name.substr(13));
      kind = name.find("guards:1") != std::string::npos ? "guards" : "harness";
    } else {
      continue;
    }
    Times& t = rows[n][kind];
    if (iteration) {
      t.reps.push_back(b.at("real_time").get<double>());
      t.slowest = std::max(t.slowest, b.value("slowest_case_us", 0.0));
      t.cases = b.value("iterations", int64_t{0});
      if (aggregates) continue;
    }
    if (agg == "cv") {
      t.cv = b.at("real_time").get<double>();
    } else {
      t.real = b.at("real_time").get<double>();
      t.cpu = b.at("cpu_time").get<double>();
    }
  }
  const auto& ctx = j.at("context");
  std::printf("device: %s\n", ctx.value("clh_device", std::string("?")).c_str());
  std::printf("driver: %s\n", ctx.value("clh_driver", std::string("?")).c_str());
  std::printf("date: %s, host: %s, %d CPUs, load average at the start: %s\n",
              ctx.value("date", std::string("?")).c_str(),
              ctx.value("host_name", std::string("?")).c_str(), ctx.value("num_cpus", 0),
              ctx.contains("load_avg") ? ctx.at("load_avg").dump().c_str() : "?");
  std::printf("%s\n\n", aggregates
                            ? "medians of the repetitions (cv: their coefficient of variation)"
                            : "single runs (no repetitions)");
  auto cell = [](const std::map<std::string, Times>& r, const std::string& k, bool cpu) {
    auto it = r.find(k);
    if (it == r.end() || it->second.real == 0) return std::string("-");
    char s[64];
    const double v = cpu ? it->second.cpu : it->second.real;
    if (!cpu && it->second.cv >= 0)
      std::snprintf(s, sizeof s, "%.1f (cv %.0f%%)", v, 100 * it->second.cv);
    else
      std::snprintf(s, sizeof s, "%.1f", v);
    return std::string(s);
  };
  auto ratioOf = [](const std::map<std::string, Times>& r, const std::string& k, bool cpu) {
    auto a = r.find(k), b = r.find("bare");
    if (a == r.end() || b == r.end() || a->second.real == 0 || b->second.real == 0) return -1.0;
    return cpu ? a->second.cpu / b->second.cpu : a->second.real / b->second.real;
  };
  auto ratio = [&](const std::map<std::string, Times>& r, const std::string& k, bool cpu) {
    const double x = ratioOf(r, k, cpu);
    if (x < 0) return std::string("-");
    char s[32];
    std::snprintf(s, sizeof s, "%.2f", x);
    return std::string(s);
  };
  for (bool cpu : {false, true}) {
    std::printf("%s\n\n",
                cpu ? "main thread's CPU time per case (µs):" : "wall time per case (µs):");
    std::printf(
        "| elements | bare loop | harness | harness/bare | harness + guards | "
        "guards/bare |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (const auto& [n, r] : rows)
      std::printf("| %lld | %s | %s | %s | %s | %s |\n", static_cast<long long>(n),
                  cell(r, "bare", cpu).c_str(), cell(r, "harness", cpu).c_str(),
                  ratio(r, "harness", cpu).c_str(), cell(r, "guards", cpu).c_str(),
                  ratio(r, "guards", cpu).c_str());
    std::printf("\n");
  }
  // Every repetition, and the check.
  std::vector<std::string> failures;
  const char* label[] = {"bare", "harness", "guards"};
  std::printf(
      "every repetition (wall µs per case, in the order run; cases: how many each timed), the "
      "slowest over the median, and the slowest single case (µs):\n\n| elements | loop | cases | "
      "repetitions | slowest / median | slowest case |\n| ---: | --- | ---: | --- | ---: | ---: "
      "|\n");
  for (const auto& [n, r] : rows)
    for (const char* k : label) {
      auto it = r.find(k);
      if (it == r.end() || it->second.reps.empty()) continue;
      const Times& t = it->second;
      std::string reps;
      for (double v : t.reps) reps += fmt(v) + " ";
      const double median = t.real > 0 ? t.real : t.reps.front();
      const double worst = *std::max_element(t.reps.begin(), t.reps.end());
      std::printf("| %lld | %s | %lld | %s| %.2f | %.1f |\n", static_cast<long long>(n), k,
                  static_cast<long long>(t.cases), reps.c_str(), worst / median, t.slowest);
      if (worst > kStall * median)
        failures.push_back(std::to_string(n) + " elements, " + k + ": a repetition took " +
                           fmt(worst) + " µs a case, " + fmt(worst / median) + "x its median " +
                           fmt(median));
    }
  for (const auto& [n, r] : rows)
    for (const char* k : {"harness", "guards"})
      if (const double x = ratioOf(r, k, false); x > kStall)
        failures.push_back(std::to_string(n) + " elements, " + k + ": median " + fmt(r.at(k).real) +
                           " µs a case, " + fmt(x) + "x the bare loop's " + fmt(r.at("bare").real));
  std::printf(
      "\ncheck (no median over %.0fx the bare loop, no repetition over %.0fx its median): %s\n",
      kStall, kStall, failures.empty() ? "PASS" : "FAIL");
  for (const auto& f : failures) std::printf("FAIL: %s\n", f.c_str());
  return failures.empty() ? 0 : 4;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--ratios") return ratios(argv[2]);
  const bool phaseRun = argc == 2 && std::string(argv[1]) == "--phases";
  const bool pairedRun = argc == 2 && std::string(argv[1]) == "--paired";
  if (phaseRun || pairedRun) argc = 1;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  setup = &makeSetup();
  const char* profile = std::getenv("CLH_BENCH_PROFILE");
  if (profile && *profile) clh::bench::Sampler::start();
  const bool sim = setup->device.simulator;
  // 2^20 work-items on the simulator: one case interprets a million work-items (seconds per case),
  // and the harness runs at most a few thousand there (docs/performance.md): left out unless
  // BENCH_SIM_LARGEST=1 asks for it.
  std::vector<int64_t> sizes{16, 256, 1024};
  const char* simLargest = std::getenv("BENCH_SIM_LARGEST");
  if (!sim || (simLargest && std::string(simLargest) == "1")) sizes.push_back(kLargest);
  if (phaseRun || pairedRun) {
    const int rc = phaseRun ? phases(sizes, !sim) : paired(sizes, !sim);
    if (!setup->log.empty()) std::remove(setup->log.c_str());
    return rc;
  }
  for (int64_t n : sizes)
    benchmark::RegisterBenchmark("BM_BareLoop", BM_BareLoop)->Arg(n)->Unit(benchmark::kMicrosecond);
  // Guard zones exist only on real devices: the simulator checks every access itself.
  for (int64_t guards : sim ? std::vector<int64_t>{0} : std::vector<int64_t>{0, 1})
    for (int64_t n : sizes)
      benchmark::RegisterBenchmark("BM_Harness", BM_Harness)
          ->Args({n, guards})
          ->ArgNames({"n", "guards"})
          ->Unit(benchmark::kMicrosecond);
  benchmark::AddCustomContext("clh_device", setup->device.displayName());
  benchmark::AddCustomContext("clh_driver", setup->device.driver_version);
  benchmark::AddCustomContext("clh_simulator", sim ? "yes" : "no");
  if (sim)
    benchmark::AddCustomContext(
        "clh_note",
        "simulator: no 2^20 size (a million interpreted work-items per case) and no guard "
        "zones (never used there); both loops build with " +
            setup->bare_options + " as the harness does there, the plugin's checks on");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (profile && *profile) clh::bench::Sampler::dump(profile);
  if (!setup->log.empty()) std::remove(setup->log.c_str());
  return 0;
}
