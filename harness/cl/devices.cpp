// Device discovery: the private ICD folder and the device table.
#include "cl/devices.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/enum_words.hpp"
#include "core/exit_cleanup.hpp"

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

namespace {

// The private folder this process made: removed when the process exits (not by a child that a
// fork left with a copy of it) or when a signal ends it (core/exit_cleanup). Never destroyed, and
// removed without allocating: at exit a driver may have left the heap in a state that a free()
// aborts on (seen after PoCL ran __local arguments over its own limit in-process).
struct PrivateFolder {
  fs::path dir;
  pid_t owner = 0;
};

PrivateFolder& privateFolder();

void removeAtExit() {
  const PrivateFolder& f = privateFolder();
  if (!f.dir.empty() && getpid() == f.owner) removeRegisteredPaths();
}

PrivateFolder& privateFolder() {
  static PrivateFolder* folder = [] {
    auto* f = new PrivateFolder;
    std::atexit(removeAtExit);
    return f;
  }();
  return *folder;
}

fs::path makePrivateFolder() {
  const char* tmp = std::getenv("TMPDIR");
  std::error_code ec;
  fs::path base = tmp && *tmp && fs::is_directory(tmp, ec) ? fs::path(tmp) : fs::path("/tmp");
  std::string pattern = (base / "clharness-icd-XXXXXX").string();
  if (!mkdtemp(pattern.data()))
    throw std::runtime_error("cannot create a private ICD folder under " + base.string() + ": " +
                             std::strerror(errno));
  return pattern;
}

void announce(const fs::path& folder) {
  setenv("OCL_ICD_VENDORS", folder.c_str(), 1);
  setenv(kIcdFolderVariable, folder.c_str(), 1);
}

}  // namespace

std::string registerIcds(const IcdConfig& config) {
  std::error_code ec;
  if (config.reuse && !config.folder.empty() && fs::is_directory(config.folder, ec)) {
    announce(config.folder);
    return config.folder;
  }
  PrivateFolder& own = privateFolder();
  const bool isPrivate = config.folder.empty();
  if (isPrivate && !own.dir.empty()) {  // the loader read the first one already
    announce(own.dir);
    return own.dir.string();
  }
  fs::path folder = isPrivate ? makePrivateFolder() : fs::path(config.folder);
  if (isPrivate) {
    own.dir = folder;
    own.owner = getpid();
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
  // A folder the user named may be read by other processes: files are replaced atomically, and
  // only when their content changes; stale ones are removed.
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".icd" && !want.count(entry.path().filename().string()))
      fs::remove(entry.path(), ec);
  std::vector<std::string> written;
  for (const auto& [name, lib] : want) {
    written.push_back((folder / name).string());
    if (readFirstLine(folder / name) == lib) continue;
    fs::path tmp = folder / (name + ".tmp" + std::to_string(getpid()));
    std::ofstream(tmp) << lib << "\n";
    fs::rename(tmp, folder / name, ec);
  }
  if (isPrivate) removeOnSignal(written, folder.string());
  announce(folder);
  return folder.string();
}

namespace {
constexpr EnumWord<DeviceKind> kDeviceKindWords[] = {
    {DeviceKind::cpu, "cpu"},
    {DeviceKind::gpu, "gpu"},
    {DeviceKind::accelerator, "accelerator"},
    {DeviceKind::simulator, "simulator"},
    {DeviceKind::other, "other"},
};
}  // namespace

const char* toString(DeviceKind kind) {
  return wordOf(kDeviceKindWords, kind, "other");
}

std::string DeviceInfo::displayName() const {
  return platform + ": " + name;
}

