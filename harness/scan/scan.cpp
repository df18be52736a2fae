// The scan of a kernel without a spec: argument info -> an in-memory spec (random inputs, no
// reference, nothing compared) -> one case on the session's device, whose findings are the scan's.
#include "scan/scan.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "core/reference.hpp"
#include "core/result.hpp"
#include "core/text.hpp"
#include "sanitize/run.hpp"
#include "scan/grid.hpp"
#include "scan/stubs.hpp"
#include "sim/work_groups.hpp"

namespace clh::scan {

namespace {

// The reference of a scan: there is nothing to compare, every buffer is an input.
constexpr const char* kNoReference = "__scan_no_reference";

std::string addressSpace(cl_kernel_arg_address_qualifier q) {
  switch (q) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
      return "global";
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
      return "constant";
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
      return "local";
    default:
      return "private";
  }
}

// The type a pointer argument points to, as the kernel spells it: "__global int[8]*" -> "int[8]".
std::string pointee(std::string t) {
  while (!t.empty() && (t.back() == '*' || std::isspace(static_cast<unsigned char>(t.back()))))
    t.pop_back();
  for (const char* q : {"__global ", "__constant ", "__local ", "global ", "constant ", "local "})
    if (t.rfind(q, 0) == 0) t = t.substr(std::string(q).size());
  return trim(t);
}

double parseNumber(const std::string& name, const std::string& text) {
  try {
    size_t used = 0;
    double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw ScanUsageError(fmt::format("--arg {}={}: not a number", name, text));
}

size_t parseCount(const std::string& name, const std::string& text) {
  double v = parseNumber(name, text);
  if (v < 1 || v != static_cast<double>(static_cast<size_t>(v)))
    throw ScanUsageError(fmt::format(
        "--arg {}={}: a buffer's element count must be a positive integer", name, text));
  return static_cast<size_t>(v);
}

std::string number(double v) {
  return fmt::format("{:.17g}", v);
}

// The key under which the reports of one problem from several launches merge: kind, space,
// lines, and the summary without its count of reports.
std::string mergeKey(const Finding& f) {
  static const std::regex count(R"( \(\d+ reports\)$)");
  std::set<std::string> lines;
  for (const auto& l : f.lines) lines.insert(l.file + ":" + std::to_string(l.line));
  std::string key = std::string(toString(f.kind)) + "|" + f.address_space + "|";
  for (const auto& l : lines) key += l + ",";
  return key + "|" + std::regex_replace(f.summary, count, "");
}

// `--arg NAME=bytes:HEX` for a struct passed by value: exactly `size` bytes, two hex digits each.
std::vector<uint8_t> parseHexBytes(const std::string& name, const std::string& text, size_t size) {
  const std::string hex = text.rfind("bytes:", 0) == 0 ? text.substr(6) : std::string();
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < hex.size() && std::isxdigit(static_cast<unsigned char>(hex[i])) &&
                     std::isxdigit(static_cast<unsigned char>(hex[i + 1]));
       i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  if (hex.empty() || out.size() * 2 != hex.size() || out.size() != size)
    throw ScanUsageError(fmt::format(
        "--arg {}={}: a struct of {} bytes takes bytes:HEX with {} hex digits (e.g. bytes:{})",
        name, text, size, 2 * size, std::string(2 * size, '0')));
  return out;
}

// Oclgrind stops at a call of a function that has no body ("Undefined external function: bar")
// as at one of its own failures: in a launch, or when it makes the kernel, where the API error
// (CL_INVALID_KERNEL_NAME for a kernel the program lists) is all the caller sees. When the
// kernel's source declares a function it calls and never defines, that is the fault, and it is
// the kernel's: no OpenCL driver links the program. Such a tool_error becomes the kernel's
// build_error at the declaration's line; any other finding is returned as it is.
Finding chargeBodilessCall(Finding f, const std::string& source_path) {
  if (f.kind != FindingKind::tool_error) return f;
  static const std::regex undefined(R"(Undefined external function: ([A-Za-z_][A-Za-z0-9_]*))");
  std::smatch m;
  std::string named;
  if (std::regex_search(f.raw, m, undefined))
    named = m[1].str();
  else if (f.raw.find("CL_INVALID_KERNEL_NAME") == std::string::npos)
    return f;
  std::ifstream in(source_path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const BodilessFunction& b : bodilessFunctions(text)) {
    if (!named.empty() && b.name != named) continue;
    size_t bol = 0;  // the declaration's line, for the finding's source line
    for (int l = 1; l < b.line && bol != std::string::npos; ++l) bol = text.find('\n', bol) + 1;
    const size_t eol = text.find('\n', bol);
    f.kind = FindingKind::build_error;
    f.summary = fmt::format(
        "the kernel calls '{}', declared at line {} without a body: no OpenCL driver links the "
        "program ({})",
        b.name, b.line,
        named.empty() ? "the simulator could not make the kernel: CL_INVALID_KERNEL_NAME"
                      : "the simulator stopped at the call: Undefined external function");
    f.lines = {SourceLine{source_path, b.line, trim(text.substr(bol, eol - bol))}};
    return f;
  }
  return f;
}

// sizeof of each type, from the device's compiler: the kernel's source with a kernel appended
// that writes them, run once. Empty when it does not build or run (a type local to a function).
// CPU seconds this process has used (every thread's: the simulator's workers too).
double processCpuSeconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::map<std::string, size_t> typeSizes(DeviceSession& session, const std::string& source_path,
                                        const std::string& options,
                                        const std::vector<std::string>& types) {
  std::ifstream in(source_path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const char* probe = "__clharness_sizeof";
  text += fmt::format("\n__kernel void {}(__global ulong* out) {{", probe);
  for (size_t i = 0; i < types.size(); ++i)
    text += fmt::format(" out[{}] = sizeof({});", i, types[i]);
  text += " }\n";
  std::map<std::string, size_t> out;
  try {
    const BuildOutcome& built = session.buildText(text, options, {probe});
    if (built.failure) return out;
    cl::Kernel k = built.kernels.at(probe);
    std::vector<cl_ulong> sizes(types.size(), 0);
    cl::Buffer buffer(session.context(), CL_MEM_READ_WRITE, sizes.size() * sizeof(cl_ulong));
    k.setArg(0, buffer);
    session.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
    session.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, sizes.size() * sizeof(cl_ulong),
                                      sizes.data());
    for (size_t i = 0; i < types.size(); ++i) out[types[i]] = static_cast<size_t>(sizes[i]);
  } catch (const std::exception&) {
    out.clear();
  }
  return out;
}

// One argument as a .sim file gives it (oclgrind-kernel's meaning: sizes in bytes).
ArgSpec simArgument(const SimArgument& s, ScanArgument& a, Spec& spec, const std::string& sim) {
  const std::string where = fmt::format("{}:{}: argument '{}'", sim, s.line, a.name);
  const bool memory = a.address_space == "global" || a.address_space == "constant";
  ArgSpec arg;
  arg.type = ElemType::u8;
  if ((s.null || s.noinit || s.dump) && !memory)
    throw ScanUsageError(where + ": 'null', 'noinit' and 'dump' only apply to buffer arguments");
  if ((s.ro || s.wo) && a.address_space != "global")
    throw ScanUsageError(where + ": 'ro' and 'wo' only apply to __global buffers");
  if (a.address_space == "local") {
    arg.kind = ArgSpec::Kind::local;
    arg.value = {std::to_string(s.size), 0};
    a.given = fmt::format("{} bytes of local memory", s.size);
    return arg;
  }
  if (s.null) {
    arg.kind = ArgSpec::Kind::null;
    a.given = "NULL";
    return arg;
  }
  const std::string type = s.type.empty() ? simDefaultType(pointee(a.type_name)) : s.type;
  std::string how = !s.fill.empty() ? "fill=" + s.fill : !s.range.empty() ? "range=" + s.range : "";
  if (!memory) {
    arg.kind = ArgSpec::Kind::bytes;
    arg.bytes = simArgumentBytes(s, type, sim, a.name);
    std::string values;
    for (const auto& v : s.values) values += (values.empty() ? "" : " ") + v;
    a.given = fmt::format("{} bytes = {}", s.size, how.empty() ? values : how);
    return arg;
  }
  BufferSpec b;
  b.name = a.name;
  b.type = ElemType::u8;
  b.count = {std::to_string(s.size), 0};
  b.role = Role::in;
  if (s.noinit) {
    b.init.kind = InitSpec::Kind::none;
    how = "uninitialized";
  } else {
    b.init.kind = InitSpec::Kind::bytes;
    b.init.bytes = simArgumentBytes(s, type, sim, a.name);
    if (how.empty()) how = fmt::format("{} values", s.values.size());
  }
  b.init.text = how;
  b.access = s.ro   ? BufferSpec::Access::read_only
             : s.wo ? BufferSpec::Access::write_only
                    : BufferSpec::Access::read_write;
  spec.buffers.push_back(b);
  arg.kind = ArgSpec::Kind::buffer;
  arg.buffer = a.name;
  a.given = fmt::format("{} bytes of {}, {}{}", s.size, type, how,
                        s.ro   ? ", read-only"
                        : s.wo ? ", write-only"
                               : "");
  return arg;
}

// One launch of the sanitized kernel (--sanitize); the first one's notes say what was looked at.
CaseOutcome sanitizedCase(DeviceSession& session, const Spec& one, const std::string& build_path,
                          const ScanOptions& options, ScanResult& r, const std::string& label) {
  sanitize::SanitizeOutcome s =
      sanitize::runSanitized(session, one, build_path, options.source_path, options.seed);
  CaseOutcome outcome;
  outcome.findings = std::move(s.findings);
  if (!r.tries.empty()) return outcome;
  r.notes.push_back(fmt::format(
      "sanitized ({}): the kernel instrumented by the sanitizer ran on {} at global {}, local {}: "
      "{} access{} to __global and __local memory checked ({}), {} not looked at{}",
      label, r.device, commaList(r.global), commaList(r.local), s.sites, s.sites == 1 ? "" : "es",
      sanitize::kLookedAt, s.unchecked.size(), s.unchecked.empty() ? "" : " (below)"));
  for (const auto& u : s.unchecked)
    r.notes.push_back(
        fmt::format("sanitizer: not looked at: line {}: {}: {}", u.line, u.what, u.why));
  for (auto& note : s.notes) r.notes.push_back(std::move(note));
  return outcome;
}

}  // namespace

ScanOptions simScanOptions(const std::string& sim_path, const std::string& build_options) {
  const SimFile sim = parseSimFile(sim_path);
  ScanOptions o;
  o.sim_path = sim_path;
  o.source_path = sim.kernel_file;
  o.kernel = sim.kernel;
  o.global = sim.global;
  o.local = sim.local;
  o.build_options = sim.build_options;
  if (!build_options.empty())
    o.build_options += (o.build_options.empty() ? "" : " ") + build_options;
  o.sim_args = sim.args;
  o.tries = 1;  // the file fixes every value and the work-group size
  return o;
}

PlannedGrid planGrid(const ScanOptions& options, const DeviceInfo& dev) {
  PlannedGrid p;
  p.global = options.global;
  if (options.global.empty() || options.global.size() > 3)
    throw ScanUsageError("--global needs 1 to 3 sizes");
  // A free size ('*' in --global, kScanFreeSize here): runs first with two work-groups in that
  // dimension, then one and three (below), instead of one size nobody chose.
  std::vector<size_t> freeDims;
  for (size_t d = 0; d < options.global.size(); ++d)
    if (options.global[d] == kScanFreeSize) {
      if (!options.sim_path.empty()) throw ScanUsageError("a .sim file gives every size");
      freeDims.push_back(d);
      const size_t group = d < options.local.size() ? options.local[d] : kScanFreeGroup;
      p.global[d] = 2 * group;
    }
  if (!options.local.empty() && options.local.size() != options.global.size())
    throw ScanUsageError(fmt::format("--local has {} sizes and --global {}", options.local.size(),
                                     options.global.size()));
  if (options.local.empty()) {
    p.local =
        defaultLocalSize(p.global, std::min<size_t>(kScanMaxLocalItems, dev.max_work_group_size),
                         dev.max_work_item_sizes);
    p.local_chosen = true;
    p.notes.push_back(
        fmt::format("local size {} chosen (set it with --local)", commaList(p.local)));
  } else {
    p.local = options.local;
    bool divides = true;
    for (size_t d = 0; d < p.local.size(); ++d) {
      if (p.local[d] == 0) throw ScanUsageError("--local: a size of 0");
      divides = divides && p.global[d] % p.local[d] == 0;
    }
    if (!divides && !allowsNonUniformGroups(options.build_options))
      throw ScanUsageError(fmt::format(
          "--local {} does not divide --global {} (non-uniform work-groups need OpenCL C 2.0 or "
          "later: --build-options=-cl-std=CL2.0)",
          commaList(p.local), commaList(p.global)));
    if (!divides)
      p.notes.push_back(
          fmt::format("local size {} does not divide global {}: the last work-groups are smaller "
                      "(non-uniform work-groups, OpenCL C 2.0)",
                      commaList(p.local), commaList(p.global)));
  }

  // A grid over the simulator's budget runs smaller (the same work-group shape), and one the
  // parent saw run past the time limit with fewer work-groups still, said in notes; the scalars'
  // defaults follow the grid that runs.
  auto runInstead = [&p](GridChoice chosen) {
    if (chosen.note.empty()) return;
    p.global = std::move(chosen.global);
    p.local = std::move(chosen.local);
    p.notes.push_back(std::move(chosen.note));
  };
  if (options.sim_path.empty()) {
    runInstead(shrinkGrid(p.global, p.local, options.max_items));
    runInstead(fewerGroups(p.global, p.local, options.max_groups));
  }

  // The other sizes of the free dimensions: one work-group, then three, of the local size.
  if (!freeDims.empty()) {
    for (size_t groups : {size_t{1}, size_t{3}}) {
      std::vector<size_t> g = p.global;
      for (size_t d : freeDims) g[d] = groups * p.local[d];
      p.other_globals.push_back(std::move(g));
    }
    std::string which;
    for (size_t d : freeDims) which += (which.empty() ? "" : ", ") + std::to_string(d);
    p.notes.push_back(fmt::format(
        "global size free ('*') in dimension {}: ran {} first, then {} and {} (two, one and "
        "three work-groups of the local size there)",
        which, commaList(p.global), commaList(p.other_globals[0]), commaList(p.other_globals[1])));
  }
  return p;
}

namespace {

// The file a --stub-bodiless build reads (the source with stubs), removed when the scan ends.
struct RemovedFile {
  std::filesystem::path path;
  RemovedFile() = default;
  RemovedFile(const RemovedFile&) = delete;
  RemovedFile& operator=(const RemovedFile&) = delete;
  ~RemovedFile() {
    std::error_code ignored;
    if (!path.empty()) std::filesystem::remove(path, ignored);
  }
};

// A __local argument the user did not size: sized once every argument is known.
struct UnsizedLocal {
  size_t arg;
  ElemType type;
  int width;
};

// A scalar the user did not fix (or gave a range): the values tried besides the default.
struct Explored {
  size_t arg;
  std::string name;
  std::vector<double> values;
};

// One launch of a scan: what differs from the defaults.
struct Try {
  std::string label;
  std::map<size_t, double> values;  // argument position -> value
  std::vector<size_t> local;
  bool zero_integers = false;       // integer buffers scan filled hold 0 instead of random values
  std::vector<size_t> global = {};  // empty: r.global
};

// One argument's type, as scan fills it: element type and width, or a struct's bytes.
struct ArgType {
  ElemType type = ElemType::u8;
  int width = 1;
  bool structure = false;
  size_t struct_bytes = 0;
};

// runScan's steps, in the order they run: the launch's header and grid, the build, the
// arguments, the launches planned, then run; `r` is the result as it grows.
struct ScanRun {
  ScanRun(DeviceSession& session, const ScanOptions& options,
          const std::function<void(const ScanResult&)>& progress)
      : session(session), options(options), progress(progress), dev(session.device()) {}

