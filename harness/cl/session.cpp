// One case on one device.
#include "cl/session.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "core/reference.hpp"
#include "core/sizes.hpp"

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
    case 1: return cl::NDRange(v[0]);
    case 2: return cl::NDRange(v[0], v[1]);
    case 3: return cl::NDRange(v[0], v[1], v[2]);
    default: return cl::NullRange;
  }
}

std::string dims(const std::vector<size_t>& v) {
  std::string s;
  for (size_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return "(" + s + ")";
}

void setScalar(cl::Kernel& k, cl_uint index, ElemType t, double v) {
  switch (t) {
    case ElemType::i8: k.setArg(index, static_cast<cl_char>(v)); break;
    case ElemType::u8: k.setArg(index, static_cast<cl_uchar>(v)); break;
    case ElemType::i16: k.setArg(index, static_cast<cl_short>(v)); break;
    case ElemType::u16: k.setArg(index, static_cast<cl_ushort>(v)); break;
    case ElemType::i32: k.setArg(index, static_cast<cl_int>(v)); break;
    case ElemType::u32: k.setArg(index, static_cast<cl_uint>(v)); break;
    case ElemType::i64: k.setArg(index, static_cast<cl_long>(v)); break;
    case ElemType::u64: k.setArg(index, static_cast<cl_ulong>(v)); break;
    case ElemType::f32: k.setArg(index, static_cast<cl_float>(v)); break;
    case ElemType::f64: k.setArg(index, static_cast<cl_double>(v)); break;
  }
}

Finding finding(FindingKind kind, std::string summary, const std::string& kernel = {}) {
  Finding f;
  f.kind = kind;
  f.summary = std::move(summary);
  f.kernel = kernel;
  return f;
}

}  // namespace

DeviceSession::DeviceSession(const DeviceInfo& device)
    : device_(device),
      context_(device.device),
      queue_(context_, device.device, CL_QUEUE_PROFILING_ENABLE) {}

const BuildOutcome& DeviceSession::build(const std::string& path, const std::string& options) {
  auto key = std::make_pair(path, options);
  auto it = programs_.find(key);
  if (it != programs_.end()) return it->second;
  auto src = sources_.find(path);
  if (src == sources_.end()) src = sources_.emplace(path, readFile(path)).first;
  BuildOutcome out;
  out.options = options;
  try {
    cl::Program program(context_, src->second);
    try {
      program.build({device_.device}, options.c_str());
      out.program = program;
    } catch (const cl::BuildError& e) {
      out.error = e.err();
      for (const auto& [dev, log] : e.getBuildLog()) out.log += log;
    } catch (const cl::Error& e) {
      out.error = e.err();
    }
    if (out.log.empty()) {
      try {
        out.log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device);
      } catch (const cl::Error&) {
      }
    }
  } catch (const cl::Error& e) {
    out.error = e.err();
  }
  return programs_.emplace(key, std::move(out)).first->second;
}

cl::Kernel DeviceSession::kernel(const BuildOutcome& built, const std::string& name) {
  auto key = std::make_pair(static_cast<const void*>(&built), name);
  auto it = kernels_.find(key);
  if (it != kernels_.end()) return it->second;
  cl::Kernel k(*built.program, name.c_str());
  kernels_.emplace(key, k);
  return k;
}

