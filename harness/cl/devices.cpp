// Device discovery: the private ICD folder and the device table.
#include "cl/devices.hpp"

#include <fmt/format.h>
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
#include "core/run_folders.hpp"

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
  /// The process that registered the drivers (a top-level run, with a private folder or one the
  /// user named; not a child that reuses its parent's): the one whose registered paths (its
  /// private folder, its drivers' folders) go at its exit.
  pid_t registrar = 0;
};

PrivateFolder& privateFolder();

void removeAtExit() {
  const PrivateFolder& f = privateFolder();
  if (getpid() == f.registrar) removeRegisteredPaths();
}

PrivateFolder& privateFolder() {
  static PrivateFolder* folder = [] {
    auto* f = new PrivateFolder;
    std::atexit(removeAtExit);
    return f;
  }();
  return *folder;
}

// $TMPDIR when it is a folder, else /tmp.
fs::path tempBase() {
  const char* tmp = std::getenv("TMPDIR");
  std::error_code ec;
  return tmp && *tmp && fs::is_directory(tmp, ec) ? fs::path(tmp) : fs::path("/tmp");
}

// The folder is named by its process (clharness-icd-PID-XXXXXX), held by a lock while it lives:
// a later run removes it once that process is gone (removeStaleRunFolders).
fs::path makePrivateFolder() {
  const fs::path base = tempBase();
  std::string pattern = (base / ("clharness-icd-" + std::to_string(getpid()) + "-XXXXXX")).string();
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

namespace {

// The list, in a folder the user named (CLHARNESS_ICD_DIR), of the .icd files the tool wrote
// there: only those are ever rewritten or removed; every other file is the user's.
constexpr const char* kOwnedList = ".clharness-icd-files";

std::set<std::string> ownedFiles(const fs::path& folder) {
  std::set<std::string> owned;
  std::ifstream in(folder / kOwnedList);
  for (std::string name; std::getline(in, name);)
    if (!name.empty() && name.find('/') == std::string::npos) owned.insert(name);
  return owned;
}

// The files the folder must hold (file name -> library): what the system (or the user's own
// OCL_ICD_VENDORS) lists, then the drivers that are installed but not listed; none that a file of
// the user's in the folder already names or whose name it has.
std::map<std::string, std::string> wantedFiles(const IcdConfig& config, const fs::path& folder,
                                               const std::set<std::string>& owned) {
  std::error_code ec;
  std::map<std::string, std::string> want;  // file name -> library
  std::set<std::string> known;              // base names of registered libraries
  std::set<std::string> users;              // the user's own .icd files in the folder
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".icd" && !owned.count(entry.path().filename().string())) {
      users.insert(entry.path().filename().string());
      known.insert(baseName(readFirstLine(entry.path())));
    }
  const std::set<std::string> usersLibs = known;
  if (fs::is_directory(config.system_vendors, ec)) {
    for (const auto& entry : fs::directory_iterator(config.system_vendors, ec)) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() != ".icd" || users.count(name)) continue;
      std::string lib = readFirstLine(entry.path());
      if (lib.empty() || usersLibs.count(baseName(lib))) continue;
      want[name] = lib;
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
  return want;
}

void writeAtomically(const fs::path& file, const std::string& text) {
  std::error_code ec;
  fs::path tmp = file;
  tmp += ".tmp" + std::to_string(getpid());
  std::ofstream(tmp) << text;
  fs::rename(tmp, file, ec);
}

}  // namespace

