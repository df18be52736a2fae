// The sanitizer's run on a real device: the instrumented launch, its shadows' sizes and whose a
// failed launch is (sanitize/run.hpp; the records are decoded in findings.cpp).
#include "sanitize/run.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <numeric>
#include <utility>

#include "cl/opencl.hpp"
#include "core/case.hpp"
#include "core/expr.hpp"
#include "core/sizes.hpp"
#include "sanitize/helper.hpp"
#include "sanitize/runtime.hpp"

namespace clh::sanitize {

namespace {

std::vector<std::string> fileLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

cl::NDRange ndRange(const std::vector<size_t>& d) {
  if (d.empty()) return cl::NullRange;
  if (d.size() == 1) return cl::NDRange(d[0]);
  if (d.size() == 2) return cl::NDRange(d[0], d[1]);
  return cl::NDRange(d[0], d[1], d[2]);
}

Finding toolError(const std::string& summary, const std::string& raw) {
  Finding f;
  f.kind = FindingKind::tool_error;
  f.summary = summary;
  f.raw = raw;
  return f;
}

// The kernel's own arguments, as the spec's launch gives them; the byte size of each argument
// (0 for a NULL buffer or a scalar) in `bytes`. Throws std::runtime_error for what the sanitizer
// cannot pass (images and samplers).
void setOwnArguments(DeviceSession& session, cl::Kernel& kernel, const Spec& spec,
                     const ResolvedCase& rc, std::map<std::string, HostBuffer>& host,
                     std::vector<cl::Buffer>& keep, std::vector<uint64_t>& bytes) {
  const ResolvedLaunch& launch = rc.launches.at(0);
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const ResolvedArg& a = launch.args[i];
    const cl_uint at = static_cast<cl_uint>(i);
    bytes.push_back(0);
    switch (a.kind) {
      case ArgSpec::Kind::buffer: {
        HostBuffer& h = host.at(spec.buffers.at(a.buffer).name);
        const size_t n = std::max<size_t>(h.bytes(), 1);
        keep.emplace_back(session.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, h.data());
        kernel.setArg(at, keep.back());
        bytes.back() = h.bytes();
        break;
      }
      case ArgSpec::Kind::scalar:
        setScalarArg(kernel, at, a.type, a.value);
        break;
      case ArgSpec::Kind::local:
        kernel.setArg(at, cl::Local(a.local_bytes));
        bytes.back() = a.local_bytes;
        break;
      case ArgSpec::Kind::bytes:
        kernel.setArg(at, a.bytes.size(), a.bytes.data());
        break;
      case ArgSpec::Kind::null:
        kernel.setArg(at, sizeof(cl_mem), nullptr);
        break;
      default:
        throw std::runtime_error("the sanitizer does not yet pass image or sampler arguments");
    }
  }
}

// A launch whose own __local memory is more than the device has: the specification has the device
// refuse it (CL_OUT_OF_RESOURCES), and PoCL 3.1 instead aborts the process in its __local
// argument setup (the instrumented kernel always has one, the shadow), so it is not launched.
struct OverLocalMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void checkLocalMemory(const std::vector<uint64_t>& local_bytes, const DeviceInfo& dev) {
  const uint64_t own = std::accumulate(local_bytes.begin(), local_bytes.end(), uint64_t{0});
  if (dev.local_mem_size && own > dev.local_mem_size)
    throw OverLocalMemory(fmt::format(
        "the kernel's own __local memory ({} bytes) is more than the device's {} bytes: a launch "
        "the device must refuse (CL_OUT_OF_RESOURCES); not run instrumented, the launch's and not "
        "the sanitizer's",
        own, dev.local_mem_size));
}

// The __local shadow's state is one 64-bit word per 4 bytes, updated with atom_cmpxchg: the
// work-items of a group run at once on a GPU.
bool hasInt64Atomics(const DeviceInfo& dev) {
  try {
    return dev.device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_int64_base_atomics") !=
           std::string::npos;
  } catch (const cl::Error&) {
    return false;
  }
}

// The words of __local shadow the launch gets: one per 4 bytes of the kernel's __local memory,
// or 0 (races and uninitialized reads not checked, said in a note) when it cannot have them.
uint64_t shadowWords(const Instrumented& inst, const std::vector<uint64_t>& local_bytes,
                     const DeviceInfo& dev, size_t group_items, std::vector<std::string>& notes) {
  uint64_t words = 0, own = 0;
  for (size_t k = 0; k < inst.locals.size(); ++k) {
    const uint64_t b = inst.locals[k].arg_index >= 0 ? local_bytes[k] : inst.locals[k].bytes;
    words += (b + 3) / 4;
    own += b;
  }
  const uint64_t need = words * kShadowUints * 4 + kLocalDummyBytes;
  if (group_items > kMaxGroupItems) {
    notes.push_back(fmt::format(
        "sanitizer: a work-group of {} work-items is more than the __local shadow tells apart "
        "({}): races and uninitialized reads of __local memory not looked at",
        group_items, kMaxGroupItems));
    return 0;
  }
  if (words && !hasInt64Atomics(dev)) {
    notes.push_back(
        "sanitizer: the device has no 64-bit atomics (cl_khr_int64_base_atomics), which the "
        "__local shadow is updated with: races and uninitialized reads of __local memory not "
        "looked at");
    return 0;
  }
  if (dev.local_mem_size && own + need > dev.local_mem_size) {
    notes.push_back(fmt::format(
        "sanitizer: the __local shadow ({} bytes for {} bytes of __local memory) does not fit "
        "the device's {} bytes: races and uninitialized reads of __local memory not looked at",
        need, own, dev.local_mem_size));
    return 0;
  }
  if (words)
    notes.push_back(fmt::format(
        "sanitizer: __local shadow of {} bytes per work-group for {} bytes of __local memory "
        "({} bytes per 4-byte word)",
        need, own, kShadowUints * 4));
  return words;
}

// The bytes of the __global shadow buffer for `words` words: kGlobalShadowUints per word, and one
// more 8 bytes, which the runtime may skip to align its 64-bit state words.
uint64_t globalShadowBytes(uint64_t words) {
  return std::max<uint64_t>(words, 1) * kGlobalShadowUints * 4 + 8;
}

// The words of __global shadow: one per 4 bytes of the kernel's buffers that it may write (bit k
// of `read_only` clear), or 0 (races on __global memory not looked at, said in a note) past
// kMaxGlobalShadowBytes or the device's largest allocation. Races within a work-group need 64-bit
// atomics and a group the shadow's 16 bits of work-item tell apart (the runtime checks both too):
// a note says when they are not looked at.
uint64_t globalShadowWords(const std::vector<uint64_t>& global_bytes, uint64_t read_only,
                           const DeviceInfo& dev, size_t group_items,
                           std::vector<std::string>& notes) {
  uint64_t words = 0, own = 0;
  for (size_t k = 0; k < global_bytes.size(); ++k)
    if (k >= 64 || !((read_only >> k) & 1))
      words += (global_bytes[k] + 3) / 4, own += global_bytes[k];
  const uint64_t need = globalShadowBytes(words);
  const uint64_t most = dev.max_mem_alloc_size
                            ? std::min(kMaxGlobalShadowBytes, dev.max_mem_alloc_size)
                            : kMaxGlobalShadowBytes;
  if (need > most) {
    notes.push_back(fmt::format(
        "sanitizer: the __global shadow ({} bytes for {} bytes of buffers) is over {} bytes: races "
        "on __global memory (across work-groups and within one) not looked at",
        need, own, most));
    return 0;
  }
  if (!words) return 0;
  notes.push_back(fmt::format(
      "sanitizer: __global shadow of {} bytes for {} bytes of buffers ({} bytes per 4-byte word)",
      need, own, kGlobalShadowUints * 4));
  if (!hasInt64Atomics(dev))
    notes.push_back(
        "sanitizer: the device has no 64-bit atomics (cl_khr_int64_base_atomics), which the "
        "__global shadow's state within a work-group is updated with: races on __global memory "
        "within a work-group not looked at (races across work-groups are)");
  else if (group_items > kMaxGroupItems)
    notes.push_back(fmt::format(
        "sanitizer: a work-group of {} work-items is more than the __global shadow tells apart "
        "({}): races on __global memory within a work-group not looked at (races across "
        "work-groups are)",
        group_items, kMaxGroupItems));
  return words;
}

// Says which buffers are read with bounds checks only.
void noteReadOnly(const Instrumented& inst, uint64_t read_only, std::vector<std::string>& notes) {
  std::string names;
  for (size_t k = 0; k < inst.globals.size() && k < 64; ++k)
    if ((read_only >> k) & 1 && inst.globals[k].arg_index >= 0)
      names += (names.empty() ? "" : ", ") + inst.globals[k].name;
  if (!names.empty())
    notes.push_back(
        "sanitizer: never written by the kernel, so read with bounds checks only (no "
        "race is possible on them): " +
        names);
}

}  // namespace

