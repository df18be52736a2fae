// `clharness __ctest`: the CTest script that registers one test per spec x device.
#include <iostream>

#include "core/shell.hpp"
#include "run/check.hpp"
#include "run/units.hpp"

namespace clh {

int runCtestScript(const ToolConfig& config, const std::vector<std::string>& paths,
                   const std::string& exe) {
  std::vector<Spec> specs;
  if (!loadSpecs(config, paths, specs)) return kExitUsage;
  auto devices = findDevices(config, "");
  auto q = [](const std::string& s) {
    std::string out = "[==[";
    out += s;
    return out + "]==]";
  };
  if (devices.empty()) {
    std::cout << "add_test(" << q("spec.no-device") << " " << q(exe) << " devices)\n";
    std::cout << "set_tests_properties(" << q("spec.no-device")
              << " PROPERTIES SKIP_RETURN_CODE 3 LABELS \"spec\")\n";
    return kExitOk;
  }
  for (const auto& spec : specs) {
    for (const auto& d : devices) {
      std::string name = "spec." + spec.name + "." + d.slug();
      const std::string regex = exactDeviceRegex(d.displayName());
      // The driver checks have tests of their own (tests/drivers).
      std::cout << "add_test(" << q(name) << " " << q(exe) << " check " << q(spec.file)
                << " --device " << q(regex) << " --no-driver-checks)\n";
      std::string labels = "spec;" + std::string(toString(d.kind));
      if (d.simulator)
        labels += ";simulator";
      else
        labels += ";device";
      std::cout << "set_tests_properties(" << q(name) << " PROPERTIES LABELS \"" << labels
                << "\" SKIP_RETURN_CODE 3 TIMEOUT 900)\n";
    }
  }
  return kExitOk;
}
}  // namespace clh
