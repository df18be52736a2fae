// The family's loop: resolve the case, build the spec's program (and its -cl-std variants), bind
// the spec's arguments, then for each shape enqueue, wait, compare with the prediction, and
// re-run the shapes that ran through the session's own case runner to check their results.
#include "launch/family.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include "cl/memory.hpp"
#include "cl/unit.hpp"
#include "core/case.hpp"
#include "core/fit.hpp"
#include "core/sizes.hpp"
#include "launch/kernel_scan.hpp"
#include "launch/shapes.hpp"

namespace clh::launch {

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string joined(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

Finding makeFinding(FindingKind kind, std::string summary, const std::string& device,
                    const std::string& kernel) {
  Finding f;
  f.kind = kind;
  f.summary = std::move(summary);
  f.device = device;
  f.kernel = kernel;
  return f;
}

// Buffers and scalars of a launch; __local arguments are set per shape.
void bindFixedArgs(cl::Kernel& k, const ResolvedLaunch& launch, const CaseBuffers& buffers) {
  cl_uint index = 0;
  for (const auto& a : launch.args) {
    if (a.kind == ArgSpec::Kind::buffer) k.setArg(index, buffers.arg(a.buffer));
    if (a.kind == ArgSpec::Kind::scalar) setScalarArg(k, index, a.type, a.value);
    ++index;
  }
}

void bindLocalArgs(cl::Kernel& k, const ResolvedLaunch& launch, const std::vector<size_t>& bytes) {
  cl_uint index = 0;
  size_t next = 0;
  for (const auto& a : launch.args) {
    if (a.kind == ArgSpec::Kind::local)
      k.setArg(index, cl::Local(std::max<size_t>(bytes[next++], 1)));
    ++index;
  }
}

// The -cl-std value for the newest OpenCL C version of 2.0 or later the device compiles, or "".
std::string newestClStd(const DeviceInfo& device) {
  int best_major = 0, best_minor = 0;
  auto consider = [&](int major, int minor) {
    if (major > best_major || (major == best_major && minor > best_minor)) {
      best_major = major;
      best_minor = minor;
    }
  };
  size_t bytes = 0;
  if (device.opencl_major >= 3 &&
      clGetDeviceInfo(device.device(), CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &bytes) ==
          CL_SUCCESS &&
      bytes) {
    std::vector<cl_name_version> versions(bytes / sizeof(cl_name_version));
    if (clGetDeviceInfo(device.device(), CL_DEVICE_OPENCL_C_ALL_VERSIONS, bytes, versions.data(),
                        nullptr) == CL_SUCCESS)
      for (const auto& v : versions)
        consider(CL_VERSION_MAJOR(v.version), CL_VERSION_MINOR(v.version));
  }
  std::smatch m;
  static const std::regex c_re(R"(OpenCL C (\d+)\.(\d+))");
  if (std::regex_search(device.c_version, m, c_re)) consider(std::stoi(m[1]), std::stoi(m[2]));
  if (best_major < 2) return "";
  // 2.x devices take CL2.0; 3.0 names itself.
  return best_major >= 3 ? "CL3.0" : "CL2.0";
}

std::string withExtra(const std::string& options, const std::string& extra) {
  if (extra.empty()) return options;
  return options.empty() ? extra : options + " " + extra;
}

std::vector<Expr> constants(const std::vector<size_t>& v) {
  std::vector<Expr> out;
  for (size_t x : v) out.push_back(Expr{std::to_string(x), 0});
  return out;
}

// One build of the spec's program a shape may use.
struct Built {
  BuildVariant info;
  std::string options;  // the spec's resolved options plus info.extra
  cl::Kernel kernel;    // our own kernel object: runCase's keeps its own arguments
};

}  // namespace

std::vector<std::pair<std::string, std::string>> clStdVariants(const DeviceInfo& device) {
  const std::string std_value = newestClStd(device);
  if (std_value.empty()) return {};
  std::string lower = std_value;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return {{lower, "-cl-std=" + std_value},
          {lower + "-uniform", "-cl-std=" + std_value + " -cl-uniform-work-group-size"}};
}

std::vector<std::string> familyBuildOptions(const std::string& options, const DeviceInfo& device) {
  std::vector<std::string> out{options};
  for (const auto& variant : clStdVariants(device))
    out.push_back(withExtra(options, variant.second));
  return out;
}

std::string ShapeCheck::gotText() const {
  if (died == "timeout") return "timeout";
  if (!died.empty()) return "crash: " + died;
  return got.toString();
}

std::vector<std::string> ShapeCheck::ruleIds() const {
  std::vector<std::string> ids;
  for (const auto& r : prediction.rules)
    if (std::find(ids.begin(), ids.end(), r.id) == ids.end()) ids.push_back(r.id);
  return ids;
}

std::string ShapeCheck::toString() const {
  std::string s = "#" + std::to_string(index) + " " + text + ": predicted " +
                  prediction.allowedToString() + ", got " + gotText();
  if (!conforms)
    s += " (" + (ruleIds().empty() ? std::string("must run") : joined(ruleIds(), "+")) +
         (spec_expected ? "; the spec expects this of its kernel" : "") + ")";
  for (const auto& f : result_findings)
    s += "; results: " + std::string(clh::toString(f.kind)) + ": " + f.summary;
  return s;
}

int LaunchFamilyResult::conforming() const {
  return static_cast<int>(
      std::count_if(shapes.begin(), shapes.end(), [](const ShapeCheck& c) { return c.conforms; }));
}
int LaunchFamilyResult::deviating() const {
  return static_cast<int>(shapes.size()) - conforming() - specExpected();
}
int LaunchFamilyResult::specExpected() const {
  return static_cast<int>(std::count_if(shapes.begin(), shapes.end(), [](const ShapeCheck& c) {
    return !c.conforms && c.spec_expected;
  }));
}
int LaunchFamilyResult::mismatching() const {
  return static_cast<int>(std::count_if(shapes.begin(), shapes.end(),
                                        [](const ShapeCheck& c) { return c.resultMismatch(); }));
}
int LaunchFamilyResult::died() const {
  return static_cast<int>(std::count_if(shapes.begin(), shapes.end(),
                                        [](const ShapeCheck& c) { return !c.died.empty(); }));
}

Sizes launchCaseSizes(const Spec& spec, bool simulator, uint64_t seed) {
  ExprEnv env(paramNames(spec));
  const auto gen = sizesGen(spec, simulator);
  const double target = simulator ? 64 : 256;
  rc::Random random(hash64("launch-case:" + spec.name, seed));
  std::optional<Sizes> best;
  double best_distance = 0;
  std::string why;
  for (int draw = 0; draw < 64; ++draw) {
    Sizes sizes = gen(random.split(), rc::kNominalSize).value();
    if (!inDomain(spec, env, sizes, simulator, &why)) continue;
    ResolvedCase rc = resolveCase(spec, env, sizes);
    double items = 1;
    for (size_t g : rc.launches.at(0).global) items *= static_cast<double>(std::max<size_t>(g, 1));
    const double distance = std::abs(std::log(items / target));
    if (!best || distance < best_distance) {
      best = sizes;
      best_distance = distance;
    }
  }
  if (!best)
    throw std::runtime_error("spec " + spec.name + ": no case in its domain in 64 draws (" + why +
                             ")");
  return *best;
}

namespace {

// A command of the shape failed while or after running, or with a code that is no answer to the
// launch's arguments (see LaunchFamilyOptions::stop_after_failed_command).
bool failedCommand(const ShapeCheck& c) {
  const cl_int code = c.got.code;
  if (c.got.stage == launch::Stage::completion && code != CL_SUCCESS) return true;
  if (c.got.stage == launch::Stage::enqueue &&
      (code == CL_OUT_OF_RESOURCES || code == CL_OUT_OF_HOST_MEMORY || code < -1000))
    return true;
  return std::any_of(c.result_findings.begin(), c.result_findings.end(), [](const Finding& f) {
    return f.kind == FindingKind::launch_error || f.kind == FindingKind::tool_error;
  });
}

}  // namespace

namespace {

// One family's run: the steps of runLaunchFamily, sharing the case, the builds, the buffers and
// the result. A step that ends the family returns false with `r_` as it stands.
class FamilyLoop {
 public:
  FamilyLoop(DeviceSession& session, const Spec& spec, const Sizes& sizes, uint64_t seed,
             const LaunchFamilyOptions& options)
      : session_(session),
        spec_(spec),
        sizes_(sizes),
        seed_(seed),
        options_(options),
        device_(session.device()),
        env_(paramNames(spec)),
        rc_(resolveCase(spec, env_, sizes)),
        first_(rc_.launches.at(0)),
        kernel_name_(first_.kernel) {
    r_.spec = spec.name;
    r_.spec_file = spec.file;
    r_.device = device_.displayName();
    r_.sizes = sizes;
    r_.seed = seed;
    for (const auto& l : spec.launches) names_.push_back(l.kernel);
  }

