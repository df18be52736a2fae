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

/// A built program, or why it did not build.
struct BuildOutcome {
  std::optional<cl::Program> program;
  std::string log;       ///< the device's build log (also on success: warnings)
  std::string options;   ///< the options actually used
  int error = 0;         ///< the OpenCL error of the failed step (0 on success)
};

class DeviceSession {
 public:
  explicit DeviceSession(const DeviceInfo& device);

  const DeviceInfo& device() const { return device_; }
  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }

  /// Builds `source_path` with `options`, once per (path, options) per session.
  const BuildOutcome& build(const std::string& source_path, const std::string& options);
  /// A kernel of a built program, created once per (program, name).
  cl::Kernel kernel(const BuildOutcome& built, const std::string& name);

  /// Runs one case: resolves the sizes, builds, fills and poisons buffers, runs every launch,
  /// reads back, runs the reference and compares. Findings are values; only a broken spec throws.
  CaseOutcome runCase(const Spec& spec, const Sizes& sizes, uint64_t seed);

 private:
  DeviceInfo device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::map<std::string, std::string> sources_;
  std::map<std::pair<std::string, std::string>, BuildOutcome> programs_;
  std::map<std::pair<const void*, std::string>, cl::Kernel> kernels_;
  std::map<std::string, std::unique_ptr<ExprEnv>> envs_;  // per spec name
};

}  // namespace clh
