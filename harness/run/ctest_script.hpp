// `clharness __ctest`: the CTest registrations of spec x device, one test per device or, for a
// kind of device pooled by ctest's resource allocation, one test per spec (docs/framework.md).
#pragma once

#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "core/spec.hpp"

namespace clh {

/// `--pool KIND=TYPE`: the devices of KIND (cpu, gpu, accelerator, simulator) get one test per
/// spec, run on the device ctest allocates from its resources of type TYPE.
struct CtestPool {
  std::string kind;
  std::string type;
};

/// Reads `KIND=TYPE`; throws std::invalid_argument (a usage error) naming what is wrong.
CtestPool parseCtestPool(const std::string& text);

/// The CTest lines (add_test, set_tests_properties) for `specs` on `devices`, run by `exe`:
///  - a device of no pool: a test spec.SPEC.DEVICE (DEVICE its slug, and "-K" for the K-th of
///    identical devices) running `EXE check SPEC --device X --no-driver-checks`, X its exact
///    name (its identity when it has an identical twin); a GPU's test holds RESOURCE_LOCK gpu;
///  - the devices of a pool's kind, when there is one: a test spec.SPEC.TYPE running
///    `EXE check SPEC --device ctest:TYPE --no-driver-checks` with RESOURCE_GROUPS "TYPE:1";
///  - no device: one test spec.no-device, skipped.
/// Labels: spec, the device's kind, and simulator or device. Throws std::invalid_argument when
/// two pools name one kind or one type.
std::string ctestRegistrations(const std::vector<Spec>& specs,
                               const std::vector<DeviceInfo>& devices, const std::string& exe,
                               const std::vector<CtestPool>& pools);

/// Loads the specs of `paths`, finds the devices and prints ctestRegistrations; returns an
/// ExitCode.
int runCtestScript(const ToolConfig& config, const std::vector<std::string>& paths,
                   const std::string& exe, const std::vector<CtestPool>& pools);

}  // namespace clh