  LaunchFamilyResult run(int shapes) {
    if (!buildPrograms() || !makeCaseBuffers() || !describeLaunch()) return std::move(r_);
    if (options_.on_ready) options_.on_ready(r_);
    expected_ = expectedFindings(spec_, device_);
    const auto gen = genSpecShape(r_.launch);
    rc::Random random(hash64("launch-shapes:" + spec_.name, seed_));
    for (int i = 0; i < shapes; ++i) {
      const rc::Random shape_random = random.split();
      if (i < options_.first_shape) continue;
      if (!runShape(i, gen(shape_random, rc::kNominalSize).value())) return finished();
    }
    queue_.finish();
    return finished();
  }

 private:
  LaunchFamilyResult finished() {
    const auto shared = std::count_if(r_.shapes.begin(), r_.shapes.end(),
                                      [](const ShapeCheck& c) { return c.results_of >= 0; });
    if (shared > 0)
      r_.notes.push_back(std::to_string(shared) +
                         " shape(s) ran a case an earlier shape's result check had run (the same "
                         "build, local size and __local bytes; the spec's global size): their "
                         "results are that run's");
    return std::move(r_);
  }

  bool fail(FindingKind kind, std::string summary) {
    r_.failure = makeFinding(kind, std::move(summary), r_.device, kernel_name_);
    return false;
  }