  DeviceSession& session;
  const ScanOptions& options;
  const std::function<void(const ScanResult&)>& progress;
  const DeviceInfo& dev;
  ScanResult r;
  std::vector<std::vector<size_t>> other_globals;
  std::string build_path;  // the source, or the source with stubs (--stub-bodiless)
  RemovedFile stubbed;
  cl::Kernel kernel;
  cl_uint count = 0;
  bool from_sim = false;
  std::map<std::string, size_t> struct_sizes;  // structs and unions: their sizes
  size_t group_items = 1, buffer_default = 0;
  Spec spec;
  LaunchSpec launch;
  // Integer buffers of random contents (not structs, not left uninitialized): one try has them
  // all 0, the value counters, flags and indices start from.
  std::vector<std::string> integer_buffers;
  std::vector<std::string> known;    // the parameters' names
  std::vector<UnsizedLocal> locals;  // __local arguments the user did not size: sized below
  std::vector<Explored> explore;     // scalars the user did not fix
  std::vector<std::vector<size_t>> other_locals;
  std::vector<Try> tries;

  // The header: what runs where, the build options, the grid.
  void start() {
    r.device = dev.displayName();
    r.kernel = options.kernel;
    r.source = options.source_path;
    r.sim_file = options.sim_path;
    r.global = options.global;
    if (options.build_options.find_first_of("{}") != std::string::npos)
      throw ScanUsageError(
          "--build-options: braces are not supported (they name size expressions in specs)");
    r.build_options = options.build_options;
    if (r.build_options.find("-cl-kernel-arg-info") == std::string::npos)
      r.build_options += std::string(r.build_options.empty() ? "" : " ") + "-cl-kernel-arg-info";
    if (!options.sim_path.empty())
      r.notes.push_back(fmt::format(
          "kernel, sizes and arguments from {} (Oclgrind's .sim; sizes in bytes, 'dump' not "
          "shown)",
          options.sim_path));
    PlannedGrid plan = planGrid(options, dev);
    r.global = plan.global;
    r.local = plan.local;
    r.local_chosen = plan.local_chosen;
    for (auto& note : plan.notes) r.notes.push_back(std::move(note));
    other_globals = std::move(plan.other_globals);
  }