uint64_t readOnlyGlobals(const Instrumented& inst) {
  uint64_t written = 0;
  for (const Site& s : inst.sites) {
    if (s.space != "global" || s.kind == AccessKind::read || s.kind == AccessKind::branch) continue;
    if (s.hint < 0 || s.hint >= 64) return 0;  // a write whose buffer is known only at run time
    written |= uint64_t{1} << s.hint;
  }
  size_t n = 0;  // the buffers (program-scope variables follow them: bounds only, no shadow)
  while (n < inst.globals.size() && n < 64 && inst.globals[n].arg_index >= 0) ++n;
  const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  return all & ~written;
}

namespace {

// Launches the built, instrumented kernel with its own and hidden arguments; the records back.
std::vector<uint32_t> launchInstrumented(DeviceSession& session, cl::Kernel& kernel,
                                         const Spec& spec, const Instrumented& inst, uint64_t seed,
                                         SanitizeOutcome& out, std::vector<uint64_t>& global_bytes,
                                         std::vector<uint64_t>& local_bytes) {
  ExprEnv env(paramNames(spec));
  const ResolvedCase rc = resolveCase(spec, env, Sizes{});
  std::map<std::string, HostBuffer> host = makeInitialBuffers(spec, rc, seed);
  std::vector<cl::Buffer> keep;
  std::vector<uint64_t> bytes;
  setOwnArguments(session, kernel, spec, rc, host, keep, bytes);
  std::vector<cl_ulong> sizes;
  // The buffers first (the runtime's sizes and the __global shadow are theirs), then the
  // program-scope variables (their sizes only name them in a finding).
  for (const GlobalBuffer& g : inst.globals)
    if (g.arg_index >= 0) global_bytes.push_back(bytes.at(g.arg_index));
  for (const LocalObject& l : inst.locals)
    local_bytes.push_back(l.arg_index >= 0 ? bytes.at(l.arg_index) : l.bytes);
  checkLocalMemory(local_bytes, session.device());
  sizes.insert(sizes.end(), global_bytes.begin(), global_bytes.end());
  for (const LocalObject& l : inst.locals)
    if (l.arg_index >= 0) sizes.push_back(bytes.at(l.arg_index));
  const ResolvedLaunch& launch = rc.launches.at(0);
  const size_t items =
      std::accumulate(launch.local.begin(), launch.local.end(), size_t{1}, std::multiplies<>());
  const uint64_t words = shadowWords(inst, local_bytes, session.device(), items, out.notes);
  sizes.push_back(words);
  const uint64_t readOnly = readOnlyGlobals(inst);
  noteReadOnly(inst, readOnly, out.notes);
  const uint64_t gwords =
      globalShadowWords(global_bytes, readOnly, session.device(), items, out.notes);
  sizes.push_back(gwords);
  sizes.push_back(readOnly);
  for (const GlobalBuffer& g : inst.globals)
    if (g.arg_index < 0) global_bytes.push_back(g.bytes);
  cl::Buffer globalShadow(session.context(), CL_MEM_READ_WRITE, globalShadowBytes(gwords));
  session.queue().enqueueFillBuffer(globalShadow, cl_uint{0}, 0, globalShadowBytes(gwords));
  const cl_uint hidden = static_cast<cl_uint>(inst.original_args);
  cl::Buffer sizeBuffer(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        sizes.size() * sizeof(cl_ulong), sizes.data());
  std::vector<uint32_t> records(std::max<size_t>(inst.sites.size(), 1) * kRecordWords, 0);
  cl::Buffer recordBuffer(session.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          records.size() * sizeof(uint32_t), records.data());
  cl::Buffer dummy(session.context(), CL_MEM_READ_WRITE, kGlobalDummyBytes);
  kernel.setArg(hidden, sizeBuffer);
  kernel.setArg(hidden + 1, recordBuffer);
  kernel.setArg(hidden + 2, cl::Local(words * kShadowUints * 4 + kLocalDummyBytes));
  kernel.setArg(hidden + 3, dummy);
  kernel.setArg(hidden + 4, globalShadow);
  session.queue().enqueueNDRangeKernel(kernel, ndRange(launch.offset), ndRange(launch.global),
                                       ndRange(launch.local));
  session.queue().enqueueReadBuffer(recordBuffer, CL_TRUE, 0, records.size() * sizeof(uint32_t),
                                    records.data());
  return records;
}

// The instrumented launch failed: the kernel as written, launched the same way, says whose the
// failure is. Refused with the same error (a launch shape the device does not take, such as
// non-uniform work-groups on a device without them), it is the launch's `launch_error`, as the
// plain run reports it; otherwise the instrumentation's, a tool error.
Finding launchFailed(DeviceSession& session, const Spec& spec, const std::string& source_path,
                     const std::string& kernel, uint64_t seed, const cl::Error& e) {
  cl_int plain = CL_SUCCESS;
  try {
    const BuildOutcome& built = session.build(source_path, spec.build_options, {kernel});
    if (built.failure) plain = CL_BUILD_PROGRAM_FAILURE;
    if (!built.failure) {
      ExprEnv env(paramNames(spec));
      const ResolvedCase rc = resolveCase(spec, env, Sizes{});
      std::map<std::string, HostBuffer> host = makeInitialBuffers(spec, rc, seed);
      std::vector<cl::Buffer> keep;
      std::vector<uint64_t> bytes;
      cl::Kernel& k = built.kernels.at(kernel);
      setOwnArguments(session, k, spec, rc, host, keep, bytes);
      const ResolvedLaunch& launch = rc.launches.at(0);
      session.queue().enqueueNDRangeKernel(k, ndRange(launch.offset), ndRange(launch.global),
                                           ndRange(launch.local));
      session.queue().finish();
    }
  } catch (const cl::Error& p) {
    plain = p.err();
  } catch (const std::runtime_error&) {
    plain = CL_SUCCESS;
  }
  if (plain != e.err())
    return toolError(
        fmt::format("{}{} ({})", kInstrumentedDidNotRun, e.what(), clErrorName(e.err())), "");
  Finding f;
  f.kind = FindingKind::launch_error;
  f.summary = fmt::format(
      "the device refused the launch: {} ({}), as it refuses the kernel as written at the same "
      "shape: the launch's, not the sanitizer's",
      e.what(), clErrorName(e.err()));
  return f;
}

}  // namespace