  bool expects(FindingKind k) const {
    return std::find(expected_.begin(), expected_.end(), k) != expected_.end();
  }

  // The spec's own build, then the -cl-std variants the device compiles.
  bool buildPrograms() {
    const BuildOutcome& b = session_.build(spec_.source_path, rc_.build_options, names_);
    if (b.failure) {
      r_.failure = *b.failure;
      return false;
    }
    builds_.push_back(
        {{"spec", "", {}}, rc_.build_options, cl::Kernel(*b.program, kernel_name_.c_str())});
    addClStdVariants();
    for (auto& built : builds_)
      built.info.program = launch::programOptions(built.kernel, device_.device);
    return true;
  }

  void addClStdVariants() {
    for (const auto& [name, extra] : clStdVariants(device_)) {
      const std::string opts = withExtra(rc_.build_options, extra);
      const BuildOutcome& b = session_.build(spec_.source_path, opts, names_);
      if (b.failure) {
        r_.notes.push_back("build variant '" + name + "' (" + extra +
                           ") left out: " + b.failure->summary);
        continue;
      }
      builds_.push_back({{name, extra, {}}, opts, cl::Kernel(*b.program, kernel_name_.c_str())});
    }
  }

  // The case's buffers, with guard zones on real devices; a queue of our own. Sizes that cannot
  // exist are refused first (core/fit.hpp): the unit is skipped with the note, not a tool error.
  bool makeCaseBuffers() {
    guard_ = device_.simulator ? 0 : guardBytesFor(device_.device);
    if (auto why = caseTooLarge(
            spec_, rc_,
            {device_.max_mem_alloc_size, device_.global_mem_size, hostMemoryBytes(), guard_}))
      return fail(FindingKind::other, "the case's buffers cannot exist: " + *why);
    host_ = makeInitialBuffers(spec_, rc_, seed_);
    queue_ = cl::CommandQueue(session_.context(), device_.device);
    try {
      makeBuffers();
    } catch (const cl::Error& e) {
      return fail(FindingKind::launch_error,
                  std::string("creating the case's buffers failed: ") + clErrorName(e.err()));
    }
    return true;
  }

  void makeBuffers() {
    buffers_ = std::make_unique<CaseBuffers>(session_.context(), queue_, BufferMode::write, guard_);
    for (const auto& b : spec_.buffers) buffers_->add(b.name, host_.at(b.name));
  }

  // What the generator works from: the spec's launch, the limits, the kernel's features.
  bool describeLaunch() {
    SpecLaunch& sl = r_.launch;
    sl.global = first_.global;
    sl.local = first_.local;
    sl.offset = first_.offset;
    for (const auto& a : first_.args)
      if (a.kind == ArgSpec::Kind::local) {
        sl.local_arg_bytes.push_back(std::max<size_t>(a.local_bytes, 1));
        sl.local_arg_elem.push_back(sizeOf(a.type));
      }
    const auto features = workGroupFeatures(readText(spec_.source_path));
    sl.any_local = first_.local.empty() || features.empty();
    if (!features.empty())
      r_.notes.push_back("the kernel source uses " + joined(features, ", ") +
                         (sl.any_local ? "" : ": shapes that run keep the spec's local size"));
    sl.device = launch::deviceLimits(device_);
    if (options_.adjust_limits) options_.adjust_limits(sl.device);
    try {
      bindFixedArgs(builds_[0].kernel, first_, *buffers_);
      bindLocalArgs(builds_[0].kernel, first_, sl.local_arg_bytes);
    } catch (const cl::Error& e) {
      return fail(FindingKind::launch_error,
                  std::string("setting the spec's arguments of '") + kernel_name_ +
                      "' failed: " + clErrorName(e.err()) +
                      " (does the args list match the kernel's parameters?)");
    }
    sl.kernel = launch::kernelLimits(builds_[0].kernel, device_.device);
    for (const auto& b : builds_) sl.variants.push_back(b.info);
    sl.zero_local = options_.zero_local;
    sl.kinds = options_.kinds;
    r_.kinds = specShapeKinds(sl);
    r_.omitted = omittedKinds(sl);
    return true;
  }