std::string makeDriverAloneFolder(const std::string& library) {
  const PrivateFolder& own = privateFolder();
  if (own.registrar != getpid() || library.empty()) return {};
  try {
    const fs::path folder = makePrivateFolder();
    holdRunFolder(folder.string());
    const fs::path file = folder / "driver.icd";
    removeOnSignal({file.string()}, folder.string());  // and at exit (removeAtExit)
    std::ofstream out(file);
    out << library << "\n";
    out.close();
    // Written before any child starts, read-only from then on: the children only read it, and
    // none can change what the next one loads by accident.
    std::error_code ec;
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read,
                    ec);
    return out && !ec ? folder.string() : std::string();
  } catch (const std::exception&) {
    return {};
  }
}

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
  removeStaleRunFolders(tempBase().string());  // of runs killed (SIGKILL) before they could
  own.registrar = getpid();
  fs::path folder = isPrivate ? makePrivateFolder() : fs::path(config.folder);
  if (isPrivate) {
    own.dir = folder;
    holdRunFolder(folder.string());
  }
  fs::create_directories(folder, ec);
  const std::set<std::string> owned = isPrivate ? std::set<std::string>() : ownedFiles(folder);
  const std::map<std::string, std::string> want = wantedFiles(config, folder, owned);
  // A folder the user named may be read by other processes: files are replaced atomically, and
  // only when their content changes; stale ones are removed, if the tool wrote them.
  for (const auto& name : owned)
    if (!want.count(name)) fs::remove(folder / name, ec);
  std::vector<std::string> written;
  std::string list;
  for (const auto& [name, lib] : want) {
    written.push_back((folder / name).string());
    list += name + "\n";
    if (readFirstLine(folder / name) != lib) writeAtomically(folder / name, lib + "\n");
  }
  if (isPrivate)
    removeOnSignal(written, folder.string());
  else if (!want.empty() || !owned.empty())  // a folder the tool writes nothing into stays so
    writeAtomically(folder / kOwnedList, list);
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

// The length of the character class that starts at what[i] ('['), up to its ']'.
size_t classLength(const std::string& what, size_t i) {
  size_t j = i + 1;
  if (j < what.size() && what[j] == '^') ++j;
  if (j < what.size() && what[j] == ']') ++j;  // a ']' first is a member
  for (; j < what.size() && what[j] != ']'; ++j)
    if (what[j] == '\\') ++j;
  return std::min(j, what.size() - 1) - i + 1;
}

// Why WHAT's groups make a dangerous pattern, or "" (checkDevicePattern's walk over the text).
std::string groupProblem(const std::string& what) {
  std::vector<bool> open;        // per open group: it holds a repetition or an alternative
  bool afterRiskyGroup = false;  // the atom just read is such a group
  for (size_t i = 0; i < what.size(); ++i) {
    const char c = what[i];
    const bool riskyBefore = afterRiskyGroup;
    afterRiskyGroup = false;
    if (c == '\\') {
      ++i;
    } else if (c == '[') {
      i += classLength(what, i) - 1;
    } else if (c == '(') {
      open.push_back(false);
      if (static_cast<int>(open.size()) > kMaxDevicePatternDepth)
        return fmt::format("nests groups deeper than {}", kMaxDevicePatternDepth);
      if (i + 1 < what.size() && what[i + 1] == '?') i += 2;  // (?: (?= (?!
    } else if (c == ')' && !open.empty()) {
      afterRiskyGroup = open.back();
      open.pop_back();
      if (afterRiskyGroup && !open.empty()) open.back() = true;
    } else if (c == '|') {
      if (!open.empty()) open.back() = true;
    } else if (c == '*' || c == '+' || c == '{') {
      if (riskyBefore)
        return "repeats a group that holds a repetition or an alternative ('(a+)*', '(a|b)+'), "
               "which can take exponential time";
      if (!open.empty()) open.back() = true;
      if (c == '{') i = std::min(what.find('}', i), what.size() - 1);
      if (i + 1 < what.size() && what[i + 1] == '?') ++i;  // a lazy quantifier
    }
  }
  return "";
}

}  // namespace

void checkDevicePattern(const std::string& what) {
  std::string why;
  if (what.size() > kMaxDevicePatternLength)
    why = fmt::format("is {} characters long, more than the {} a device name or pattern may have",
                      what.size(), kMaxDevicePatternLength);
  else
    why = groupProblem(what);
  if (!why.empty())
    throw std::invalid_argument("--device: the text given " + why +
                                "; give a part of a device's name (`clharness devices` lists "
                                "them), a number or a simple regular expression");
}

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
  checkDevicePattern(what);
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
