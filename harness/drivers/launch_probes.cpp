// The built-in kernels of the launch rows and the folding of shape results into matrix rows.
#include "drivers/launch_probes.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/shell.hpp"
#include "launch/shapes.hpp"
#include "proc/child.hpp"

namespace clh::drivers {

using namespace launch;  // the rules and shapes the probes draw and check

namespace {

// Each kernel writes one int per work-item at its linear index from 0 (the global offset taken
// off), never kUnwritten, so a buffer of the product of the global sizes always suffices and
// checkLaunchShapes can tell whether every work-item of a successful launch ran.
const char* kProbeSource = R"CLC(
size_t lin(void) {
  size_t i = 0, stride = 1;
  for (uint d = 0; d < get_work_dim(); ++d) {
    i += (get_global_id(d) - get_global_offset(d)) * stride;
    stride *= get_global_size(d);
  }
  return i;
}
size_t llin(void) {
  return get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}
__kernel void index_writer(__global int* out) { out[lin()] = (int)lin(); }
__kernel void dynamic_local(__global int* out, __local int* tmp, uint tmp_n) {
  size_t l = llin();
  if (l < tmp_n) tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lin()] = l < tmp_n ? tmp[l] : -1;
}
__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void required_size(__global int* out) {
  out[lin()] = (int)llin();
}
__kernel void static_local(__global int* out) {
  __local int tile[64];
  size_t l = llin();
  if (l < 64) tile[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lin()] = l < 64 ? tile[l] : -1;
}
)CLC";

struct Row {
  const char* kind;
  const char* title;
  const char* rule;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> all = {
      {"valid", "Valid local sizes (global a multiple of local)",
       "a launch within every limit runs: CL_SUCCESS, a complete command, and every work-item "
       "wrote its output"},
      {"null_local", "local_work_size = NULL",
       "the runtime chooses the work-group size: CL_SUCCESS and every work-item runs (before "
       "OpenCL 2.0, CL_INVALID_WORK_GROUP_SIZE for a kernel with reqd_work_group_size)"},
      {"over_device_max", "Work-group over CL_DEVICE_MAX_WORK_GROUP_SIZE",
       "CL_INVALID_WORK_GROUP_SIZE (and CL_INVALID_WORK_ITEM_SIZE where a dimension is also over "
       "its maximum)"},
      {"over_kernel_max", "Work-group over CL_KERNEL_WORK_GROUP_SIZE",
       "CL_INVALID_WORK_GROUP_SIZE (OpenCL 1.x: or CL_OUT_OF_RESOURCES)"},
      {"over_item_size", "A dimension over CL_DEVICE_MAX_WORK_ITEM_SIZES",
       "CL_INVALID_WORK_ITEM_SIZE (and CL_INVALID_WORK_GROUP_SIZE where the product is also over)"},
      {"not_dividing", "Global size not a multiple of the local size",
       "uniform work-groups required (OpenCL 1.x, or -cl-std before CL2.0, or no device support): "
       "CL_INVALID_WORK_GROUP_SIZE; otherwise every work-item runs, in a partial last group"},
      {"zero_local", "A 0 in local_work_size",
       "the specification names no code (rule local.zero): an error (CL_INVALID_WORK_GROUP_SIZE "
       "or CL_INVALID_WORK_ITEM_SIZE), or running every work-item as with a NULL local size; "
       "CL_SUCCESS with work-items that never ran, or a crash, does not conform"},
      {"zero_global", "A 0 in global_work_size",
       "CL_INVALID_GLOBAL_WORK_SIZE before OpenCL 2.1; from 2.1 the launch trivially succeeds"},
      {"reqd_mismatch", "Local size other than reqd_work_group_size", "CL_INVALID_WORK_GROUP_SIZE"},
      {"reqd_null_local", "NULL local size for a kernel with reqd_work_group_size",
       "OpenCL 1.x: CL_INVALID_WORK_GROUP_SIZE; from 2.0 no error is listed: the required size "
       "is used and every work-item runs (global a multiple of it)"},
      {"offset", "A global offset",
       "OpenCL 1.1+: CL_SUCCESS and every work-item runs; 1.0: CL_INVALID_GLOBAL_OFFSET"},
      {"offset_overflow", "global + offset past the device's size_t", "CL_INVALID_GLOBAL_OFFSET"},
      {"local_mem_over", "__local arguments over CL_DEVICE_LOCAL_MEM_SIZE",
       "CL_OUT_OF_RESOURCES at enqueue (or from clSetKernelArg, or a failed command)"},
      {"invalid_work_dim", "work_dim 0 or over CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS",
       "CL_INVALID_WORK_DIMENSION"},
  };
  return all;
}

std::string rowId(const std::string& kind) {
  return "launch." + kind;
}

size_t items(const LaunchConfig& c) {
  size_t n = 1;
  for (size_t g : c.global) n *= std::max<size_t>(g, 1);
  return n;
}

}  // namespace