  // Runs shape number `i`: false when the family stops here (a failure, or a failed command
  // after which the queue may be unusable).
  bool runShape(int i, SpecShape shape) {
    ShapeCheck check;
    check.index = i;
    check.shape = std::move(shape);
    check.text = check.shape.toString(r_.launch);
    Built& built = builds_[std::min(check.shape.variant, builds_.size() - 1)];
    bool args_set = true;
    try {
      bindFixedArgs(built.kernel, first_, *buffers_);
    } catch (const cl::Error& e) {
      return fail(FindingKind::launch_error,
                  std::string("setting the spec's arguments failed: ") + clErrorName(e.err()));
    }
    try {
      bindLocalArgs(built.kernel, first_, check.shape.local_arg_bytes);
    } catch (const cl::Error& e) {
      check.got = {launch::Stage::set_args, e.err()};
      args_set = false;
    }
    check.kernel = launch::kernelLimits(built.kernel, device_.device);
    check.prediction = launch::predictLaunch(r_.launch.device, check.kernel, built.info.program,
                                             check.shape.config);
    if (options_.skip_must_run && args_set && check.prediction.mustSucceed()) {
      if (options_.on_shape_not_run) options_.on_shape_not_run(check);
      return true;
    }
    if (options_.on_shape_start) options_.on_shape_start(check, "enqueue");
    const bool context_broken = args_set && !enqueueShape(check, built);
    check.conforms = check.prediction.accepts(check.got);
    // A launch that had to run and failed, from a spec that expects its kernel to fail so (a
    // private array too large for the device: CL_OUT_OF_RESOURCES on NVIDIA's driver).
    check.spec_expected =
        !check.conforms && check.prediction.mustSucceed() && expects(FindingKind::launch_error);
    const bool ran = check.got == launch::Outcome{launch::Stage::completion, CL_SUCCESS};
    if (ran && check.shape.checkable && options_.check_results) checkResults(check, built);
    if (options_.on_shape_done) options_.on_shape_done(check);
    const bool stop = options_.stop_after_failed_command && !device_.simulator &&
                      (context_broken || failedCommand(check));
    r_.shapes.push_back(std::move(check));
    if (stop) r_.restart_at = i + 1;
    return !stop;  // on a stop the queue may be unusable: no finish
  }

  // Enqueues the shape and waits for it; false when the context itself failed after it.
  bool enqueueShape(ShapeCheck& check, Built& built) {
    const launch::LaunchConfig& c = check.shape.config;
    cl_event event = nullptr;
    const cl_int code = clEnqueueNDRangeKernel(
        queue_(), built.kernel(), c.work_dim, c.offset ? c.offset->data() : nullptr,
        c.global.empty() ? nullptr : c.global.data(), c.local ? c.local->data() : nullptr, 0,
        nullptr, &event);
    if (code != CL_SUCCESS) {
      check.got = {launch::Stage::enqueue, code};
      return true;
    }
    const cl_int waited = clWaitForEvents(1, &event);
    cl_int status = CL_COMPLETE;
    clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
    clReleaseEvent(event);
    check.got = {launch::Stage::completion, status < 0 ? status : waited};
    return checkGuardsAfter(check);
  }

  // A shape that ran must have stayed inside the buffers (guard zones, real devices). False when
  // the buffers could not be made again: the context failed and nothing more runs in it.
  bool checkGuardsAfter(ShapeCheck& check) {
    try {
      auto hits = buffers_->checkGuards();
      for (auto& f : hits) {
        f.device = r_.device;
        f.kernel = kernel_name_;
        f.summary = "while the shape itself ran: " + f.summary;
        if (!expects(f.kind)) check.result_findings.push_back(std::move(f));
      }
      if (!hits.empty()) makeBuffers();
    } catch (const cl::Error& e) {
      // The shape's command failed and the failure shows again here; a spec that expects its
      // kernel to fail a launch (launch_error) expects this too.
      if (!expects(FindingKind::launch_error))
        check.result_findings.push_back(makeFinding(
            FindingKind::launch_error,
            std::string("reading the guard zones after the shape failed: ") + clErrorName(e.err()),
            r_.device, kernel_name_));
      try {
        makeBuffers();
      } catch (const cl::Error&) {
        return false;
      }
    }
    return true;
  }

