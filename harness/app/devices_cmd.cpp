// `clharness devices`: the table (or JSON) of every device found, or a CTest resource spec file of
// them (`--ctest-resources TYPE`).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "app/app.hpp"

namespace clh {

namespace {

std::string sizesList(const std::vector<size_t>& v) {
  std::string s;
  for (size_t x : v) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}
int runDevices(const ToolConfig& config, const std::string& regex, bool json,
               const std::string& ctestType) {
  if (!ctestType.empty()) requireCtestResourceType("--ctest-resources", ctestType);
  auto devices = findDevices(config, regex);
  if (!ctestType.empty()) {
    if (!devices.empty()) std::cout << ctestResourceSpec(ctestType, devices);
  } else if (json) {
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

}  // namespace
}  // namespace clh

void addDevicesCommand(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  struct Args {
    std::string device;
    bool json = false;
    std::string ctest_type;
  };
  auto a = std::make_shared<Args>();
  auto* cmd =
      app.add_subcommand("devices", "list every OpenCL device found (drivers and simulators)");
  cmd->add_option("--device", a->device, clh::kDeviceOptionHelp);
  auto* json = cmd->add_flag("--json", a->json, "print JSON instead of a table");
  cmd->add_option("--ctest-resources", a->ctest_type,
                  "print a CTest resource spec file instead: one resource of type TYPE per "
                  "device selected, its id the device's row number (for `--device ctest:TYPE`, "
                  "docs/ci.md)")
      ->type_name("TYPE")
      ->excludes(json);
  cmd->callback([a, config] {
    clh::finishCommand(
        "devices", [&] { return clh::runDevices(config(), a->device, a->json, a->ctest_type); });
  });
}