const std::vector<CheckInfo>& launchChecks() {
  static const std::vector<CheckInfo> infos = [] {
    std::vector<CheckInfo> v;
    for (const auto& r : rows()) v.push_back({rowId(r.kind), r.title, r.rule});
    return v;
  }();
  return infos;
}

const std::vector<std::string>& crashProneFamilies() {
  static const std::vector<std::string> families = {"zero_local"};
  return families;
}

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool wantedFamily(const LaunchCheckOptions& options, const std::string& family) {
  return options.families.empty() ? !contains(crashProneFamilies(), family)
                                  : contains(options.families, family);
}

// The shapes of each family, and the first that deviated.
struct Tally {
  int shapes = 0, deviating = 0;
  const ShapeResult* first = nullptr;
};

cl::Program buildProbes(const cl::Context& context, const clh::DeviceInfo& device) {
  cl::Program program(context, kProbeSource);
  try {
    program.build({device.device});
  } catch (const cl::Error&) {
    throw std::runtime_error("the launch kernels did not build: " +
                             program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device));
  }
  return program;
}

// What the probes draw. A family that is not crash-prone, run alone (in a child, after a driver
// took a whole run down: --isolate-launch), draws the whole run's shapes and launches its own: the
// same shapes as in the run it stands for, not a run's worth of its own (on a driver that compiles
// each local size, that was some 13 times the compiles). A crash-prone family draws its own.
ShapeOptions drawOptions(const clh::DeviceInfo& device, const LaunchCheckOptions& options) {
  ShapeOptions o;
  if (device.simulator) o.max_global_items = 1024;
  const bool alone_of_a_run =
      !options.families.empty() &&
      std::none_of(options.families.begin(), options.families.end(),
                   [](const std::string& f) { return contains(crashProneFamilies(), f); });
  const LaunchCheckOptions drawn = alone_of_a_run ? LaunchCheckOptions{} : options;
  if (alone_of_a_run) o.run_only = options.families;
  o.zero_local = wantedFamily(drawn, "zero_local");
  for (const auto& row : rows())
    if (wantedFamily(drawn, row.kind)) o.kinds.push_back(row.kind);
  return o;
}

// The shapes each probe kernel draws: the options' count, or 40 on a simulator and 100 elsewhere.
int shapesPerKernel(const clh::DeviceInfo& device, const LaunchCheckOptions& options) {
  return options.shapes_per_kernel > 0 ? options.shapes_per_kernel : device.simulator ? 40 : 100;
}

}  // namespace

std::vector<ProbeShapes> runLaunchProbes(const clh::DeviceInfo& device,
                                         const LaunchCheckOptions& options) {
  const int shapes = shapesPerKernel(device, options);
  cl::Context context(device.device);
  cl::Program program = buildProbes(context, device);
  // The buffer of the current shape: a kernel argument does not keep its buffer alive.
  cl::Buffer current;
  auto buffer = [&](const LaunchShape& s) -> const cl::Buffer& {
    current = cl::Buffer(context, CL_MEM_WRITE_ONLY, items(s.config) * sizeof(int));
    return current;
  };
  const ShapeOptions base = drawOptions(device, options);
  struct Run {
    const char* kernel;
    ShapeOptions options;
    SetArgs set;
  };
  ShapeOptions with_offsets = base;
  with_offsets.offsets = true;
  ShapeOptions with_local = base;
  with_local.dynamic_local = true;
  auto plain = [&](cl::Kernel& k, const LaunchShape& s) { k.setArg(0, buffer(s)); };
  auto output = [&](const LaunchShape&) { return current; };
  std::vector<Run> runs = {
      {"index_writer", with_offsets, plain},
      {"dynamic_local", with_local,
       [&](cl::Kernel& k, const LaunchShape& s) {
         k.setArg(0, buffer(s));
         k.setArg(2, static_cast<cl_uint>(s.config.dynamic_local_bytes / sizeof(int)));
         k.setArg(1, cl::Local(s.config.dynamic_local_bytes));
       }},
      {"required_size", base, plain},
      {"static_local", base, plain},
  };
  uint64_t seed = options.seed;
  std::vector<ProbeShapes> out;
  for (auto& run : runs) {
    cl::Kernel kernel(program, run.kernel);
    out.push_back({run.kernel, checkLaunchShapes(device, kernel, run.set, shapes, seed++,
                                                 run.options, output)});
  }
  return out;
}

