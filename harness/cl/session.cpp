// One case on one device.
#include "cl/session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "cl/build_hook.hpp"
#include "cl/compile_watch.hpp"
#include "core/fit.hpp"
#include "core/reference.hpp"
#include "core/sizes.hpp"
#include "sim/check_fallback.hpp"
#include "sim/oclgrind_session.hpp"
#include "sim/tool_failure.hpp"
#include "sim/work_groups.hpp"

namespace clh {

namespace {

constexpr size_t kMismatchesKept = 8;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read kernel file " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

cl::NDRange toRange(const std::vector<size_t>& v) {
  switch (v.size()) {
    case 1:
      return cl::NDRange(v[0]);
    case 2:
      return cl::NDRange(v[0], v[1]);
    case 3:
      return cl::NDRange(v[0], v[1], v[2]);
    default:
      return cl::NullRange;
  }
}

std::string dims(const std::vector<size_t>& v) {
  std::string s;
  for (size_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return "(" + s + ")";
}

// A sampler that clamps to the edge with nearest filtering, unnormalised coordinates.
// clCreateSampler, not the bindings' clCreateSamplerWithProperties (OpenCL 2.0), which a 1.2
// driver such as Oclgrind lacks: the ICD loader's call of it never returns.
cl::Sampler clampingSampler(cl::Context& context) {
  cl_int err = CL_SUCCESS;
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  cl_sampler made =
      ::clCreateSampler(context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  if (err != CL_SUCCESS) throw cl::Error(err, "clCreateSampler");
  return cl::Sampler(made);  // takes the reference clCreateSampler returned
}

Finding finding(FindingKind kind, std::string summary, const std::string& kernel = {}) {
  Finding f;
  f.kind = kind;
  f.summary = std::move(summary);
  f.kernel = kernel;
  return f;
}

}  // namespace

void setScalarArg(cl::Kernel& kernel, cl_uint index, ElemType type, double value) {
  visitElemType(type, [&]<class T>(TypeTag<T>) { kernel.setArg(index, static_cast<T>(value)); });
}

void DeviceSession::suppress(const Spec& spec, CaseOutcome& out) const {
  if (spec.suppress.empty()) return;
  std::erase_if(out.findings, [&](const Finding& f) {
    for (const auto& s : spec.suppress)
      if (s.kind == f.kind &&
          (s.devices.empty() ||
           std::regex_search(device_.displayName(), std::regex(s.devices, std::regex::icase))))
        return true;
    return false;
  });
}

DeviceSession::DeviceSession(const DeviceInfo& device, OclgrindSession* simulator)
    : device_(device),
      sim_(device.simulator ? simulator : nullptr),
      guard_bytes_(device.simulator ? 0 : guardBytesFor(device.device)) {
  context_ = makeContext();
  queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE);
}

cl::Context DeviceSession::makeContext() const {
  return sim_ ? cl::Context(std::vector<cl::Device>{device_.device}, nullptr,
                            &OclgrindSession::contextNotify, sim_)
              : cl::Context(device_.device);
}

void DeviceSession::reset() {
  // The programs and kernels hold the old context: they go first, then the queue, then it.
  programs_.clear();
  pool_.clear();
  queue_ = cl::CommandQueue();
  context_ = makeContext();
  queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE);
  // Whether anything runs here at all: a driver whose process-wide state is spoilt fails this
  // too (NVIDIA's fails the build with an unknown error after a kernel faulted).
  cl::Program probe(context_, probe_source_);
  try {
    probe.build(std::vector<cl::Device>{device_.device});
  } catch (const cl::Error& e) {
    throw cl::Error(e.err(), "clBuildProgram (the probe kernel in the new context)");
  }
  cl::Kernel kernel(probe, "clh_probe");
  cl::Buffer out(context_, CL_MEM_READ_WRITE, sizeof(cl_int));
  kernel.setArg(0, out);
  queue_.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange);
  cl_int got = 0;
  queue_.enqueueReadBuffer(out, CL_TRUE, 0, sizeof(got), &got);
  if (got != 1) throw cl::Error(CL_INVALID_VALUE, "the probe kernel in the new context");
  needs_reset_ = false;
  ++resets_;
}