  // --stub-bodiless: the program built is the source with a body for each function it declares,
  // calls and never defines (scan/stubs.hpp), in a file of its own; findings name the source.
  void stubBodiless() {
    build_path = options.source_path;
    if (!options.stub_bodiless) return;
    std::ifstream in(options.source_path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto functions = bodilessFunctions(text);
    if (functions.empty()) return;
    stubbed.path = std::filesystem::temp_directory_path() /
                   fmt::format("clharness-stubbed-{}-{}", ::getpid(),
                               std::filesystem::path(options.source_path).filename().string());
    std::ofstream(stubbed.path) << withStubs(text, functions);
    build_path = stubbed.path.string();
    std::string names;
    for (const auto& f : functions)
      names += fmt::format("{}'{}' (line {})", names.empty() ? "" : ", ", f.name, f.line);
    r.notes.push_back(fmt::format(
        "functions declared without a body were given one that returns zero (--stub-bodiless): "
        "{}; no OpenCL driver links the kernel as written, and a verifier that reads such a call "
        "as any value covers more than this one value",
        names));
  }

  // The build; false when it failed (the finding is the kernel's build_error, or the simulator's).
  bool build() {
    const BuildOutcome& built = session.build(build_path, r.build_options, {options.kernel});
    if (built.failure) {
      r.findings.push_back(chargeBodilessCall(*built.failure, options.source_path));
      return false;
    }
    r.build_options = built.options;  // on the simulator: the build its checks ran on
    kernel = built.kernels.at(options.kernel);
    count = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
    from_sim = !options.sim_path.empty();
    if (from_sim && options.sim_args.size() != count)
      throw ScanUsageError(
          fmt::format("{}: kernel '{}' has {} parameter{}, the file gives {} argument{}",
                      options.sim_path, options.kernel, count, count == 1 ? "" : "s",
                      options.sim_args.size(), options.sim_args.size() == 1 ? "" : "s"));
    return true;
  }

  // Structs and unions (by value or behind a pointer): their sizes from the device's compiler.
  void sizeStructs() {
    if (from_sim) return;
    std::vector<std::string> unknown;
    for (cl_uint i = 0; i < count; ++i) {
      std::string t;
      try {
        t = trim(kernel.getArgInfo<CL_KERNEL_ARG_TYPE_NAME>(i));
      } catch (const cl::Error&) {
        continue;  // reported by readArgument
      }
      t.erase(std::find(t.begin(), t.end(), '\0'), t.end());
      ElemType et;
      int w;
      if (!parseArgType(t, et, w) && fillableType(t) && imageDimensions(t) == 0 && !isSampler(t))
        unknown.push_back(pointee(t));
    }
    if (!unknown.empty()) struct_sizes = typeSizes(session, build_path, r.build_options, unknown);
  }

  // The spec in memory and its launch; buffers fit the largest grid tried.
  void startSpec() {
    size_t items =
        std::accumulate(r.global.begin(), r.global.end(), size_t{1}, std::multiplies<>());
    for (const auto& g : other_globals)
      items = std::max(items, std::accumulate(g.begin(), g.end(), size_t{1}, std::multiplies<>()));
    group_items = std::accumulate(r.local.begin(), r.local.end(), size_t{1}, std::multiplies<>());
    buffer_default = std::max(kScanMinBufferElements, kScanBufferPerItem * items);
    spec.name = "scan_" + options.kernel;
    spec.file = options.source_path;
    spec.source = options.source_path;
    spec.source_path = build_path;
    spec.reference = kNoReference;
    spec.build_options = r.build_options;
    spec.cases = 1;
    spec.sim_cases = 1;
    launch.kernel = options.kernel;
    for (size_t g : r.global) launch.global.push_back({std::to_string(g), 0});
    for (size_t l : r.local) launch.local.push_back({std::to_string(l), 0});
  }

  // Argument i's address space, type and name from the kernel's argument info.
  ScanArgument readArgument(cl_uint i) {
    ScanArgument a;
    a.index = static_cast<int>(i);
    try {
      a.address_space = addressSpace(kernel.getArgInfo<CL_KERNEL_ARG_ADDRESS_QUALIFIER>(i));
      a.type_name = trim(kernel.getArgInfo<CL_KERNEL_ARG_TYPE_NAME>(i));
      a.name = trim(kernel.getArgInfo<CL_KERNEL_ARG_NAME>(i));
    } catch (const cl::Error& e) {
      throw std::runtime_error(
          fmt::format("{} gave no argument info for '{}' ({}): scan cannot "
                      "tell buffers from scalars",
                      r.device, options.kernel, clErrorName(e.err())));
    }
    // Some drivers keep the NUL terminator in returned strings.
    a.type_name.erase(std::find(a.type_name.begin(), a.type_name.end(), '\0'), a.type_name.end());
    a.name.erase(std::find(a.name.begin(), a.name.end(), '\0'), a.name.end());
    if (a.name.empty()) a.name = "arg" + std::to_string(i);
    return a;
  }

  // Every argument, in order: from the .sim file, or made from its type and the user's --arg.
  void fillArguments() {
    for (cl_uint i = 0; i < count; ++i) {
      ScanArgument a = readArgument(i);
      known.push_back(a.name);
      auto given = options.args.find(a.name);
      a.from_user = given != options.args.end();
      ArgSpec arg;
      if (from_sim) {
        a.from_user = true;
        arg = simArgument(options.sim_args[i], a, spec, options.sim_path);
      } else {
        arg = fillArgument(i, a, a.from_user ? given->second : std::string());
      }
      launch.args.push_back(std::move(arg));
      r.arguments.push_back(std::move(a));
    }
  }

  // One argument from its type and the user's value ("" when not given).
  ArgSpec fillArgument(cl_uint i, ScanArgument& a, const std::string& value) {
    const bool memory = a.address_space == "global" || a.address_space == "constant";
    if (value == "null") {  // --arg NAME=null: a NULL buffer
      if (!memory)
        throw ScanUsageError(fmt::format(
            "--arg {}=null: only a __global or __constant pointer can be NULL ('{}' is {} {})",
            a.name, a.name, a.address_space, a.type_name));
      ArgSpec arg;
      arg.kind = ArgSpec::Kind::null;
      a.given = "NULL";
      return arg;
    }
    if (value.rfind("uninit:", 0) == 0 && !memory)  // --arg NAME=uninit:N
      throw ScanUsageError(
          fmt::format("--arg {}={}: only a __global or __constant buffer can be left uninitialized",
                      a.name, value));
    if (imageDimensions(a.type_name) != 0 || isSampler(a.type_name)) return imageArgument(i, a);
    if (!fillableType(a.type_name))
      throw ScanUsageError(fmt::format(
          "argument {} '{}' has type '{}', which scan cannot fill "
          "(it fills scalars, vectors, structs and buffers of them, 1-D to 3-D images, samplers)",
          i, a.name, a.type_name));
    const ArgType t = argType(i, a);
    ArgSpec arg;
    arg.type = t.type;
    if (memory) {
      bufferArgument(a, t, value, arg);
    } else if (a.address_space != "private") {  // __local
      arg.kind = ArgSpec::Kind::local;
      if (a.from_user) {
        size_t n = parseCount(a.name, value);
        arg.value = {std::to_string(n * t.width), 0};
        a.given = fmt::format("{} x {} of local memory", n, pointee(a.type_name));
      } else {
        locals.push_back({launch.args.size(), t.type, t.width});
      }
    } else if (t.structure) {  // a struct by value: zero, or --arg NAME=bytes:HEX
      arg.kind = ArgSpec::Kind::bytes;
      arg.bytes.assign(t.struct_bytes, 0);
      a.given = fmt::format("{} bytes of zero", t.struct_bytes);
      if (a.from_user) {
        arg.bytes = parseHexBytes(a.name, value, t.struct_bytes);
        a.given = "= " + value;
      }
    } else if (t.width != 1) {
      vectorArgument(a, t, value, arg);
    } else {
      scalarArgument(i, a, t, value, arg);
    }
    return arg;
  }

  // An image (as large as the grid, one pixel per work-item, random RGBA floats) or a sampler.
  ArgSpec imageArgument(cl_uint i, ScanArgument& a) const {
    if (a.from_user)
      throw ScanUsageError(
          fmt::format("--arg {}: scan makes image and sampler arguments itself", a.name));
    ArgSpec arg;
    const int imageDims = imageDimensions(a.type_name);
    if (imageDims == 0) {
      arg.kind = ArgSpec::Kind::sampler;
      a.given = "sampler: unnormalized coordinates, clamp to edge, nearest";
      return arg;
    }
    arg.kind = ArgSpec::Kind::image;
    for (int d = 0; d < imageDims; ++d)
      arg.image_size.push_back(static_cast<size_t>(d) < r.global.size() ? r.global[d] : 1);
    const size_t pixels = std::accumulate(arg.image_size.begin(), arg.image_size.end(), size_t{1},
                                          std::multiplies<>());
    std::mt19937_64 random(options.seed + i);
    std::uniform_real_distribution<float> lane(-1.0f, 1.0f);
    for (size_t k = 0; k < 4 * pixels; ++k) {
      const float v = lane(random);
      const auto* p = reinterpret_cast<const uint8_t*>(&v);
      arg.bytes.insert(arg.bytes.end(), p, p + sizeof v);
    }
    std::string size = commaList(arg.image_size);
    std::replace(size.begin(), size.end(), ',', 'x');
    a.given = fmt::format("{} image of RGBA floats, random in [-1, 1]", size);
    return arg;
  }

  // The element type and width of argument i, or a struct's bytes, sized by the device's compiler.
  ArgType argType(cl_uint i, const ScanArgument& a) const {
    ArgType t;
    t.structure = !parseArgType(a.type_name, t.type, t.width);
    if (!t.structure) return t;
    auto size = struct_sizes.find(pointee(a.type_name));
    if (size == struct_sizes.end() || size->second == 0)
      throw ScanUsageError(fmt::format(
          "argument {} '{}' has type '{}', whose size the device's compiler did not give "
          "(sizeof({}) in a kernel appended to the source did not build)",
          i, a.name, a.type_name, pointee(a.type_name)));
    t.struct_bytes = size->second;
    t.type = ElemType::u8;
    t.width = static_cast<int>(t.struct_bytes);
    return t;
  }

  // A __global or __constant buffer: its count (--arg NAME=COUNT or NAME=uninit:COUNT, else the
  // default) and its contents.
  void bufferArgument(ScanArgument& a, const ArgType& t, const std::string& value, ArgSpec& arg) {
    const bool uninit = value.rfind("uninit:", 0) == 0;  // --arg NAME=uninit:N
    const std::string countText = uninit ? value.substr(7) : value;
    size_t n = a.from_user ? parseCount(a.name, countText) : buffer_default;
    BufferSpec b;
    b.name = a.name;
    b.type = t.type;
    b.count = {std::to_string(n * t.width), 0};
    b.role = Role::in;
    if (uninit) {
      b.init.kind = InitSpec::Kind::none;
      b.init.text = "uninitialized";
    } else if (t.structure) {
      // Small integers in every 4-byte word (a float field reads a tiny denormal, an int field
      // an index like an int buffer's): elements differ, so stores of them are not uniform
      // writes (the simulator leaves those races out), and no field is a wild index.
      if (t.struct_bytes % 4 == 0) {
        b.type = ElemType::u32;
        b.count = {std::to_string(n * t.width / 4), 0};
      }
      b.init.kind = InitSpec::Kind::uniform;
      b.init.a = 0, b.init.b = 100, b.init.text = "uniform(0, 100)";
    } else if (isFloat(t.type)) {
      b.init.kind = InitSpec::Kind::uniform;
      b.init.a = -1, b.init.b = 1, b.init.text = "uniform(-1, 1)";
    } else {
      b.init.kind = InitSpec::Kind::uniform;
      b.init.a = 0, b.init.b = 100, b.init.text = "uniform(0, 100)";
      integer_buffers.push_back(b.name);
    }
    spec.buffers.push_back(b);
    arg.kind = ArgSpec::Kind::buffer;
    arg.buffer = a.name;
    const std::string what =
        t.structure ? fmt::format("{} ({} bytes each)", pointee(a.type_name), t.struct_bytes)
                    : pointee(a.type_name);
    a.given =
        fmt::format("{} x {}, {}", n, what,
                    uninit        ? "uninitialized"
                    : t.structure ? (t.struct_bytes % 4 == 0 ? "each 4-byte word random in [0, 100]"
                                                             : "each byte random in [0, 100]")
                    : isFloat(t.type) ? "random in [-1, 1]"
                                      : "random in [0, 100]");
  }

  // A vector by value: every lane the scalar default, or --arg's lanes.
  void vectorArgument(ScanArgument& a, const ArgType& t, const std::string& value,
                      ArgSpec& arg) const {
    std::vector<double> lanes;
    if (a.from_user) {
      std::stringstream in(value);
      for (std::string lane; std::getline(in, lane, ',');)
        lanes.push_back(parseNumber(a.name, trim(lane)));
      const size_t declared =
          t.width == 4 && a.type_name.find('3') != std::string::npos ? 3 : t.width;
      if (lanes.size() != 1 && lanes.size() != declared)
        throw ScanUsageError(fmt::format("--arg {}={}: {} has {} lanes (give 1 or {} values)",
                                         a.name, value, a.type_name, declared, declared));
    } else {
      lanes = {isFloat(t.type) ? 1.0 : static_cast<double>(r.global[0])};
    }
    arg.kind = ArgSpec::Kind::bytes;
    arg.bytes = vectorBytes(t.type, t.width, lanes);
    std::string shown;
    for (double v : lanes) shown += (shown.empty() ? "" : ",") + number(v);
    a.given = fmt::format("= ({}){}", shown, lanes.size() == 1 ? " in every lane" : "");
  }

  // A scalar: the user's value, a range explored (LO..HI), or the default and values explored.
  void scalarArgument(cl_uint i, ScanArgument& a, const ArgType& t, const std::string& value,
                      ArgSpec& arg) {
    double v = 0;
    const size_t range = a.from_user ? value.find("..") : std::string::npos;
    if (range != std::string::npos) {  // LO..HI: explored like an unset scalar, within it
      const double lo = parseNumber(a.name, value.substr(0, range));
      const double hi = parseNumber(a.name, value.substr(range + 2));
      if (lo > hi)
        throw ScanUsageError(
            fmt::format("--arg {}={}: the range's low end is above its high end", a.name, value));
      std::vector<double> values = rangeValuesToTry(t.type, lo, hi, options.seed + i);
      v = values.front();
      values.erase(values.begin());
      explore.push_back({launch.args.size(), a.name, values});
      a.given = fmt::format("= {} (of {}..{})", number(v), number(lo), number(hi));
    } else {
      v = a.from_user ? parseNumber(a.name, value)
                      : (isFloat(t.type) ? 1.0 : static_cast<double>(r.global[0]));
      if (!a.from_user)
        explore.push_back({launch.args.size(), a.name,
                           scalarValuesToTry(t.type, v, r.global[0], options.seed + i)});
      a.given = fmt::format("= {}", number(v));
    }
    arg.kind = ArgSpec::Kind::scalar;
    arg.name = a.name;
    arg.value = {number(v), 0};
  }

  // An --arg that names no parameter is a usage error that lists them.
  void checkArgNames() const {
    for (const auto& [name, value] : options.args)
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        throw ScanUsageError(
            fmt::format("--arg {}: kernel '{}' has no parameter of that name (it has: {})", name,
                        options.kernel, list.empty() ? "none" : list));
      }
  }

