// The tool's configuration and device lookups (cl/tool.hpp).
#include "cl/tool.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace clh {

namespace {
void registerOnce(const ToolConfig& config) {
  static bool registered = false;
  if (!registered) {
    registerIcds(config.icd);
    registered = true;
  }
}
}  // namespace

std::vector<DeviceInfo> findDevices(const ToolConfig& config, const std::string& what) {
  // `ctest:TYPE`: the row ctest allocated, read before any driver is loaded.
  const bool fromCtest = what.rfind(kCtestDevicePrefix, 0) == 0;
  // Text too long for a name or pattern is refused before any folder is made or driver loaded.
  if (!fromCtest && what.size() > kMaxDevicePatternLength) checkDevicePattern(what);
  const int ctestRow = fromCtest
                           ? ctestAllocatedRow(what.substr(std::string(kCtestDevicePrefix).size()),
                                               config.ctest_resources)
                           : 0;
  // The ICD loader cuts OCL_ICD_FILENAMES short in place while it loads the drivers it names, so
  // a child process would inherit a list without some of them (NVIDIA's, on the GPU machine):
  // the whole list is put back once the loader has read it.
  const char* named = std::getenv("OCL_ICD_FILENAMES");
  const std::optional<std::string> whole = named ? std::optional<std::string>(named) : std::nullopt;
  registerOnce(config);
  const auto all = enumerateDevices();
  if (whole) setenv("OCL_ICD_FILENAMES", whole->c_str(), 1);
  auto devices = selectDevices(all, fromCtest ? std::to_string(ctestRow) : what);
  if (devices.empty() && fromCtest)
    std::cerr << "clharness: --device '" << what << "': ctest allocated the resource with id "
              << ctestRow << ", and no device has that row of `clharness devices` here (write "
              << "the resource spec file again: `clharness devices --device WHAT "
              << "--ctest-resources " << what.substr(std::string(kCtestDevicePrefix).size())
              << "`); it selects none of the devices found here:\n"
              << deviceListing(all);
  else if (devices.empty() && !what.empty() && !findByIdentity(all, what))
    std::cerr << "clharness: --device '" << what << "' selects none of the devices found here:\n"
              << deviceListing(all);
  return devices;
}

DeviceInfo findDeviceAgain(const ToolConfig& config, const std::string& identity) {
  registerOnce(config);
  const auto devices = enumerateDevices();
  if (const DeviceInfo* found = findByIdentity(devices, identity)) return *found;
  std::string seen;
  for (const auto& d : devices) seen += (seen.empty() ? "" : "; ") + d.identity();
  throw std::runtime_error("device '" + identity +
                           "' is not among the devices this process found (" +
                           (seen.empty() ? "none" : seen) + ")");
}

std::string driverName(const DeviceInfo& dev) {
  return fmt::format("{} (driver {})", dev.displayName(), dev.driver_version);
}

bool parseSeed(const std::string& text, uint64_t& out) {
  // Digits only (0x for hexadecimal): std::stoull would read "-1" as 18446744073709551615 and
  // skip leading spaces or a '+'.
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  try {
    size_t used = 0;
    out = std::stoull(text, &used, 0);
    return used == text.size();
  } catch (const std::exception&) {
    return false;
  }
}

std::unique_ptr<OclgrindSession> simulatorSession(const DeviceInfo& dev, const std::string& logPath,
                                                  bool one_work_item) {
  if (!dev.simulator) return nullptr;
  std::string plugin = findOclgrindPlugin();
  if (plugin.empty()) {
    std::string looked;
    for (const auto& c : oclgrindPluginCandidates()) looked += (looked.empty() ? "" : ", ") + c;
    throw std::runtime_error("the simulator's diagnostics plugin was not found (looked in " +
                             looked + "): race and memory checks cannot run");
  }
  auto session = std::make_unique<OclgrindSession>(plugin, logPath);
  // Oclgrind's race detector costs a third of such a case and cannot find anything there.
  if (one_work_item) session->leaveOff(OclgrindCheck::data_races, kOneWorkItemNote);
  session->applyToProcess();
  return session;
}

}  // namespace clh