BuildOutcome DeviceSession::buildOnce(const std::string& source, const std::string& options,
                                      const std::vector<std::string>& kernels, std::string* text,
                                      bool* kernelListed, int* error, std::string* function) {
  BuildOutcome out;
  out.options = options;
  try {
    cl::Program program(context_, source);
    try {
      *function = "clBuildProgram";
      const BuildHook& hook = buildHook();
      if (hook) hook(true);
      struct EndOfBuild {  // also when the build throws
        const BuildHook& hook;
        ~EndOfBuild() {
          if (hook) hook(false);
        }
      } endOfBuild{hook};
      program.build({device_.device}, options.c_str());
    } catch (const cl::BuildError& e) {
      *error = e.err();
      for (const auto& [dev, log] : e.getBuildLog()) out.log += log;
      *text = out.log;
      return out;
    }
    try {
      out.log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device);
    } catch (const cl::Error&) {
    }
    for (const auto& name : kernels) {
      if (out.kernels.count(name)) continue;
      try {
        *function = "clCreateKernel";
        out.kernels.emplace(name, cl::Kernel(program, name.c_str()));
      } catch (const cl::Error& e) {
        *error = e.err();
        std::string names;
        try {
          names = program.getInfo<CL_PROGRAM_KERNEL_NAMES>();
        } catch (const cl::Error&) {
        }
        *kernelListed = (";" + names + ";").find(";" + name + ";") != std::string::npos;
        *text = fmt::format("no kernel '{}' could be created ({}); the program has: {}", name,
                            clErrorName(e.err()), names.empty() ? "none" : names);
        if (sim_)
          for (const auto& f : sim_->drain()) *text += "\n" + f.raw;
        out.kernels.clear();
        return out;
      }
    }
    out.program = program;
  } catch (const cl::Error& e) {
    *error = e.err();
    *text = std::string(*function) + " failed: " + clErrorName(e.err());
  }
  return out;
}

BuildHook& buildHook() {
  static BuildHook hook;
  return hook;
}

void setBuildHook(BuildHook hook) {
  buildHook() = std::move(hook);
}

const BuildOutcome& DeviceSession::build(const std::string& path, const std::string& options,
                                         const std::vector<std::string>& kernels) {
  auto src = sources_.find(path);
  if (src == sources_.end()) src = sources_.emplace(path, readFile(path)).first;
  return buildText(src->second, options, kernels);
}

std::vector<std::string> DeviceSession::builtOptions(const std::string& source_path) const {
  std::vector<std::string> out;
  const std::string* text = cachedSource(source_path);
  if (!text) return out;
  for (const auto& [key, built] : programs_)
    if (key.first == *text) out.push_back(key.second);
  return out;
}

const BuildOutcome* DeviceSession::cachedBuild(const std::string& text,
                                               const std::string& options) const {
  auto it = programs_.find(std::pair<std::string_view, std::string_view>(text, options));
  return it == programs_.end() ? nullptr : &it->second;
}

const std::string* DeviceSession::cachedSource(const std::string& path) const {
  auto it = sources_.find(path);
  return it == sources_.end() ? nullptr : &it->second;
}