  // Unset __local arguments share the device's local memory: 4 elements per work-item of the
  // group, at least 1024, as far as the memory allows. Then the launch joins the spec.
  void finishSpec() {
    if (!locals.empty()) {
      uint64_t room =
          dev.local_mem_size ? dev.local_mem_size / 2 : 16384;  // leave room for the kernel's own
      for (const auto& l : locals) {
        size_t width = static_cast<size_t>(l.width);
        size_t want = std::max(kScanMinBufferElements, kScanBufferPerItem * group_items);
        size_t fit = room / locals.size() / (sizeOf(l.type) * width);
        size_t n = std::max<size_t>(1, std::min(want, fit));
        launch.args[l.arg].value = {std::to_string(n * width), 0};
        r.arguments[l.arg].given =
            fmt::format("{} x {} of local memory", n, pointee(r.arguments[l.arg].type_name));
      }
    }
    spec.launches.push_back(launch);
    if (!spec.buffers.empty() &&
        std::any_of(r.arguments.begin(), r.arguments.end(), [](const ScanArgument& a) {
          return !a.from_user && (a.address_space == "global" || a.address_space == "constant");
        }))
      r.notes.push_back(
          fmt::format("buffers not set with --arg NAME=COUNT hold {} elements each: an "
                      "access past a smaller real buffer goes unseen",
                      buffer_default));
    ReferenceRegistry::instance().add(kNoReference, [](RefCase&) {});
  }