  // What a result check runs: the spec's case with the shape's build, local size and __local
  // bytes (its global size and offset are the spec's whatever the shape's).
  static std::string resultCaseKey(const ShapeCheck& check, const Built& built) {
    std::string key = built.options + "|";
    if (const auto& local = check.shape.config.local)
      for (size_t l : *local) key += std::to_string(l) + ",";
    else
      key += "NULL";
    key += "|";
    for (size_t b : check.shape.local_arg_bytes) key += std::to_string(b) + ",";
    return key;
  }

  // Checks the results of a shape that ran: the case it stands for run through the session's own
  // case runner, or the findings of the earlier shape that ran the same case: the same inputs and
  // the same launch, which most checked shapes of the main job repeated (docs/performance.md,
  // "One result check per case").
  void checkResults(ShapeCheck& check, const Built& built) {
    const std::string key = resultCaseKey(check, built);
    if (const auto earlier = result_cases_.find(key); earlier != result_cases_.end()) {
      check.results_checked = true;
      check.results_of = earlier->second.first;
      check.result_findings = earlier->second.second;
      return;
    }
    runResultCheck(check, built);
    result_cases_[key] = {check.index, check.result_findings};
  }

  // Re-runs a shape that ran through the session's own case runner to check its results.
  void runResultCheck(ShapeCheck& check, const Built& built) {
    if (options_.on_shape_start) options_.on_shape_start(check, "results");
    const launch::LaunchConfig& c = check.shape.config;
    Spec variant = spec_;
    variant.build_options = withExtra(spec_.build_options, built.info.extra);
    LaunchSpec& l0 = variant.launches.at(0);
    l0.local = c.local ? constants(*c.local) : std::vector<Expr>{};
    size_t next = 0;
    for (auto& a : l0.args)
      if (a.kind == ArgSpec::Kind::local) {
        const size_t elem = std::max<size_t>(r_.launch.local_arg_elem[next], 1);
        a.value = Expr{std::to_string(check.shape.local_arg_bytes[next] / elem), a.value.line};
        ++next;
      }
    check.results_checked = true;
    try {
      CaseOutcome out = session_.runCase(variant, sizes_, seed_);
      for (auto& f : out.findings)
        if (!expects(f.kind)) check.result_findings.push_back(std::move(f));
    } catch (const std::exception& e) {
      check.result_findings.push_back(makeFinding(
          FindingKind::tool_error, std::string("the result check could not run: ") + e.what(),
          r_.device, kernel_name_));
    }
  }

  DeviceSession& session_;
  const Spec& spec_;
  const Sizes& sizes_;
  const uint64_t seed_;
  const LaunchFamilyOptions& options_;
  const DeviceInfo& device_;
  ExprEnv env_;
  const ResolvedCase rc_;
  const ResolvedLaunch& first_;
  const std::string& kernel_name_;
  std::vector<std::string> names_;
  std::vector<Built> builds_;
  size_t guard_ = 0;
  std::map<std::string, HostBuffer> host_;
  cl::CommandQueue queue_;
  std::unique_ptr<CaseBuffers> buffers_;
  std::vector<FindingKind> expected_;
  // Each result case run so far: the shape that ran it, and its findings.
  std::map<std::string, std::pair<int, std::vector<Finding>>> result_cases_;
  LaunchFamilyResult r_;
};

}  // namespace

LaunchFamilyResult runLaunchFamily(DeviceSession& session, const Spec& spec, const Sizes& sizes,
                                   int shapes, uint64_t seed, const LaunchFamilyOptions& options) {
  return FamilyLoop(session, spec, sizes, seed, options).run(shapes);
}

bool chargedToDriver(const ShapeCheck& c) {
  if (!c.prediction.mustSucceed()) return true;
  if (c.spec_expected || !c.died.empty() || c.conforms) return false;
  const int code = c.got.code;
  const bool refused = c.got.stage != Stage::completion && code < 0 &&
                       code != CL_OUT_OF_RESOURCES && code != CL_OUT_OF_HOST_MEMORY &&
                       code != CL_MEM_OBJECT_ALLOCATION_FAILURE;
  return refused;
}

}  // namespace clh::launch
