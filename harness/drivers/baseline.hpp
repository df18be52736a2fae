// Driver baselines for regression testing: what a driver is known to answer where the
// specification forbids or leaves open, keyed by what decides that behaviour (platform, device
// type, driver version, and a device model only where one needs its own).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cl/devices.hpp"
#include "drivers/checks.hpp"
#include "launch/known.hpp"

namespace clh::drivers {

/// Which devices a baseline applies to. Platform and device type must match; the driver version
/// is preferred equal, then of the same major version, then any (with a note saying so); a
/// `device` (a CL_DEVICE_NAME) makes the baseline a model override that wins for that model only.
struct BaselineMatch {
  std::string platform;        ///< CL_PLATFORM_NAME
  std::string device_type;     ///< toString(DeviceKind): cpu, gpu, accelerator, simulator, other
  std::string driver_version;  ///< CL_DRIVER_VERSION where it was recorded
  std::string device;          ///< a model override: this CL_DEVICE_NAME only; empty: any model
};

/// One baseline file: the driver checks' rows and the launch families' known deviations.
struct Baseline {
  std::string file;  ///< where it was read from (empty for one being recorded)
  BaselineMatch match;
  std::string recorded_on;  ///< the device's display name where it was recorded, for people
  std::vector<drivers::CheckResult> checks;
  std::vector<launch::KnownDeviation> launch;
};

/// The match of a device as a recorder writes it (no model override unless `per_model`).
BaselineMatch matchFor(const DeviceInfo& device, bool per_model = false);

/// The file name a recorder gives a baseline: "<platform word>-<type>[-<model>].json", e.g.
/// "nvidia-gpu.json", "portable-cpu.json", "oclgrind-simulator.json".
std::string baselineFileName(const BaselineMatch& match);

/// The baseline in `dir` (every *.json there) that applies to `device`, or nullopt. `note` gets
/// for people which file was chosen and why, or why none applies. Throws std::runtime_error for
/// a file that cannot be read or parsed (naming it).
std::optional<Baseline> findBaseline(const std::string& dir, const DeviceInfo& device,
                                     std::string* note = nullptr);

Baseline loadBaseline(const std::string& file);
nlohmann::json toJson(const Baseline& baseline);
Baseline baselineFromJson(const nlohmann::json& json);

/// The file a recorder writes `device`'s baseline to in `dir`, and what is to go in it: the file's
/// content where there is one (the part another command recorded is kept), else a new baseline;
/// its match and recorded_on set for this device.
std::pair<std::string, Baseline> baselineToUpdate(const std::string& dir, const DeviceInfo& device);

/// The launch part as the launch family's matcher reads it.
launch::KnownDeviations knownDeviations(const Baseline& baseline, const DeviceInfo& device);

}  // namespace clh::drivers