  // Other local sizes a driver could pick, when scan chose the first.
  void findOtherLocals() {
    if (!r.local_chosen) return;
    size_t kernelMax = dev.max_work_group_size, multiple = 1;
    try {
      kernelMax = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev.device);
      multiple = kernel.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(dev.device);
    } catch (const cl::Error&) {
    }
    for (auto& shape : driverLikeLocalSizes(r.global, std::min<size_t>(kernelMax, 256), multiple,
                                            dev.max_work_item_sizes))
      if (shape != r.local) other_locals.push_back(std::move(shape));
  }

  // The launches: the defaults, then one value at a time of each scalar not fixed and, when no
  // local size was given, other shapes a driver could pick, in rounds, within options.tries.
  void planTries() {
    findOtherLocals();
    tries = {{"defaults", {}, r.local}};
    const size_t most = static_cast<size_t>(std::max(options.tries, 1));
    for (size_t round = 0; tries.size() < most; ++round) {
      bool any = false;
      for (const auto& e : explore)
        if (round < e.values.size() && tries.size() < most) {
          tries.push_back({fmt::format("{}={}", e.name, number(e.values[round])),
                           {{e.arg, e.values[round]}},
                           r.local});
          any = true;
        }
      if (round < other_locals.size() && tries.size() < most) {
        tries.push_back({"local " + commaList(other_locals[round]), {}, other_locals[round]});
        any = true;
      }
      if (round < other_globals.size() && tries.size() < most) {
        tries.push_back({"global " + commaList(other_globals[round]),
                         {},
                         r.local,
                         false,
                         other_globals[round]});
        any = true;
      }
      if (round == 0 && !integer_buffers.empty() && tries.size() < most) {
        tries.push_back({"integer buffers 0", {}, r.local, true});
        any = true;
      }
      if (!any) break;
    }
    noteTries(most);
  }

