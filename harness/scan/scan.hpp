// `clharness scan`: checks a kernel that has no spec. Its arguments come from the kernel's own
// argument info; buffers get random contents and generous sizes; launches on a device (the
// simulator, with every check on, building the kernel as written) give the diagnostics: one with
// the defaults, then others that explore what the user did not fix (scalar values, local sizes).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "cl/session.hpp"
#include "core/finding.hpp"
#include "scan/sim_file.hpp"

namespace clh::scan {

/// Defaults for what the user did not set.
inline constexpr size_t kScanMinBufferElements = 1024;  ///< a buffer holds at least this many
inline constexpr size_t kScanBufferPerItem = 4;         ///< ... or 4 elements per work-item
inline constexpr size_t kScanMaxLocalItems = 64;        ///< the chosen work-group's size limit
/// The most work-items a scan's launch has by default (--max-items): an interpreter runs each.
inline constexpr size_t kScanMaxItems = 65536;
/// A free global size ('*' in --global): explored over 2, 1 and 3 work-groups of the local size
/// (kScanFreeGroup work-items when no local size is given).
inline constexpr size_t kScanFreeSize = 0;
inline constexpr size_t kScanFreeGroup = 16;

/// A scan that cannot run as asked: an unknown `--arg` name, an argument type scan cannot fill,
/// a local size that does not fit the global one. The message says which and why.
class ScanUsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What one kernel argument was given.
struct ScanArgument {
  int index = 0;
  std::string name;           ///< the parameter's name (CL_KERNEL_ARG_NAME)
  std::string address_space;  ///< "global", "constant", "local" or "private"
  std::string type_name;   ///< as the kernel declares it (CL_KERNEL_ARG_TYPE_NAME), e.g. "float*"
  std::string given;       ///< what it got, e.g. "4096 float4, random in [-1, 1]" or "= 256"
  bool from_user = false;  ///< set with --arg NAME=VALUE
};

struct ScanOptions {
  std::string source_path;
  std::string kernel;
  std::string build_options;   ///< `-cl-kernel-arg-info` is added when missing
  std::vector<size_t> global;  ///< kScanFreeSize in a dimension: free, explored
  std::vector<size_t> local;   ///< empty: chosen (defaultLocalSize)
  /// NAME -> VALUE: a scalar's value (or LO..HI, a range to explore), or the element count of a
  /// buffer or __local argument.
  std::map<std::string, std::string> args;
  /// The most launches: the defaults first, then other values of the scalars not fixed and other
  /// local sizes when none was given. 1: the defaults only.
  int tries = 12;
  uint64_t seed = 1;
  /// Findings of these kinds are dropped (a simulator's known false positive); a note counts them.
  std::vector<FindingKind> suppress;
  /// From a .sim file (`sim_path` non-empty): every argument as the file gives it, by position
  /// (`args` is then empty, and nothing is explored).
  std::string sim_path;
  std::vector<SimArgument> sim_args;
  /// Build the source with a body returning zero for each function it declares, calls and never
  /// defines (scan/stubs.hpp); by default such a call is the kernel's build_error.
  bool stub_bodiless = false;
  /// A grid of more work-items than this runs smaller (scan/grid.hpp), said in a note; 0: as given.
  size_t max_items = kScanMaxItems;
  /// At most this many work-groups in each dimension (0: no cap): the parent's second and third
  /// try of a grid that ran past the time limit.
  size_t max_groups = 0;
  /// Run the kernel instrumented by the sanitizer (harness/sanitize) instead of as written: its
  /// findings are the runtime's records, on whatever device the session has.
  bool sanitize = false;
  /// CPU seconds the launches may use in all (0: no budget): a launch other than the defaults
  /// that would likely pass it is not run, and a note says so.
  double cpu_budget_s = 0;
};

/// One launch of a scan: what differed from the defaults, and what it found.
struct ScanTry {
  std::string values;  ///< e.g. "defaults", "n=0", "local 7"
  std::vector<size_t> local;
  size_t findings = 0;
  double seconds = 0;
};

struct ScanResult {
  std::string device;
  std::string kernel;
  std::string source;
  std::string build_options;  ///< as used
  std::string sim_file;       ///< the Oclgrind .sim the scan came from, if any
  std::vector<size_t> global, local;
  bool local_chosen = false;  ///< the local size was chosen, not given
  std::vector<ScanArgument> arguments;
  std::vector<Finding> findings;   ///< every diagnostic: the kernel's, or the tool's (tool_error)
  std::vector<std::string> notes;  ///< what the reader should know about how it ran
  std::vector<ScanTry> tries;      ///< every launch, the defaults first
  /// The launches planned that did not run, by their values ("n=0"): the time limit (--timeout)
  /// or an interrupt stopped the scan first. A launch cut short is among them.
  std::vector<std::string> not_run;
};

/// The values a scan tries for a scalar argument the user did not fix, after `first` (the
/// default): 0, 1, -1 (signed types), the last index `global_x - 1`, and a random value in
/// [2, global_x) from `seed`; for floats 0, -1 and 0.5. Distinct, `first` excluded.
std::vector<double> scalarValuesToTry(ElemType type, double first, size_t global_x, uint64_t seed);

/// For `--arg NAME=LO..HI`: LO, HI, LO + 1, HI - 1 and a random value between, distinct, in order.
std::vector<double> rangeValuesToTry(ElemType type, double lo, double hi, uint64_t seed);

/// A work-group size for `global`: in each dimension in turn, the largest divisor of the global
/// size that keeps the group within `max_items` work-items (and within `max_dims`, when given).
std::vector<size_t> defaultLocalSize(const std::vector<size_t>& global, size_t max_items,
                                     const std::vector<size_t>& max_dims = {});

/// Element type and vector width of an argument type name: "float4*" -> (float, 4),
/// "const uint*" -> (uint, 1). False for a type that is not one of them (a struct, an image, half).
bool parseArgType(const std::string& type_name, ElemType& type, int& width);

/// Whether the build options let a work-group size not divide the global size: OpenCL C 2.0 or
/// later (`-cl-std=CL2.0`, `CL3.0`) without `-cl-uniform-work-group-size`.
bool allowsNonUniformGroups(const std::string& build_options);

/// The bytes of one value of `type` x `width` lanes (a 3-lane vector takes 4), each lane from
/// `lanes` (one value: every lane); for a vector passed by value.
std::vector<uint8_t> vectorBytes(ElemType type, int width, const std::vector<double>& lanes);

/// Whether scan can give an argument of this type a value at all (1-D, 3-D, array, depth and
/// multisample images, pipes, queues and events it cannot; structs, unions, vectors, 2-D images
/// and samplers it can). 3-D images: Oclgrind 21.10's uninitialized-value check reports every
/// read of one made from the host, so a scan of them would report only that.
bool fillableType(const std::string& type_name);

/// 1, 2 or 3 for `image1d_t`, `image2d_t`, `image3d_t` (scan makes them), 0 for any other type.
int imageDimensions(const std::string& type_name);

/// Whether the type is `sampler_t` (scan makes one: unnormalized, clamp to edge, nearest).
bool isSampler(const std::string& type_name);

/// Opens a .sim file as scan options (scan/sim_file.hpp): its kernel file, kernel, sizes and
/// arguments; `build_options` are added to the file's own.
ScanOptions simScanOptions(const std::string& sim_path, const std::string& build_options);

/// The grid a scan runs on `dev`: the free sizes made concrete, the local size chosen or checked,
/// the budget (max_items, max_groups) applied, each change said in `notes`.
struct PlannedGrid {
  std::vector<size_t> global, local;
  bool local_chosen = false;
  std::vector<std::vector<size_t>> other_globals;  ///< the free sizes' other grids, tried after
  std::vector<std::string> notes;
};
/// Throws ScanUsageError for sizes that cannot run as given.
PlannedGrid planGrid(const ScanOptions& options, const DeviceInfo& dev);

/// Builds the kernel on the session's device (adding -cl-kernel-arg-info), reads its argument
/// info, fills every argument and runs one launch. A kernel that does not build is a build_error
/// finding. Throws ScanUsageError for what the user must change, std::runtime_error for a device
/// that gives no argument info. `progress`, when set, gets the result so far once the launches are
/// planned and after each launch (a child sends it to its parent, which reports it if the scan is
/// stopped).
ScanResult runScan(DeviceSession& session, const ScanOptions& options,
                   const std::function<void(const ScanResult&)>& progress = {});

/// The terminal listing: the launch, each argument, then each diagnostic with its source lines.
std::string renderScan(const ScanResult& result);

void to_json(nlohmann::json& j, const ScanArgument& a);
void from_json(const nlohmann::json& j, ScanArgument& a);
void to_json(nlohmann::json& j, const ScanTry& t);
void from_json(const nlohmann::json& j, ScanTry& t);
void to_json(nlohmann::json& j, const ScanResult& r);
void from_json(const nlohmann::json& j, ScanResult& r);

}  // namespace clh::scan