const BuildOutcome& DeviceSession::buildText(const std::string& text, const std::string& options,
                                             const std::vector<std::string>& kernels) {
  if (const BuildOutcome* cached = cachedBuild(text, options)) return *cached;
  auto key = std::make_pair(text, options);
  const std::string* source = &text;

  BuildOutcome result;
  auto describe = [&](const std::string& text, int error, const std::string& function) {
    Finding f;
    f.kind = FindingKind::build_error;
    f.summary =
        fmt::format("{} failed on {} ({}{})", function, device_.displayName(), clErrorName(error),
                    result.options.empty() ? "" : ", options " + result.options);
    f.raw = text;
    f.device = device_.displayName();
    return f;
  };
  if (!sim_) {
    std::string text, function;
    bool listed = false;
    int error = 0;
    result = buildOnce(*source, options, kernels, &text, &listed, &error, &function);
    if (!result.program) result.failure = describe(text, error, function);
  } else {
    // On the simulator a failure may be the tool's: retry once as the rule says, and report what
    // remains as a tool_error, never as the kernel's fault.
    SimulatorBuildResult r = prepareOnSimulator(
        options, [&](const std::string& opts) -> std::optional<SimulatorFailure> {
          std::string text, function;
          bool listed = false;
          int error = 0;
          result = buildOnce(*source, opts, kernels, &text, &listed, &error, &function);
          if (result.program) return std::nullopt;
          return SimulatorFailure{function, error, text, listed};
        });
    sim_->drain();  // a failed attempt's API error belongs to no case
    if (r.retried && !r.finding)
      noteSimulator(simulatorBuildNote(r.first_options, r.first_failure, r.options));
    if (r.finding) {
      result.failure = *r.finding;
      result.failure->device = device_.displayName();
      if (result.failure->raw.empty() && r.failure) result.failure->raw = r.failure->text;
    }
  }
  return programs_.emplace(key, std::move(result)).first->second;
}

std::string simulatorBuildNote(const std::string& failed_options, const std::string& failure,
                               const std::string& ran_options) {
  return fmt::format(
      "the simulator could not run the {} build ({}); its checks ran on the {} build, which {}",
      describeSimulatorBuild(failed_options), failure, describeSimulatorBuild(ran_options),
      isUnoptimisedBuild(ran_options)
          ? "checks the kernel as written"
          : "may hide stores nobody reads, unused reads and static-array overflows");
}

std::string singleItemGroupsNote(const std::string& kernel) {
  return fmt::format(
      "'{}' leaves its local size to the driver and no work-group larger than one work-item "
      "divides some global sizes tried: there the simulator could not look for races between "
      "the work-items of a group",
      kernel);
}

bool isSimulatorLimit(std::string_view note) {
  // The notes above and skippedChecksNote say "could not" exactly when something was not looked
  // at; a build note whose fallback is the unoptimised build lost nothing.
  return note.find("could not") != std::string_view::npos &&
         note.find("checks the kernel as written") == std::string_view::npos;
}

bool isLocalShapesNote(std::string_view note) {
  return note.find("leaves its local size to the driver") != std::string_view::npos;
}

void DeviceSession::noteSimulator(std::string note) {
  if (std::find(sim_notes_.begin(), sim_notes_.end(), note) == sim_notes_.end())
    sim_notes_.push_back(std::move(note));
}

std::vector<std::string> DeviceSession::takeSimulatorNotes() {
  if (!sim_) return {};
  std::vector<std::string> out;
  if (std::string skipped = skippedChecksNote(sim_->skippedChecks()); !skipped.empty())
    out.push_back(std::move(skipped));
  for (const auto& off : sim_->leftOff()) out.push_back(off.second);
  for (auto& n : sim_notes_) out.push_back(std::move(n));
  auto listOf = [](const std::set<std::string>& shapes) {
    std::string list;
    for (const auto& s : shapes) list += (list.empty() ? "" : ", ") + s;
    return list;
  };
  for (const auto& [kernel, shapes] : null_local_shapes_) {
    std::string note = fmt::format(
        "'{}' leaves its local size to the driver: on the simulator it ran in work-groups a "
        "driver could pick ({}), not Oclgrind's 1x1, so races inside a group can show",
        kernel, listOf(shapes));
    if (auto several = several_group_shapes_.find(kernel); several != several_group_shapes_.end())
      note += fmt::format(
          "; and each case again in at least two work-groups in each dimension the global size "
          "allows ({}), so races between groups can show",
          listOf(several->second));
    out.push_back(std::move(note));
  }
  for (const auto& kernel : single_item_kernels_) out.push_back(singleItemGroupsNote(kernel));
  sim_notes_.clear();
  null_local_shapes_.clear();
  several_group_shapes_.clear();
  single_item_kernels_.clear();
  return out;
}