  // The note that lists the launches planned beyond the defaults.
  void noteTries(size_t most) {
    if (explore.empty() && other_locals.empty() && integer_buffers.empty()) return;
    std::string scalars;
    for (const auto& e : explore) {
      std::string values;
      for (double v : e.values) values += ", " + number(v);
      scalars += fmt::format("{}{}{}", scalars.empty() ? "" : "; ", e.name, values);
    }
    std::string shapes;
    for (const auto& l : other_locals) shapes += (shapes.empty() ? "" : "; ") + commaList(l);
    std::string zeroed;
    if (std::any_of(tries.begin(), tries.end(), [](const Try& t) { return t.zero_integers; }))
      for (const auto& b : integer_buffers) zeroed += (zeroed.empty() ? "" : ", ") + b;
    r.notes.push_back(fmt::format(
        "{} launches of at most {} (--tries){}{}{}; fix a scalar with --arg NAME=VALUE, explore a "
        "range with --arg NAME=LO..HI",
        tries.size(), most, scalars.empty() ? "" : "; other scalar values: " + scalars,
        shapes.empty() ? "" : "; other local sizes: " + shapes,
        zeroed.empty() ? "" : "; integer buffers all 0: " + zeroed));
  }

  // The spec of one launch: the defaults with the try's values, contents and sizes.
  Spec specOf(const Try& t) const {
    Spec one = spec;
    for (const auto& [arg, value] : t.values) one.launches[0].args[arg].value = {number(value), 0};
    if (t.zero_integers)
      for (auto& b : one.buffers)
        if (std::find(integer_buffers.begin(), integer_buffers.end(), b.name) !=
            integer_buffers.end()) {
          b.init.kind = InitSpec::Kind::zero;
          b.init.text = "zero";
        }
    if (!t.global.empty()) {
      one.launches[0].global.clear();
      for (size_t g : t.global) one.launches[0].global.push_back({std::to_string(g), 0});
    }
    one.launches[0].local.clear();
    for (size_t l : t.local) one.launches[0].local.push_back({std::to_string(l), 0});
    return one;
  }