SanitizeOutcome runSanitized(DeviceSession& session, const Spec& spec,
                             const std::string& source_path, const std::string& shown_path,
                             uint64_t seed) {
  SanitizeOutcome out;
  const std::string& kernelName = spec.launches.at(0).kernel;
  const Instrumented inst =
      instrumentInHelper(source_path, shown_path, kernelName, spec.build_options);
  out.unchecked = inst.unchecked;
  out.sites = inst.sites.size();
  if (inst.async_copies)
    out.notes.push_back(
        "sanitizer: the kernel copies with async_work_group_copy, which the sanitizer does not "
        "follow yet: reads of __local memory nobody wrote are not looked at, and the copies' "
        "own accesses are not checked");
  if (!inst.error.empty()) {
    out.findings.push_back(
        toolError("the sanitizer could not parse the kernel's file with clang (the tool's failure)",
                  inst.error));
    return out;
  }
  const BuildOutcome& built = session.buildText(inst.source, spec.build_options, {kernelName});
  if (built.failure) {
    out.findings.push_back(toolError(
        "the sanitizer's instrumented program did not build (the tool's failure, not the kernel's)",
        built.failure->raw));
    return out;
  }
  std::vector<uint64_t> globalBytes, localBytes;
  std::vector<uint32_t> records;
  try {
    records = launchInstrumented(session, built.kernels.at(kernelName), spec, inst, seed, out,
                                 globalBytes, localBytes);
  } catch (const cl::Error& e) {
    out.findings.push_back(launchFailed(session, spec, source_path, kernelName, seed, e));
    out.findings.back().device = session.device().displayName();
    out.findings.back().kernel = kernelName;
    return out;
  } catch (const OverLocalMemory& e) {
    Finding f;
    f.kind = FindingKind::launch_error;
    f.summary = e.what();
    f.device = session.device().displayName();
    f.kernel = kernelName;
    out.findings.push_back(std::move(f));
    return out;
  } catch (const std::runtime_error& e) {
    out.findings.push_back(toolError(e.what(), ""));
    return out;
  }
  for (Finding& f :
       decodeRecords(inst, records, globalBytes, localBytes, shown_path, fileLines(source_path))) {
    f.device = session.device().displayName();
    f.kernel = kernelName;
    out.findings.push_back(std::move(f));
  }
  return out;
}

}  // namespace clh::sanitize