namespace {

// Each family's shapes, and the first that deviated (pointing into `probes`).
std::map<std::string, Tally> tallies(const std::vector<ProbeShapes>& probes) {
  std::map<std::string, Tally> by_family;
  for (const auto& probe : probes)
    for (const auto& r : probe.results) {
      Tally& t = by_family[r.shape.kind];
      ++t.shapes;
      if (!r.conforms && ++t.deviating == 1) t.first = &r;
    }
  return by_family;
}

// One family's row: skipped (setup failed, or no shape), conforms, or deviates with its first.
CheckResult rowResult(const Row& row, const std::map<std::string, Tally>& by_family,
                      const std::string& setup_error) {
  CheckResult r;
  r.id = rowId(row.kind);
  r.title = row.title;
  r.rule = row.rule;
  auto it = by_family.find(row.kind);
  if (it != by_family.end() && it->second.shapes == 0) it = by_family.end();
  if (!setup_error.empty()) {
    r.verdict = Verdict::skipped;
    r.detail = setup_error;
  } else if (it == by_family.end()) {
    r.verdict = Verdict::skipped;
    r.detail = "no shape of this family for this device's limits";
  } else if (it->second.deviating == 0) {
    r.verdict = Verdict::conforms;
    r.detail = std::to_string(it->second.shapes) + " shapes";
  } else {
    const ShapeResult& f = *it->second.first;
    r.verdict = Verdict::deviates;
    r.got = f.gotText();
    r.required = f.requiredText();
    r.detail = std::to_string(it->second.deviating) + " of " + std::to_string(it->second.shapes) +
               " shapes deviate; first: " + f.toString();
  }
  return r;
}

}  // namespace

std::vector<CheckResult> runLaunchChecks(const clh::DeviceInfo& device,
                                         const LaunchCheckOptions& options) {
  std::vector<ProbeShapes> probes;
  std::string setup_error;
  try {
    probes = runLaunchProbes(device, options);
  } catch (const cl::Error& e) {
    setup_error = std::string("setup failed: ") + e.what() + " " + clErrorName(e.err());
  } catch (const std::exception& e) {
    setup_error = std::string("setup failed: ") + e.what();
  }
  const std::map<std::string, Tally> by_family = tallies(probes);
  std::vector<CheckResult> out;
  for (const auto& row : rows())
    if (wantedFamily(options, row.kind)) out.push_back(rowResult(row, by_family, setup_error));
  return out;
}

std::string exactDeviceRegex(const clh::DeviceInfo& device) {
  return clh::exactDeviceRegex(device.displayName());
}

std::string launchRowsJson(const std::vector<CheckResult>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows)
    out.push_back({{"id", r.id},
                   {"title", r.title},
                   {"rule", r.rule},
                   {"verdict", toString(r.verdict)},
                   {"got", r.got},
                   {"required", r.required},
                   {"observed", r.observed},
                   {"detail", r.detail}});
  return out.dump();
}

std::vector<CheckResult> launchRowsFromJson(const std::string& text) {
  std::vector<CheckResult> rows;
  for (const auto& j : nlohmann::json::parse(text)) {
    CheckResult r;
    r.id = j.at("id").get<std::string>();
    r.title = j.value("title", "");
    r.rule = j.value("rule", "");
    r.verdict = verdictFromString(j.at("verdict").get<std::string>());
    r.got = j.value("got", "");
    r.required = j.value("required", "");
    r.observed = j.value("observed", "");
    r.detail = j.value("detail", "");
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<std::string> launchFamilies() {
  std::vector<std::string> out;
  for (const auto& r : rows()) out.push_back(r.kind);
  return out;
}

std::vector<CheckResult> runIsolatedLaunchRows(const std::vector<std::string>& child_argv,
                                               int timeout_seconds,
                                               const std::vector<std::string>& families,
                                               const std::optional<std::vector<std::string>>& env) {
  std::vector<CheckResult> out;
  for (const auto& family : families) {
    std::vector<std::string> argv = child_argv;
    for (auto& a : argv)
      for (size_t at; (at = a.find("{family}")) != std::string::npos;) a.replace(at, 8, family);
    clh::ChildOptions co;
    co.timeout_s = timeout_seconds;
    co.capture_stdout = true;
    co.env = env;
    const clh::ChildOutcome child = clh::runChild(argv, co);
    CheckResult r;
    r.id = rowId(family);
    for (const auto& row : rows())
      if (row.kind == family) {
        r.title = row.title;
        r.rule = row.rule;
      }
    if (child.started && !child.timed_out && !child.interrupted && child.exit_code == 0) {
      try {
        for (auto& row : launchRowsFromJson(child.out))
          if (row.id == r.id) r = std::move(row);
        if (r.verdict == Verdict::skipped && r.detail.empty()) r.detail = "the child gave no row";
      } catch (const std::exception& e) {
        r.verdict = Verdict::skipped;
        r.detail = std::string("the child's output is not rows JSON: ") + e.what();
      }
    } else if (!child.started || child.interrupted) {
      r.verdict = Verdict::skipped;
      r.detail = child.interrupted ? "interrupted (" + signalName(interruptRequested()) + ")"
                                   : "could not start a child process: " + child.error;
    } else {
      // The driver took the process down (or hung): no specification outcome is a crash.
      r.verdict = Verdict::deviates;
      if (child.timed_out)
        r.got = "the process hung (killed after " + std::to_string(timeout_seconds) + " s)";
      else if (child.signal)
        r.got = "the process killed by " + signalName(child.signal);
      else
        r.got = "the process exited with code " + std::to_string(child.exit_code);
      r.required = "an error code from the enqueue, or a completed command";
      r.detail = "shapes run in a child process: " + argv.front();
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace clh::drivers
