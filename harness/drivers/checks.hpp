// Driver checks: host-side semantics of one OpenCL device (read modes, events, profiling, buffer
// flags and the error codes of illegal clCreateBuffer calls), each run to a value.
#pragma once

#include <string>
#include <vector>

#include "cl/devices.hpp"

namespace clh::drivers {

/// How a check ended.
enum class Verdict {
  conforms,  ///< the driver did what the specification requires
  deviates,  ///< it did something else: `got` and `required` say what
  observed,  ///< implementation-defined behaviour: `observed` holds the value seen
  skipped,   ///< the check does not apply to this device, or could not run: `detail` says why
};
const char* toString(Verdict verdict);
/// Parses "conforms", "deviates", "observed", "skipped"; throws std::invalid_argument otherwise.
Verdict verdictFromString(const std::string& word);

/// A check's identity: stable id (used in baselines), title, and the specification rule it
/// enforces or the behaviour it records.
struct CheckInfo {
  std::string id;
  std::string title;
  std::string rule;
};

/// The result of one check on one device.
struct CheckResult {
  std::string id;
  std::string title;
  std::string rule;
  Verdict verdict = Verdict::skipped;
  std::string got;  ///< deviates: what the driver did, e.g. "CL_SUCCESS (0)"
  std::string
      required;  ///< deviates: what the specification requires, e.g. "CL_INVALID_VALUE (-30)"
  std::string observed;  ///< observed: the value, e.g. "kernel results"
  std::string detail;    ///< for people (timings, sequences); never compared with a baseline
};

/// Options of a run (sizes chosen so that the simulator finishes in seconds).
struct DriverCheckOptions {
  unsigned elements = 4096;  ///< elements of the small kernel's buffers
  /// Work-items and loop iterations of the "long" kernel; 0: chosen from the device's kind.
  unsigned long_items = 0;
  unsigned long_iterations = 0;
};

/// Every check, in report order.
std::vector<CheckInfo> driverChecks();

/// Runs every check on one device, in driverChecks() order. Never throws for a driver's behaviour:
/// a check that cannot run is `skipped` with the reason. Each call makes its own context.
std::vector<CheckResult> runDriverChecks(const clh::DeviceInfo& device,
                                         const DriverCheckOptions& options = {});

}  // namespace clh::drivers