// runCase's steps, in the order they run. Each step that can end the case early (a build error, a
// buffer or launch the driver refused, a failed read) returns false with its finding in `out`.
struct DeviceSession::CaseRun {
  CaseRun(DeviceSession& session, const Spec& spec, const Sizes& sizes, uint64_t seed,
          const RunOptions& run)
      : s(session),
        spec(spec),
        sizes(sizes),
        seed(seed),
        run(run),
        rc(std::move(s.spare_rc_)),
        host(std::move(s.spare_host_)),
        events(std::move(s.spare_events_)),
        got(std::move(s.spare_got_)),
        results(std::move(s.spare_results_)) {
    out.sizes = sizes;
    if (run.phases) since = Clock::now();
  }

  // Its storage, for the next case; the host buffers only when every command of the case has
  // completed (a case ended early may leave a write from them on the queue).
  ~CaseRun() {
    s.spare_rc_ = std::move(rc);
    events.clear();  // released here, their storage kept
    s.spare_events_ = std::move(events);
    results.clear();
    s.spare_results_ = std::move(results);
    if (!completed) return;
    s.spare_host_ = std::move(host);
    s.spare_got_ = std::move(got);
  }
  CaseRun(const CaseRun&) = delete;
  CaseRun& operator=(const CaseRun&) = delete;

  // Phase times for bench/ (RunOptions::phases): two clock reads a phase, only when asked.
  using Clock = std::chrono::steady_clock;
  void phase(double CasePhases::*field) {
    if (!run.phases) return;
    const Clock::time_point now = Clock::now();
    run.phases->*field += std::chrono::duration<double>(now - since).count();
    since = now;
  }

  // The sizes into buffer counts and launches, the program from the cache, the memory check.
  bool resolve() {
    s.env_key_.assign(spec.file);  // no allocation once the key has been this long
    s.env_key_ += '|';
    s.env_key_ += spec.name;
    auto& env = s.envs_[s.env_key_];
    if (!env) env = std::make_unique<ExprEnv>(paramNames(spec));
    resolveCaseInto(spec, *env, sizes, rc);
    out.flops = rc.flops;
    out.bytes = rc.bytes;
    // The session's program of an earlier case, else a build.
    const std::string* text =
        run.source_text ? &*run.source_text : s.cachedSource(spec.source_path);
    built = text ? s.cachedBuild(*text, rc.build_options) : nullptr;
    if (!built) {
      std::vector<std::string> names;
      for (const auto& l : spec.launches) names.push_back(l.kernel);
      built = run.source_text ? &s.buildText(*run.source_text, rc.build_options, names)
                              : &s.build(spec.source_path, rc.build_options, names);
    }
    if (built->failure) {
      out.findings.push_back(*built->failure);
      return false;
    }
    if (s.sim_) s.sim_->drain();  // what earlier cases left belongs to them
    // Sizes that cannot exist are refused before anything is allocated (core/fit.hpp).
    MemoryLimits limits;
    limits.max_alloc = s.device_.max_mem_alloc_size;
    limits.global_mem = s.device_.global_mem_size;
    limits.host_mem = hostMemoryBytes();
    limits.guard_bytes = run.guard_zones ? s.guard_bytes_ : 0;
    if (auto why = caseTooLarge(spec, rc, limits)) throw CaseTooLarge(*why);
    phase(&CasePhases::resolve);
    return true;
  }

