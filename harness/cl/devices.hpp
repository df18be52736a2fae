// Finding OpenCL devices: registering drivers the system does not list (Oclgrind, an unregistered
// NVIDIA library) through a private ICD folder, then enumerating every platform and device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cl/opencl.hpp"

namespace clh {

/// Where to look for ICD libraries, resolved once by the tool's main (habit: configuration is a
/// value, only main reads the environment).
struct IcdConfig {
  /// Folder for the private vendors list; created if missing. Empty: a folder under $TMPDIR.
  std::string folder;
  /// The system's vendors folder whose .icd files are kept (an OCL_ICD_VENDORS the user had set
  /// wins over /etc/OpenCL/vendors).
  std::string system_vendors = "/etc/OpenCL/vendors";
  /// The folder is already written and OCL_ICD_VENDORS names it (a child process of the tool):
  /// keep it as it is, so the child sees the platforms in its parent's order.
  bool reuse = false;
  /// Extra ICD libraries to register when they exist and no .icd file names them yet.
  std::vector<std::string> extra_libraries = {
      "/usr/lib/oclgrind/liboclgrind-rt-icd.so",
      "/usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so",
      "/usr/local/nvidia/lib64/libnvidia-opencl.so.1",
      "/usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1",
  };
};

/// Writes the private vendors folder and points OCL_ICD_VENDORS at it. Must run before the first
/// OpenCL call of the process. Returns the folder. Never writes outside `config.folder`.
std::string registerIcds(const IcdConfig& config);

enum class DeviceKind { cpu, gpu, accelerator, simulator, other };
const char* toString(DeviceKind kind);

/// What the harness knows of one device, queried once.
struct DeviceInfo {
  int platform_index = 0;
  int device_index = 0;
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
};

/// Every device of every platform, in ICD order. A platform that fails to answer is skipped.
std::vector<DeviceInfo> enumerateDevices();

/// The devices whose displayName() matches `regex` (ECMAScript, search); all when empty.
std::vector<DeviceInfo> selectDevices(const std::vector<DeviceInfo>& all, const std::string& regex);

}  // namespace clh
