// `clharness __ctest`: the CTest script that registers the spec tests (run/ctest_script.hpp).
#include "run/ctest_script.hpp"

#include <iostream>
#include <set>
#include <stdexcept>

#include "core/shell.hpp"
#include "run/units.hpp"

namespace clh {

namespace {

std::string q(const std::string& s) {
  return "[==[" + s + "]==]";
}

std::string labelsOf(const std::string& kind, bool simulator) {
  return "spec;" + kind + (simulator ? ";simulator" : ";device");
}

const CtestPool* poolOf(const std::vector<CtestPool>& pools, const DeviceInfo& d) {
  for (const auto& p : pools)
    if (p.kind == toString(d.kind)) return &p;
  return nullptr;
}

}  // namespace

CtestPool parseCtestPool(const std::string& text) {
  const auto eq = text.find('=');
  const std::string kind = text.substr(0, eq);
  if (eq == std::string::npos ||
      (kind != "cpu" && kind != "gpu" && kind != "accelerator" && kind != "simulator"))
    throw std::invalid_argument("--pool '" + text +
                                "': expected KIND=TYPE, KIND one of cpu, gpu, accelerator, "
                                "simulator and TYPE a CTest resource type (e.g. gpu=gpus)");
  CtestPool pool{kind, text.substr(eq + 1)};
  requireCtestResourceType("--pool " + text, pool.type);
  return pool;
}

std::string ctestRegistrations(const std::vector<Spec>& specs,
                               const std::vector<DeviceInfo>& devices, const std::string& exe,
                               const std::vector<CtestPool>& pools) {
  std::set<std::string> kinds, types;
  for (const auto& p : pools)
    if (!kinds.insert(p.kind).second || !types.insert(p.type).second)
      throw std::invalid_argument("--pool " + p.kind + "=" + p.type +
                                  ": another --pool names the same kind or type");
  std::string out;
  if (devices.empty()) {
    out += "add_test(" + q("spec.no-device") + " " + q(exe) + " devices)\n";
    out += "set_tests_properties(" + q("spec.no-device") +
           " PROPERTIES SKIP_RETURN_CODE 3 LABELS \"spec\")\n";
    return out;
  }
  for (const auto& spec : specs) {
    std::set<std::string> pooled;  // the pools this spec has its test in
    for (const auto& d : devices) {
      std::string name, device, extra;
      if (const CtestPool* pool = poolOf(pools, d)) {
        if (!pooled.insert(pool->type).second) continue;
        name = "spec." + spec.name + "." + pool->type;
        device = kCtestDevicePrefix + pool->type;
        extra = " RESOURCE_GROUPS \"" + pool->type + ":1\"";
      } else {
        // Identical devices (two GPUs of one model) are told apart by their place.
        const bool twin = d.same_count > 1;
        name = "spec." + spec.name + "." + d.slug() +
               (twin ? "-" + std::to_string(d.ordinal + 1) : "");
        device = twin ? d.identity() : exactDeviceRegex(d.displayName());
        // Two tests never share a GPU (each would time and size itself for the whole device).
        if (d.kind == DeviceKind::gpu) extra = " RESOURCE_LOCK gpu";
      }
      // The driver checks have tests of their own (tests/drivers).
      out += "add_test(" + q(name) + " " + q(exe) + " check " + q(spec.file) + " --device " +
             q(device) + " --no-driver-checks)\n";
      out += "set_tests_properties(" + q(name) + " PROPERTIES LABELS \"" +
             labelsOf(toString(d.kind), d.simulator) + "\" SKIP_RETURN_CODE 3 TIMEOUT 900" + extra +
             ")\n";
    }
  }
  return out;
}

int runCtestScript(const ToolConfig& config, const std::vector<std::string>& paths,
                   const std::string& exe, const std::vector<CtestPool>& pools) {
  std::vector<Spec> specs;
  if (!loadSpecs(config, paths, specs)) return kExitUsage;
  std::cout << ctestRegistrations(specs, findDevices(config, ""), exe, pools);
  return kExitOk;
}

}  // namespace clh
