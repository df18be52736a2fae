// Finding OpenCL devices: registering drivers the system does not list (Oclgrind, an unregistered
// NVIDIA library) through a private ICD folder, then enumerating every platform and device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cl/opencl.hpp"

namespace clh {

/// The environment variable through which a process of the tool hands its vendors folder to its
/// child processes (registerIcds sets it; the tool's main reads it): a child uses its parent's
/// folder as it is and never removes it.
inline constexpr const char* kIcdFolderVariable = "CLHARNESS_PARENT_ICD_DIR";

/// Where to look for ICD libraries, resolved once by the tool's main (habit: configuration is a
/// value, only main reads the environment).
struct IcdConfig {
  /// Folder for the vendors list; created if missing and kept. Empty: a private folder of this
  /// process (mkdtemp under $TMPDIR), removed when the process exits or SIGINT, SIGTERM or
  /// SIGHUP ends it, so that runs side by side never share one.
  std::string folder;
  /// The system's vendors folder whose .icd files are kept (an OCL_ICD_VENDORS the user had set
  /// wins over /etc/OpenCL/vendors).
  std::string system_vendors = "/etc/OpenCL/vendors";
  /// `folder` is already written by the parent process (a child process of the tool): use it as
  /// it is, never rewrite or remove it.
  bool reuse = false;
  /// Extra ICD libraries to register when they exist and no .icd file names them yet.
  std::vector<std::string> extra_libraries = {
      "/usr/lib/oclgrind/liboclgrind-rt-icd.so",
      "/usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so",
      "/usr/local/nvidia/lib64/libnvidia-opencl.so.1",
      "/usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1",
  };
};

/// Writes the vendors folder, points OCL_ICD_VENDORS at it and names it in kIcdFolderVariable for
/// child processes. Must run before the first OpenCL call of the process. Returns the folder.
/// Never writes outside that folder; in a folder the user named, rewrites or removes only the
/// files it wrote there. A top-level run (not `reuse`) first removes the folders of runs killed
/// before they could (core/run_folders.hpp), and holds a lock on its private folder.
std::string registerIcds(const IcdConfig& config);

/// A new folder of this run (clharness-icd-PID-XXXXXX under $TMPDIR, held while the process
/// lives) whose one read-only .icd file names `library`: removed at exit or on a signal. Empty in
/// a process that did not register the drivers itself (a child of the tool, which uses its
/// parent's folders) or when the folder cannot be written.
std::string makeDriverAloneFolder(const std::string& library);

enum class DeviceKind { cpu, gpu, accelerator, simulator, other };
const char* toString(DeviceKind kind);

/// What the harness knows of one device, queried once.
struct DeviceInfo {
  /// Its row in `clharness devices` (1-based, in the order this process enumerated): for people
  /// to type (`--device 2`) and for the ids of a CTest resource spec file (`--device ctest:TYPE`,
  /// written once per machine: the order stays while the drivers installed do not change). A child
  /// process finds its parent's device by identity(), never by this.
  int number = 0;
  /// Its place (0-based) among the devices of the same platform, name and driver version.
  int ordinal = 0;
  int same_count = 1;    ///< how many such identical devices there are
  std::string platform;  ///< CL_PLATFORM_NAME
  std::string name;      ///< CL_DEVICE_NAME
  std::string vendor;
  std::string version;         ///< CL_DEVICE_VERSION
  std::string driver_version;  ///< CL_DRIVER_VERSION
  std::string c_version;       ///< CL_DEVICE_OPENCL_C_VERSION
  DeviceKind kind = DeviceKind::other;
  bool simulator = false;
  size_t max_work_group_size = 0;
  std::vector<size_t> max_work_item_sizes;
  uint64_t local_mem_size = 0;
  uint64_t global_mem_size = 0;
  uint64_t max_mem_alloc_size = 0;
  bool non_uniform_work_groups = false;  ///< OpenCL 2.0+ (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT)
  int opencl_major = 1, opencl_minor = 0;
  cl::Device device;
  cl::Platform platform_handle;

  /// "Platform: Device" — what `--device REGEX` is matched against and reports print.
  std::string displayName() const;
  /// A short id usable in test names: lower-case letters, digits and '-'.
  std::string slug() const;
  /// What names this device in another process of the same machine, whatever the order the ICD
  /// loader lists platforms in: "Platform: Device [driver D, k of n]". `--device` accepts it.
  std::string identity() const;
  /// The ICD library that provides this device's platform: the one of this process's vendors
  /// folder whose ICD entry point gives it (cl/driver_alone.cpp); empty when none or several do.
  std::string icdLibrary() const;
};

/// Every device of every platform, in ICD order. A platform that fails to answer is skipped.
std::vector<DeviceInfo> enumerateDevices();

/// Sets each device's number (its place in `all`, 1-based), ordinal and same_count.
void numberDevices(std::vector<DeviceInfo>& all);

/// The device whose identity() is `id`; nullptr when none is.
const DeviceInfo* findByIdentity(const std::vector<DeviceInfo>& all, const std::string& id);

/// The devices `--device WHAT` selects, in the order of `all` (docs/cli.md):
///  - empty: all;
///  - a device's identity(): that one;
///  - a number: the device of that row of `clharness devices` (DeviceInfo::number);
///  - a vendor word, matched against the platform name only (PoCL on an AMD CPU is not `amd`):
///    pocl, oclgrind, intel, nvidia, amd; or a kind: cpu, gpu, accelerator, sim (or simulator).
///    Case-insensitive; a word that matches no device selects none;
///  - otherwise the devices whose "Platform: Device" contains WHAT (case-insensitive), and when
///    none does, those it matches as a regular expression (ECMAScript, search, case-insensitive;
///    replay commands use `^exact name$`). Throws std::regex_error when WHAT is consulted as a
///    regular expression and is not one, std::invalid_argument when checkDevicePattern refuses it.
std::vector<DeviceInfo> selectDevices(const std::vector<DeviceInfo>& all, const std::string& what);

/// The longest `--device` text, and the deepest nesting of groups in one, that are accepted.
inline constexpr size_t kMaxDevicePatternLength = 512;
inline constexpr int kMaxDevicePatternDepth = 16;

/// Throws std::invalid_argument ("--device: ...", for an exit 2) when WHAT could not be used
/// safely as a regular expression: longer than kMaxDevicePatternLength, groups nested deeper than
/// kMaxDevicePatternDepth, or a repeated group that holds a repetition or an alternative
/// (`(a+)*`, `(a|b)+`: exponential time in a backtracking matcher). std::regex compiles and
/// matches recursively, so such text would otherwise end the process by a stack overflow or hang
/// it. selectDevices calls it before compiling WHAT; findDevices refuses text over the length
/// before any driver is loaded or folder made.
void checkDevicePattern(const std::string& what);

/// The `--help` text of every command's `--device`.
inline constexpr const char* kDeviceOptionHelp =
    "which devices: pocl, oclgrind, intel, nvidia, amd (the platform's vendor), cpu, gpu, sim, "
    "accelerator, a row number of `clharness devices`, ctest:TYPE (the device ctest allocated "
    "to this test, docs/ci.md), a case-insensitive part of 'Platform: Device', or a regular "
    "expression (default: all)";

/// The devices as `clharness devices` numbers them, one "  #N  Platform: Device (kind)" line each;
/// "  (none)" when there is none. For messages that say what `--device` could select.
std::string deviceListing(const std::vector<DeviceInfo>& all);

}  // namespace clh