std::string DeviceInfo::icdLibrary() const {
  // An ICD driver's platform object starts with a pointer to its dispatch table (the ICD
  // loader's contract), which lies in the driver's library.
  const cl_platform_id id = platform_handle();
  if (!id) return {};
  const void* table = *reinterpret_cast<void* const*>(id);
  Dl_info info{};
  if (!table || !dladdr(table, &info) || !info.dli_fname || !*info.dli_fname) return {};
  std::error_code ec;
  const fs::path lib = fs::canonical(info.dli_fname, ec);
  return ec ? std::string() : lib.string();
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

std::string DeviceInfo::identity() const {
  return displayName() + " [driver " + driver_version + ", " + std::to_string(ordinal + 1) +
         " of " + std::to_string(same_count) + "]";
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
      info.platform = platforms[p].getInfo<CL_PLATFORM_NAME>();
      info.platform_handle = platforms[p];
      info.device = dev;
      info.name = dev.getInfo<CL_DEVICE_NAME>();
      info.vendor = dev.getInfo<CL_DEVICE_VENDOR>();
      info.version = dev.getInfo<CL_DEVICE_VERSION>();
      info.driver_version = dev.getInfo<CL_DRIVER_VERSION>();
      info.c_version = dev.getInfo<CL_DEVICE_OPENCL_C_VERSION>();
      for (std::string* s :
           {&info.platform, &info.name, &info.version, &info.driver_version, &info.c_version})
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
  numberDevices(out);
  return out;
}

void numberDevices(std::vector<DeviceInfo>& all) {
  for (size_t i = 0; i < all.size(); ++i) {
    all[i].number = static_cast<int>(i) + 1;
    all[i].ordinal = 0;
    all[i].same_count = 0;
    for (size_t j = 0; j < all.size(); ++j) {
      const bool same = all[j].platform == all[i].platform && all[j].name == all[i].name &&
                        all[j].driver_version == all[i].driver_version;
      if (!same) continue;
      ++all[i].same_count;
      if (j < i) ++all[i].ordinal;
    }
  }
}

const DeviceInfo* findByIdentity(const std::vector<DeviceInfo>& all, const std::string& id) {
  for (const auto& d : all)
    if (d.identity() == id) return &d;
  return nullptr;
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The words `--device` knows; a vendor word is looked for in the platform name only.
std::optional<std::function<bool(const DeviceInfo&)>> wordSelector(const std::string& word) {
  auto platformHas = [](std::vector<std::string> names) {
    return std::function<bool(const DeviceInfo&)>([names](const DeviceInfo& d) {
      const std::string p = lower(d.platform);
      return std::any_of(names.begin(), names.end(),
                         [&](const std::string& n) { return p.find(n) != std::string::npos; });
    });
  };
  auto kindIs = [](DeviceKind k) {
    return std::function<bool(const DeviceInfo&)>([k](const DeviceInfo& d) { return d.kind == k; });
  };
  const std::string w = lower(word);
  if (w == "pocl") return platformHas({"portable computing language", "pocl"});
  if (w == "oclgrind") return platformHas({"oclgrind"});
  if (w == "intel") return platformHas({"intel"});
  if (w == "nvidia") return platformHas({"nvidia"});
  if (w == "amd") return platformHas({"amd", "advanced micro devices"});
  if (w == "cpu") return kindIs(DeviceKind::cpu);
  if (w == "gpu") return kindIs(DeviceKind::gpu);
  if (w == "accelerator") return kindIs(DeviceKind::accelerator);
  if (w == "sim" || w == "simulator") return kindIs(DeviceKind::simulator);
  return std::nullopt;
}

}  // namespace

std::vector<DeviceInfo> selectDevices(const std::vector<DeviceInfo>& all, const std::string& what) {
  if (what.empty()) return all;
  std::vector<DeviceInfo> out;
  auto keep = [&](const std::function<bool(const DeviceInfo&)>& pick) {
    for (const auto& d : all)
      if (pick(d)) out.push_back(d);
    return out;
  };
  if (const DeviceInfo* d = findByIdentity(all, what)) return {*d};
  if (std::all_of(what.begin(), what.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const long n = what.size() > 6 ? -1 : std::stol(what);
    return keep([n](const DeviceInfo& d) { return d.number == n; });
  }
  if (auto pick = wordSelector(what)) return keep(*pick);
  const std::string needle = lower(what);
  keep([&](const DeviceInfo& d) {
    return lower(d.displayName()).find(needle) != std::string::npos;
  });
  if (!out.empty()) return out;
  const std::regex re(what, std::regex::ECMAScript | std::regex::icase);
  return keep([&](const DeviceInfo& d) { return std::regex_search(d.displayName(), re); });
}

std::string deviceListing(const std::vector<DeviceInfo>& all) {
  if (all.empty()) return "  (none)\n";
  std::string out;
  for (const auto& d : all)
    out +=
        "  #" + std::to_string(d.number) + "  " + d.displayName() + " (" + toString(d.kind) + ")\n";
  return out;
}

}  // namespace clh