  // The host buffers (inputs generated, outputs poisoned), then the device buffers and their
  // writes.
  bool makeBuffers() {
    makeInitialBuffersInto(spec, rc, seed, host);
    phase(&CasePhases::inputs);
    // No pool on the simulator: it checks bounds against the buffer a sub-buffer lies in.
    bufs.emplace(s.context_, s.queue_, run.guard_zones ? s.guard_bytes_ : 0,
                 s.device_.simulator ? nullptr : &s.pool_, s.guard_bytes_);
    read_mode = run.read.value_or(spec.read.value_or(ReadMode::blocking));
    bufs->reserve(spec.buffers.size());
    events.reserve(rc.launches.size());
    try {
      for (const auto& b : spec.buffers)
        bufs->add(b.name, host.at(b.name), b.memory.value_or(run.buffers),
                  b.init.kind != InitSpec::Kind::none,
                  b.access == BufferSpec::Access::read_only    ? CL_MEM_READ_ONLY
                  : b.access == BufferSpec::Access::write_only ? CL_MEM_WRITE_ONLY
                                                               : CL_MEM_READ_WRITE);
      bufs->prepare();  // the shared buffer's write waits for the first launch (writeShared)
    } catch (const cl::Error& e) {
      return buffersFailed(e);
    }
    phase(&CasePhases::buffers);
    return true;
  }

  bool buffersFailed(const cl::Error& e) {
    s.needs_reset_ = !s.device_.simulator;
    out.findings.push_back(finding(FindingKind::launch_error,
                                   fmt::format("creating the buffers ({} mode) failed: {}",
                                               toString(run.buffers), clErrorName(e.err()))));
    return false;
  }

  // The case's shared buffer written (CaseBuffers::commit), right before the first launch is
  // enqueued: the write, the launch and the read then reach the driver back to back, after every
  // other driver call of the case (on PoCL each command enqueued on an idle queue wakes its
  // threads, which then contend with the host's calls).
  bool writeShared() {
    try {
      bufs->commit();
    } catch (const cl::Error& e) {
      return buffersFailed(e);
    }
    return true;
  }

  // Every launch: its arguments set, its local size (the simulator's choice for NULL), enqueued.
  bool launchAll() {
    for (const auto& launch : rc.launches) {
      cl::Kernel& k = built->kernels.at(launch.kernel);
      if (!bindArgs(k, launch) || !writeShared() || !enqueue(k, launch)) return false;
    }
    phase(&CasePhases::launch);
    return true;
  }

  bool bindArgs(cl::Kernel& k, const ResolvedLaunch& launch) {
    cl_uint index = 0;
    try {
      for (const auto& a : launch.args) {
        bindArg(k, index, a);
        ++index;
      }
    } catch (const cl::Error& e) {
      out.findings.push_back(finding(
          FindingKind::launch_error,
          fmt::format("setting argument {} of '{}' failed: {} (does the spec's args list match the "
                      "kernel's parameters?)",
                      index, launch.kernel, clErrorName(e.err())),
          launch.kernel));
      return false;
    }
    return true;
  }

  void bindArg(cl::Kernel& k, cl_uint index, const ResolvedArg& a) {
    switch (a.kind) {
      case ArgSpec::Kind::buffer:
        k.setArg(index, bufs->arg(a.buffer));
        break;
      case ArgSpec::Kind::scalar:
        setScalarArg(k, index, a.type, a.value);
        break;
      case ArgSpec::Kind::local:
        k.setArg(index, cl::Local(std::max<size_t>(a.local_bytes, 1)));
        break;
      case ArgSpec::Kind::bytes:
        k.setArg(index, a.bytes.size(), a.bytes.data());
        break;
      case ArgSpec::Kind::null:  // a NULL buffer (OpenCL 1.2: a NULL arg_value)
        k.setArg(index, sizeof(cl_mem), nullptr);
        break;
      case ArgSpec::Kind::image:
        bindImage(k, index, a);
        break;
      case ArgSpec::Kind::sampler:
        samplers.push_back(clampingSampler(s.context_));
        k.setArg(index, samplers.back());
        break;
    }
  }