  // The result so far to whoever follows the scan (its parent process).
  void report() const {
    if (progress) progress(r);
  }

  // Every launch planned, each finding listed once (with the first launch that showed it); a
  // launch that would likely pass the CPU budget is not run (not_run names it), nor any after a
  // build or tool error (which they would repeat).
  void runTries() {
    std::map<std::string, size_t> seen;  // merge key -> index in r.findings
    double longestTry = 0;               // CPU seconds of the costliest launch so far
    for (const auto& t : tries) r.not_run.push_back(t.label);
    report();
    for (const auto& t : tries) {
      const double cpuBefore = processCpuSeconds();
      if (options.cpu_budget_s > 0 && !r.tries.empty() &&
          cpuBefore + longestTry > options.cpu_budget_s) {
        r.notes.push_back(fmt::format(
            "{} of the {} launches not run: with {:.0f} s of CPU time used and the longest "
            "launch at {:.0f} s, the next would likely pass the time limit ({:.0f} s of CPU, "
            "--timeout)",
            tries.size() - r.tries.size(), tries.size(), cpuBefore, longestTry,
            options.cpu_budget_s));
        break;
      }
      const auto start = std::chrono::steady_clock::now();
      CaseOutcome outcome = options.sanitize
                                ? sanitizedCase(session, specOf(t), build_path, options, r, t.label)
                                : session.runCase(specOf(t), {}, options.seed);
      ScanTry done{t.label, t.local, outcome.findings.size(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
      r.tries.push_back(done);
      longestTry = std::max(longestTry, processCpuSeconds() - cpuBefore);
      for (auto& f : outcome.findings) {
        f = chargeBodilessCall(std::move(f), options.source_path);
        const std::string key = mergeKey(f);
        if (seen.count(key)) continue;
        if (t.label != "defaults") f.summary += " [with " + t.label + "]";
        seen.emplace(key, r.findings.size());
        r.findings.push_back(std::move(f));
      }
      r.not_run.erase(r.not_run.begin());
      report();
      // A kernel that does not build or launch fails the same way with other values.
      if (std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) {
            return f.kind == FindingKind::build_error || f.kind == FindingKind::tool_error;
          })) {
        r.not_run.clear();
        break;
      }
    }
  }

  // The simulator's notes, and the findings the user suppressed counted.
  void finish() {
    for (auto& note : session.takeSimulatorNotes()) r.notes.push_back(std::move(note));
    for (FindingKind kind : options.suppress) {
      auto dropped = std::erase_if(r.findings, [&](const Finding& f) { return f.kind == kind; });
      if (dropped)
        r.notes.push_back(fmt::format("{} {} finding{} suppressed (--suppress)", dropped,
                                      toString(kind), dropped == 1 ? "" : "s"));
    }
  }
};

}  // namespace

ScanResult runScan(DeviceSession& session, const ScanOptions& options,
                   const std::function<void(const ScanResult&)>& progress) {
  ScanRun s(session, options, progress);
  s.start();
  s.stubBodiless();
  if (!s.build()) return std::move(s.r);
  s.sizeStructs();
  s.startSpec();
  s.fillArguments();
  s.checkArgNames();
  s.finishSpec();
  s.planTries();
  s.runTries();
  s.finish();
  return std::move(s.r);
}

}  // namespace clh::scan
