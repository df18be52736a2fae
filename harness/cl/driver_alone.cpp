// Which ICD library provides a device, and a child's environment that loads it alone
// (cl/driver_alone.hpp).
#include "cl/driver_alone.hpp"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "cl/unit_environment.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace clh {

namespace {

using IcdGetPlatformIds = cl_int (*)(cl_uint, cl_platform_id*, cl_uint*);

// A library this process has loaded: the platforms it gives the ICD loader (its
// clIcdGetPlatformIDsKHR, which the loader calls too) and the file it was loaded from (canonical:
// a child whose environment differs finds the same file); none when it is not loaded here.
struct Loaded {
  std::vector<cl_platform_id> platforms;
  std::string path;
};

Loaded loadedLibrary(const std::string& library) {
  void* h = dlopen(library.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!h) return {};
  Loaded out;
  link_map* map = nullptr;
  std::error_code ec;
  if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
    out.path = fs::canonical(map->l_name, ec).string();
  if (ec || out.path.empty()) out.path = library;
  using Lookup = void* (*)(const char*);
  const auto lookup = reinterpret_cast<Lookup>(dlsym(h, "clGetExtensionFunctionAddress"));
  auto get =
      reinterpret_cast<IcdGetPlatformIds>(lookup ? lookup("clIcdGetPlatformIDsKHR") : nullptr);
  if (!get) get = reinterpret_cast<IcdGetPlatformIds>(dlsym(h, "clIcdGetPlatformIDsKHR"));
  cl_uint n = 0;
  if (get && get(0, nullptr, &n) == CL_SUCCESS && n > 0) {
    out.platforms.resize(n);
    if (get(n, out.platforms.data(), nullptr) != CL_SUCCESS) out.platforms.clear();
  }
  dlclose(h);  // the loader's own reference keeps it loaded
  return out;
}

// The libraries the .icd files of this process's vendors folder (OCL_ICD_VENDORS) name.
std::vector<std::string> listedLibraries() {
  std::vector<std::string> out;
  const char* folder = std::getenv("OCL_ICD_VENDORS");
  std::error_code ec;
  if (!folder || !fs::is_directory(folder, ec)) return out;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.path().extension() != ".icd") continue;
    std::ifstream in(e.path());
    std::string lib;
    std::getline(in, lib);
    while (!lib.empty() && std::isspace(static_cast<unsigned char>(lib.back()))) lib.pop_back();
    if (!lib.empty()) out.push_back(lib);
  }
  return out;
}

bool namesDrivers() {
  const char* named = std::getenv("OCL_ICD_FILENAMES");
  return named && *named;
}

}  // namespace

// The library whose ICD entry point gives the platform, not where the platform's dispatch table
// lies: a driver that wraps another's platforms (tests/support/crashy_icd.cpp renames PoCL's) is
// the wrapper, the library the loader was given, though its objects carry PoCL's table.
std::string DeviceInfo::icdLibrary() const {
  const cl_platform_id id = platform_handle();
  if (!id || namesDrivers()) return {};
  std::string found;
  for (const auto& lib : listedLibraries()) {
    const Loaded loaded = loadedLibrary(lib);
    const auto& ids = loaded.platforms;
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) continue;
    if (!found.empty() && found != loaded.path) return {};  // two give it: which is this one's
    found = loaded.path;
  }
  return found;
}

// Asked once a platform: a run spawns a child per unit, launch family and scan try, and each
// answer costs a read of the vendors folder and a call into every driver listed there.
std::string driverAloneFolder(const DeviceInfo& device) {
  static std::mutex mutex;
  static std::map<cl_platform_id, std::string> ofPlatform;  // its folder ("": none)
  static std::map<std::string, std::string> ofLibrary;      // one folder a library
  if (namesDrivers()) return {};
  std::lock_guard<std::mutex> lock(mutex);
  const auto known = ofPlatform.find(device.platform_handle());
  if (known != ofPlatform.end()) return known->second;
  std::string folder;
  if (const std::string lib = device.icdLibrary(); !lib.empty()) {
    auto it = ofLibrary.find(lib);
    if (it == ofLibrary.end()) it = ofLibrary.emplace(lib, makeDriverAloneFolder(lib)).first;
    folder = it->second;
  }
  return ofPlatform[device.platform_handle()] = folder;
}

std::vector<std::string> withIcdFolder(std::vector<std::string> env, const std::string& folder) {
  const std::string vendors = "OCL_ICD_VENDORS=", inherited = std::string(kIcdFolderVariable) + "=";
  env.erase(std::remove_if(env.begin(), env.end(),
                           [&](const std::string& v) {
                             return v.rfind(vendors, 0) == 0 || v.rfind(inherited, 0) == 0;
                           }),
            env.end());
  env.push_back(vendors + folder);
  env.push_back(inherited + folder);
  return env;
}

std::optional<std::vector<std::string>> deviceChildEnvironment(
    const DeviceInfo& device, std::optional<std::vector<std::string>> env) {
  const std::string folder = driverAloneFolder(device);
  if (folder.empty()) return env;
  return withIcdFolder(env ? std::move(*env) : environmentWithDefaults(environ, {}), folder);
}

}  // namespace clh