  // An image argument: RGBA float pixels, written from the host; it lives until the case ends.
  void bindImage(cl::Kernel& k, cl_uint index, const ResolvedArg& a) {
    const cl::ImageFormat format(CL_RGBA, CL_FLOAT);
    const auto& n = a.image_size;
    const std::array<size_t, 3> region{n.at(0), n.size() > 1 ? n[1] : 1, n.size() > 2 ? n[2] : 1};
    auto place = [&](const cl::Image& image) {
      s.queue_.enqueueWriteImage(image, CL_TRUE, {0, 0, 0}, region, 0, 0, a.bytes.data());
      images.push_back(image);
      k.setArg(index, images.back());
    };
    if (n.size() == 3)
      place(cl::Image3D(s.context_, CL_MEM_READ_WRITE, format, region[0], region[1], region[2]));
    else if (n.size() == 1)
      place(cl::Image1D(s.context_, CL_MEM_READ_WRITE, format, region[0]));
    else
      place(cl::Image2D(s.context_, CL_MEM_READ_WRITE, format, region[0], region[1]));
  }

  bool enqueue(cl::Kernel& k, const ResolvedLaunch& launch) {
    const std::vector<size_t> local =
        s.sim_ && launch.local.empty() ? simulatorLocalSize(k, launch) : launch.local;
    cl::Event ev;
    noteLaunch(k(), local);  // a launch that may compile: a crash in it may be the driver's
    try {
      s.queue_.enqueueNDRangeKernel(
          k, launch.offset.empty() ? cl::NullRange : toRange(launch.offset), toRange(launch.global),
          local.empty() ? cl::NullRange : toRange(local), nullptr, &ev);
    } catch (const cl::Error& e) {
      // Also when the driver only refused the shape: the error may be an earlier launch's failure
      // reported late, and the two cannot be told apart by the code on every driver.
      s.needs_reset_ = !s.device_.simulator;
      out.findings.push_back(
          finding(FindingKind::launch_error,
                  fmt::format("enqueue of '{}' with global {} local {}{} failed: {}", launch.kernel,
                              dims(launch.global), local.empty() ? "NULL" : dims(local),
                              local != launch.local ? " (the simulator's choice for NULL)" : "",
                              clErrorName(e.err())),
                  launch.kernel));
      return false;
    }
    events.push_back(ev);
    return true;
  }