CaseOutcome DeviceSession::runCase(const Spec& spec, const Sizes& sizes, uint64_t seed) {
  CaseOutcome out;
  out.sizes = sizes;
  auto& env = envs_[spec.file + "|" + spec.name];
  if (!env) env = std::make_unique<ExprEnv>(paramNames(spec));
  ResolvedCase rc = resolveCase(spec, *env, sizes);
  out.flops = rc.flops;
  out.bytes = rc.bytes;

  const BuildOutcome& built = build(spec.source_path, rc.build_options);
  if (!built.program) {
    Finding f = finding(FindingKind::build_error,
                        fmt::format("{} does not build on {} ({}{})", spec.source, device_.displayName(),
                                    clErrorName(built.error),
                                    rc.build_options.empty() ? "" : ", options " + rc.build_options));
    f.raw = built.log;
    f.device = device_.displayName();
    out.findings.push_back(std::move(f));
    return out;
  }

  auto host = makeInitialBuffers(spec, rc, seed);
  std::vector<cl::Buffer> bufs;
  bufs.reserve(spec.buffers.size());
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    HostBuffer& hb = host.at(spec.buffers[i].name);
    size_t bytes = std::max<size_t>(hb.bytes(), sizeOf(hb.type()));  // size 0 is illegal
    bufs.emplace_back(context_, CL_MEM_READ_WRITE, bytes);
    if (hb.bytes()) queue_.enqueueWriteBuffer(bufs.back(), CL_FALSE, 0, hb.bytes(), hb.data());
  }

  std::vector<cl::Event> events;
  for (const auto& launch : rc.launches) {
    cl::Kernel k;
    try {
      k = kernel(built, launch.kernel);
    } catch (const cl::Error& e) {
      out.findings.push_back(finding(FindingKind::build_error,
                                     fmt::format("no kernel '{}' in {} ({})", launch.kernel,
                                                 spec.source, clErrorName(e.err())),
                                     launch.kernel));
      return out;
    }
    cl_uint index = 0;
    try {
      for (const auto& a : launch.args) {
        switch (a.kind) {
          case ArgSpec::Kind::buffer: k.setArg(index, bufs[a.buffer]); break;
          case ArgSpec::Kind::scalar: setScalar(k, index, a.type, a.value); break;
          case ArgSpec::Kind::local: k.setArg(index, cl::Local(std::max<size_t>(a.local_bytes, 1))); break;
        }
        ++index;
      }
    } catch (const cl::Error& e) {
      out.findings.push_back(finding(
          FindingKind::launch_error,
          fmt::format("setting argument {} of '{}' failed: {} (does the spec's args list match the "
                      "kernel's parameters?)",
                      index, launch.kernel, clErrorName(e.err())),
          launch.kernel));
      return out;
    }
    cl::Event ev;
    try {
      queue_.enqueueNDRangeKernel(k, launch.offset.empty() ? cl::NullRange : toRange(launch.offset),
                                  toRange(launch.global),
                                  launch.local.empty() ? cl::NullRange : toRange(launch.local), nullptr,
                                  &ev);
    } catch (const cl::Error& e) {
      out.findings.push_back(finding(FindingKind::launch_error,
                                     fmt::format("enqueue of '{}' with global {} local {} failed: {}",
                                                 launch.kernel, dims(launch.global),
                                                 launch.local.empty() ? "NULL" : dims(launch.local),
                                                 clErrorName(e.err())),
                                     launch.kernel));
      return out;
    }
    events.push_back(ev);
  }

  // Read back what is compared; the reads block, so every launch has completed after them.
  std::map<std::string, HostBuffer> got;
  try {
    for (size_t i = 0; i < spec.buffers.size(); ++i) {
      const auto& b = spec.buffers[i];
      if (b.role != Role::out && b.role != Role::inout) continue;
      HostBuffer hb(b.type, rc.counts[i]);
      if (hb.bytes()) queue_.enqueueReadBuffer(bufs[i], CL_TRUE, 0, hb.bytes(), hb.data());
      got.emplace(b.name, std::move(hb));
    }
    queue_.finish();
  } catch (const cl::Error& e) {
    out.findings.push_back(finding(FindingKind::launch_error,
                                   fmt::format("the kernel's execution failed: {}", clErrorName(e.err()))));
    return out;
  }
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

  // The reference computes the expected final contents from the same initial buffers.
  RefCase ref(rc.sizes, rc.scalars, host);
  (*ReferenceRegistry::instance().find(spec.reference))(ref);

  Finding wrong = finding(FindingKind::wrong_result, "");
  Finding unwritten = finding(FindingKind::unwritten, "");
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    const auto& b = spec.buffers[i];
    if (b.role != Role::out && b.role != Role::inout) continue;
    std::vector<Mismatch> first;
    int64_t n = compareBuffers(b.name, got.at(b.name), host.at(b.name), rc.tolerances[i], rc.shapes[i],
                               kMismatchesKept, first);
    if (!n) continue;
    const HostBuffer& g = got.at(b.name);
    int64_t never = 0;
    for (size_t e = 0; e < g.count(); ++e) never += isPoison(g, e) ? 1 : 0;
    Finding& target = (never == n) ? unwritten : wrong;
    target.mismatch_count += n;
    for (auto& m : first)
      if (target.mismatches.size() < kMismatchesKept) target.mismatches.push_back(std::move(m));
    target.summary += fmt::format("{}{}: {} of {} elements {}", target.summary.empty() ? "" : "; ", b.name, n,
                                  g.count(), never == n ? "never written" : "differ from the reference");
    if (never && never != n) target.summary += fmt::format(" ({} never written)", never);
  }
  for (Finding* f : {&wrong, &unwritten})
    if (f->mismatch_count) {
      f->device = device_.displayName();
      out.findings.push_back(std::move(*f));
    }
  return out;
}

}  // namespace clh
