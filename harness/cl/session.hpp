// A device session: one context and profiling queue on one device, with a program cache keyed by
// (source, build options), and the runner of one case of a spec.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "cl/devices.hpp"
#include "cl/opencl.hpp"
#include "core/case.hpp"
#include "core/result.hpp"
#include "core/spec.hpp"

namespace clh {

class OclgrindSession;

/// A built program with its kernels created, or the finding that says why not.
struct BuildOutcome {
  std::optional<cl::Program> program;
  std::map<std::string, cl::Kernel> kernels;
  std::string log;                 ///< the device's build log (also on success: warnings)
  std::string options;             ///< the options actually used (a simulator retry adds some)
  std::optional<Finding> failure;  ///< build_error, or tool_error when the simulator failed
};

class DeviceSession {
 public:
  /// `simulator`: the Oclgrind session of this process, for a simulator device (its findings join
  /// each case's, and its failures are reported as the tool's). May be null.
  explicit DeviceSession(const DeviceInfo& device, OclgrindSession* simulator = nullptr);

  const DeviceInfo& device() const { return device_; }
  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }

  /// Builds `source_path` with `options` and creates `kernels`, once per (path, options) per
  /// session. On a simulator, a failure of the tool is retried once as sim/tool_failure.hpp says.
  const BuildOutcome& build(const std::string& source_path, const std::string& options,
                            const std::vector<std::string>& kernels);

  /// Runs one case: resolves the sizes, builds, fills and poisons buffers, runs every launch,
  /// reads back, runs the reference and compares. Findings are values; only a broken spec throws.
  CaseOutcome runCase(const Spec& spec, const Sizes& sizes, uint64_t seed);

 private:
  /// Drops the findings the spec suppresses on this device.
  void suppress(const Spec& spec, CaseOutcome& out) const;
  BuildOutcome buildOnce(const std::string& source, const std::string& options,
                         const std::vector<std::string>& kernels, std::string* failureText,
                         bool* kernelListed, int* error, std::string* function);

  DeviceInfo device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::map<std::string, std::string> sources_;
  std::map<std::pair<std::string, std::string>, BuildOutcome> programs_;
  OclgrindSession* sim_ = nullptr;
  std::map<std::string, std::unique_ptr<ExprEnv>> envs_;  // per spec name
};

}  // namespace clh