  // On the simulator a NULL local size would run 1x1 groups: run a shape a driver could pick (the
  // kernel's required size if it has one), and note it for the unit.
  std::vector<size_t> simulatorLocalSize(cl::Kernel& k, const ResolvedLaunch& launch) {
    const DeviceInfo& dev = s.device_;
    size_t kernelMax = dev.max_work_group_size, multiple = 1;
    std::array<size_t, 3> required{0, 0, 0};
    try {
      kernelMax = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev.device);
      multiple = k.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(dev.device);
      required = k.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(dev.device);
    } catch (const cl::Error&) {
    }
    if (required[0] != 0) return {required.begin(), required.begin() + launch.global.size()};
    const std::vector<size_t> several =
        severalGroupsLocalSize(launch.global, kernelMax, dev.max_work_item_sizes);
    if (s.several_groups_pass_) {
      s.several_group_shapes_[launch.kernel].insert(formatShape(several));
      return several;
    }
    const auto shapes =
        driverLikeLocalSizes(launch.global, kernelMax, multiple, dev.max_work_item_sizes);
    std::vector<size_t> local = pickLocalSize(shapes, hash64(formatSizes(sizes), seed));
    // A driver-like group often covers the whole range (mmul's N x N in one group): no race
    // between groups could show. The case runs again in several groups (runCase).
    if (!spansSeveralGroups(launch.global, local) && several != local)
      s.several_groups_wanted_ = true;
    size_t items = 1, groupItems = 1;
    for (size_t g : launch.global) items *= g;
    for (size_t l : local) groupItems *= l;
    if (groupItems > 1)
      s.null_local_shapes_[launch.kernel].insert(formatShape(local));
    else if (items > 1)
      s.single_item_kernels_.insert(launch.kernel);
    return local;
  }

  // Read back what is compared; the reads block, so every launch has completed after them.
  bool readBack() {
    try {
      results.clear();
      for (size_t i = 0; i < spec.buffers.size(); ++i) {
        const auto& b = spec.buffers[i];
        if (b.role != Role::out && b.role != Role::inout) continue;
        results.emplace_back(i, &hostBufferIn(got, b.name, b.type, rc.counts[i]));
      }
      if (!writeShared()) return false;        // a case of no launch
      if (results.empty()) s.queue_.finish();  // every read mode waits for the launches before it
      for (auto& f : bufs->readResults(results, read_mode)) {
        f.device = s.device_.displayName();
        out.findings.push_back(std::move(f));
      }
    } catch (const cl::Error& e) {
      s.needs_reset_ = !s.device_.simulator;
      out.findings.push_back(
          finding(FindingKind::launch_error,
                  fmt::format("the kernel's execution failed: {}", clErrorName(e.err()))));
      return false;
    }
    completed = true;  // the reads (or the finish) waited for every command before them
    phase(&CasePhases::read);
    return true;
  }

  // The launches' profiling times, and the simulator's findings.
  void checks() {
    for (auto& ev : events) {
      try {
        cl_ulong start = ev.getProfilingInfo<CL_PROFILING_COMMAND_START>();
        cl_ulong end = ev.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        cl_ulong queued = ev.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>();
        out.kernel_ns += static_cast<double>(end - start);
        out.queued_to_end_ns += static_cast<double>(end - queued);
      } catch (const cl::Error&) {
      }
    }
    if (s.sim_) simulatorFindings();
    phase(&CasePhases::checks);
  }

  void simulatorFindings() {
    OclgrindParseOptions po;
    po.source_file = spec.source;
    po.device = s.device_.displayName();
    OclgrindLog log = s.sim_->drainLog(po);
    if (log.launches.size() < rc.launches.size()) {
      Finding f = finding(FindingKind::tool_error,
                          fmt::format("the simulator's plugin saw {} of {} launches: its "
                                      "diagnostics are missing (did the plugin load?)",
                                      log.launches.size(), rc.launches.size()));
      f.device = s.device_.displayName();
      out.findings.push_back(std::move(f));
    }
    for (auto& f : log.allFindings()) out.findings.push_back(std::move(f));
    for (const auto& launch : log.launches)
      if (std::string note = imagePixelsNote(launch); !note.empty()) s.noteSimulator(note);
  }

  // The reference computes the expected final contents from the same initial buffers.
  void reference() {
    RefCase ref(rc.sizes, rc.scalars, host);
    if (!s.reference_ || s.reference_name_ != spec.reference) {  // one lookup a reference name
      s.reference_ = ReferenceRegistry::instance().find(spec.reference);
      s.reference_name_ = spec.reference;
    }
    (*s.reference_)(ref);
    phase(&CasePhases::reference);
  }

  void compare() {
    if (read_mode == ReadMode::host_pointer) observeHostPointers();
    compareResults();
    s.suppress(spec, out);
    phase(&CasePhases::compare);
  }

  // The host array of a USE_HOST_PTR buffer read without a map is the implementation's business:
  // record what it held, and compare nothing there.
  void observeHostPointers() {
    for (size_t i = 0; i < spec.buffers.size(); ++i) {
      const auto& b = spec.buffers[i];
      if ((b.role != Role::out && b.role != Role::inout) ||
          bufs->mode(i) != BufferMode::use_host_ptr)
        continue;
      std::vector<Mismatch> ignored;
      const int64_t n = compareBuffers(b.name, got.at(b.name), host.at(b.name), rc.tolerances[i],
                                       rc.shapes[i], 0, ignored);
      out.observations.push_back(
          n == 0 ? fmt::format("{}: the USE_HOST_PTR host array held the results after clFinish, "
                               "without a map",
                               b.name)
                 : fmt::format(
                       "{}: the USE_HOST_PTR host array did not hold the results after clFinish "
                       "without a map (a map brings them)",
                       b.name));
      got.erase(b.name);
    }
  }

  // Each result buffer against the reference: one wrong_result and one unwritten finding at most,
  // each naming every buffer it covers.
  void compareResults() {
    std::optional<Finding> wrong, unwritten;  // made when a buffer differs: most cases pass
    for (size_t i = 0; i < spec.buffers.size(); ++i) {
      const auto& b = spec.buffers[i];
      if (b.role != Role::out && b.role != Role::inout) continue;
      const auto at = got.find(b.name);
      if (at == got.end()) continue;
      const HostBuffer& g = at->second;
      std::vector<Mismatch> first;
      int64_t n = compareBuffers(b.name, g, host.at(b.name), rc.tolerances[i], rc.shapes[i],
                                 kMismatchesKept, first);
      if (!n) continue;
      int64_t never = 0;
      for (size_t e = 0; e < g.count(); ++e) never += isPoison(g, e) ? 1 : 0;
      std::optional<Finding>& slot = (never == n) ? unwritten : wrong;
      if (!slot)
        slot = finding(never == n ? FindingKind::unwritten : FindingKind::wrong_result, "");
      Finding& target = *slot;
      target.mismatch_count += n;
      for (auto& m : first)
        if (target.mismatches.size() < kMismatchesKept) target.mismatches.push_back(std::move(m));
      target.summary +=
          fmt::format("{}{}: {} of {} elements {}", target.summary.empty() ? "" : "; ", b.name, n,
                      g.count(), never == n ? "never written" : "differ from the reference");
      if (never && never != n) target.summary += fmt::format(" ({} never written)", never);
    }
    for (std::optional<Finding>* f : {&wrong, &unwritten})
      if (*f && (*f)->mismatch_count) {
        (*f)->device = s.device_.displayName();
        out.findings.push_back(std::move(**f));
      }
  }

  DeviceSession& s;
  const Spec& spec;
  const Sizes& sizes;
  const uint64_t seed;
  const RunOptions& run;
  CaseOutcome out;
  Clock::time_point since{};
  ResolvedCase rc;
  const BuildOutcome* built = nullptr;
  std::map<std::string, HostBuffer> host;
  std::optional<CaseBuffers> bufs;
  ReadMode read_mode = ReadMode::blocking;
  std::vector<cl::Event> events;
  std::vector<cl::Memory> images;  // image and sampler arguments live until the case ends
  std::vector<cl::Sampler> samplers;
  std::map<std::string, HostBuffer> got;  // entries of other names (an earlier case's) unused
  std::vector<std::pair<size_t, HostBuffer*>> results;  // readBack's: buffer index, into `got`
  bool completed = false;
};

