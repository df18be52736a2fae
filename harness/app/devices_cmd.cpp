// `clharness devices`: the table of every device found, and device lookup for the other commands.
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "app/app.hpp"

namespace clh {

namespace {
void registerOnce(const AppConfig& config) {
  static bool registered = false;
  if (!registered) {
    registerIcds(config.icd);
    registered = true;
  }
}
}  // namespace

std::vector<DeviceInfo> findDevices(const AppConfig& config, const std::string& what) {
  // The ICD loader cuts OCL_ICD_FILENAMES short in place while it loads the drivers it names, so
  // a child process would inherit a list without some of them (NVIDIA's, on the GPU machine):
  // the whole list is put back once the loader has read it.
  const char* named = std::getenv("OCL_ICD_FILENAMES");
  const std::optional<std::string> whole = named ? std::optional<std::string>(named) : std::nullopt;
  registerOnce(config);
  const auto all = enumerateDevices();
  if (whole) setenv("OCL_ICD_FILENAMES", whole->c_str(), 1);
  auto devices = selectDevices(all, what);
  if (devices.empty() && !what.empty() && !findByIdentity(all, what))
    std::cerr << "clharness: --device '" << what << "' selects none of the devices found here:\n"
              << deviceListing(all);
  return devices;
}

DeviceInfo findDeviceAgain(const AppConfig& config, const std::string& identity) {
  registerOnce(config);
  const auto devices = enumerateDevices();
  if (const DeviceInfo* found = findByIdentity(devices, identity)) return *found;
  std::string seen;
  for (const auto& d : devices) seen += (seen.empty() ? "" : "; ") + d.identity();
  throw std::runtime_error("device '" + identity +
                           "' is not among the devices this process found (" +
                           (seen.empty() ? "none" : seen) + ")");
}

namespace {
std::string sizesList(const std::vector<size_t>& v) {
  std::string s;
  for (size_t x : v) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}
}  // namespace

int runDevices(const AppConfig& config, const std::string& regex, bool json) {
  auto devices = findDevices(config, regex);
  if (json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& d : devices)
      j.push_back({{"number", d.number},
                   {"platform", d.platform},
                   {"device", d.name},
                   {"version", d.version},
                   {"driver_version", d.driver_version},
                   {"kind", toString(d.kind)},
                   {"simulator", d.simulator},
                   {"max_work_group_size", d.max_work_group_size},
                   {"max_work_item_sizes", d.max_work_item_sizes},
                   {"local_mem_size", d.local_mem_size},
                   {"non_uniform_work_groups", d.non_uniform_work_groups}});
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{:>2} {:<30} {:<40} {:<11} {:<4} {:>6} {:<16} {:>9} {:<11}\n", "#",
                             "PLATFORM", "DEVICE", "OPENCL", "SIM", "MAX WG", "MAX ITEMS",
                             "LOCAL KiB", "NON-UNIFORM");
    for (const auto& d : devices) {
      std::string ver = d.version.substr(0, d.version.find(' ', 7));
      std::cout << fmt::format("{:>2} {:<30} {:<40} {:<11} {:<4} {:>6} {:<16} {:>9} {:<11}\n",
                               d.number, d.platform.substr(0, 30), d.name.substr(0, 40), ver,
                               d.simulator ? "yes" : "no", d.max_work_group_size,
                               sizesList(d.max_work_item_sizes), d.local_mem_size / 1024,
                               d.non_uniform_work_groups ? "yes" : "no");
    }
  }
  if (devices.empty()) {
    if (regex.empty())  // otherwise findDevices listed what --device could select
      std::cerr << "clharness: no OpenCL device found (is an ICD installed? "
                   "ci/install-deps.sh installs PoCL and Oclgrind)\n";
    return kExitNoDevice;
  }
  return kExitOk;
}

}  // namespace clh
