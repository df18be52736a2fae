// Device discovery: the private ICD folder and the device table.
#include "cl/devices.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace clh {

namespace {

std::string readFirstLine(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  return line;
}

// The file name a library is known by, for comparing "/a/libx.so.1" with "libx.so.1".
std::string baseName(const std::string& lib) {
  return fs::path(lib).filename().string();
}

}  // namespace

std::string registerIcds(const IcdConfig& config) {
  fs::path folder = config.folder;
  if (folder.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    folder = fs::path(tmp && *tmp ? tmp : "/tmp") / ("clharness-icd-" + std::to_string(getuid()));
  }
  std::error_code ec;
  if (config.reuse && fs::is_directory(folder, ec)) {
    setenv("OCL_ICD_VENDORS", folder.c_str(), 1);
    return folder.string();
  }
  fs::create_directories(folder, ec);

  // The files the folder must hold: what the system (or the user's own OCL_ICD_VENDORS) lists,
  // then the drivers that are installed but not listed.
  std::map<std::string, std::string> want;  // file name -> library
  std::set<std::string> known;              // base names of registered libraries
  if (fs::is_directory(config.system_vendors, ec)) {
    for (const auto& entry : fs::directory_iterator(config.system_vendors, ec)) {
      if (entry.path().extension() != ".icd") continue;
      std::string lib = readFirstLine(entry.path());
      if (lib.empty()) continue;
      want[entry.path().filename().string()] = lib;
      known.insert(baseName(lib));
    }
  }
  int n = 0;
  for (const auto& lib : config.extra_libraries) {
    if (!fs::exists(lib, ec) || known.count(baseName(lib))) continue;
    want["clharness-" + std::to_string(n++) + "-" + fs::path(lib).filename().string() + ".icd"] =
        lib;
    known.insert(baseName(lib));
  }
  // Other processes of the tool (ctest runs several) may be reading the folder: files are
  // replaced atomically, and only when their content changes; stale ones are removed.
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".icd" && !want.count(entry.path().filename().string()))
      fs::remove(entry.path(), ec);
  for (const auto& [name, lib] : want) {
    if (readFirstLine(folder / name) == lib) continue;
    fs::path tmp = folder / (name + ".tmp" + std::to_string(getpid()));
    std::ofstream(tmp) << lib << "\n";
    fs::rename(tmp, folder / name, ec);
  }
  setenv("OCL_ICD_VENDORS", folder.c_str(), 1);
  return folder.string();
}

const char* toString(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::cpu:
      return "cpu";
    case DeviceKind::gpu:
      return "gpu";
    case DeviceKind::accelerator:
      return "accelerator";
    case DeviceKind::simulator:
      return "simulator";
    case DeviceKind::other:
      return "other";
  }
  return "other";
}

std::string DeviceInfo::displayName() const {
  return platform + ": " + name;
}

std::string DeviceInfo::slug() const {
  std::string out;
  std::string src = platform.substr(0, platform.find(' ')) + "-" + name;
  for (char ch : src) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c))
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
    if (out.size() >= 40) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::vector<DeviceInfo> enumerateDevices() {
  std::vector<DeviceInfo> out;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return out;  // CL_PLATFORM_NOT_FOUND_KHR: no driver at all
  }
  for (size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;
    }
    for (size_t d = 0; d < devices.size(); ++d) {
      DeviceInfo info;
      const cl::Device& dev = devices[d];
      info.platform_index = static_cast<int>(p);
      info.device_index = static_cast<int>(d);
      info.platform = platforms[p].getInfo<CL_PLATFORM_NAME>();
      info.platform_handle = platforms[p];
      info.device = dev;
      info.name = dev.getInfo<CL_DEVICE_NAME>();
      info.vendor = dev.getInfo<CL_DEVICE_VENDOR>();
      info.version = dev.getInfo<CL_DEVICE_VERSION>();
      info.driver_version = dev.getInfo<CL_DRIVER_VERSION>();
      info.c_version = dev.getInfo<CL_DEVICE_OPENCL_C_VERSION>();
      for (std::string* s : {&info.platform, &info.name, &info.version, &info.c_version})
        s->erase(std::find(s->begin(), s->end(), '\0'), s->end());
      int major = 1, minor = 0;
      if (std::sscanf(info.version.c_str(), "OpenCL %d.%d", &major, &minor) == 2) {
        info.opencl_major = major;
        info.opencl_minor = minor;
      }
      cl_device_type type = dev.getInfo<CL_DEVICE_TYPE>();
      info.simulator = info.platform.find("Oclgrind") != std::string::npos;
      info.kind = info.simulator                        ? DeviceKind::simulator
                  : (type & CL_DEVICE_TYPE_GPU)         ? DeviceKind::gpu
                  : (type & CL_DEVICE_TYPE_CPU)         ? DeviceKind::cpu
                  : (type & CL_DEVICE_TYPE_ACCELERATOR) ? DeviceKind::accelerator
                                                        : DeviceKind::other;
      info.max_work_group_size = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      info.max_work_item_sizes = dev.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
      info.local_mem_size = dev.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      info.global_mem_size = dev.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.max_mem_alloc_size = dev.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      if (info.opencl_major >= 2) {
        cl_bool nu = CL_FALSE;
        if (clGetDeviceInfo(dev(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(nu), &nu,
                            nullptr) == CL_SUCCESS)
          info.non_uniform_work_groups = nu == CL_TRUE;
      }
      out.push_back(std::move(info));
    }
  }
  return out;
}

std::vector<DeviceInfo> selectDevices(const std::vector<DeviceInfo>& all,
                                      const std::string& regex) {
  if (regex.empty()) return all;
  std::regex re(regex, std::regex::ECMAScript | std::regex::icase);
  std::vector<DeviceInfo> out;
  for (const auto& d : all)
    if (std::regex_search(d.displayName(), re)) out.push_back(d);
  return out;
}

}  // namespace clh