CaseOutcome DeviceSession::runCaseOnce(const Spec& spec, const Sizes& sizes, uint64_t seed,
                                       const RunOptions& run) {
  needs_reset_ = false;
  CaseRun c(*this, spec, sizes, seed, run);
  const bool launched = c.resolve() && c.makeBuffers() && c.launchAll() && c.readBack();
  endLaunches();  // every launch ended: read back, or failed
  if (launched) {
    c.checks();
    c.reference();
    c.compare();
  }
  return std::move(c.out);
}

// On the simulator, a case whose launch leaves its local size to the driver and ran in one
// work-group along some dimension runs again in several groups per dimension (severalGroups-
// LocalSize): a race between groups shows on every seed, not only where the pick of driver-like
// shapes happened to split the range. Every case, so that a replay runs both as the search did.
CaseOutcome DeviceSession::runCase(const Spec& spec, const Sizes& sizes, uint64_t seed,
                                   const RunOptions& run) {
  several_groups_wanted_ = false;
  CaseOutcome out = runCaseOnce(spec, sizes, seed, run);
  if (!sim_ || !several_groups_wanted_ || !out.ok()) return out;
  several_groups_pass_ = true;
  CaseOutcome again;
  try {
    again = runCaseOnce(spec, sizes, seed, run);
  } catch (...) {
    several_groups_pass_ = false;
    throw;
  }
  several_groups_pass_ = false;
  if (!again.ok()) return again;
  for (auto& o : again.observations)
    if (std::find(out.observations.begin(), out.observations.end(), o) == out.observations.end())
      out.observations.push_back(std::move(o));
  return out;
}

}  // namespace clh
