// `clharness grade` as library calls: every submission of an assignment on every device, each in
// a sandboxed child process (job `__grade-one`), then the grade reports.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "grade/device_job.hpp"
#include "proc/job.hpp"

namespace clh::grade {

/// The options of `clharness grade` (docs/grading.md).
struct GradeArgs {
  std::string assignment;
  std::vector<std::string> paths;
  std::string out;
  int jobs = 0;
  double timeout_s = 10;         ///< a case's least time limit (it is scaled by the reference's)
  double build_timeout_s = 120;  ///< a program build's least time limit
  std::string device_regex;
  std::string format = "markdown";
  std::string seed = "1";
  int cases = 0;
  std::optional<std::string> sizes;
  int memory_mb = 2048;
  bool regrade = false;
  bool allow_unassessed = false;
  std::string shard;  ///< "K/N": grade part K of N of the submissions (by id); empty: the env's
  std::string html;   ///< the class overview and every submission as one HTML page (grade/html.hpp)
  std::string sandbox = "auto";  ///< required, auto or off (grade/sandbox.hpp)
  /// No sanitized run on the real devices: the "clean" item on the simulator alone.
  bool no_sanitize = false;
};

/// Grades every submission under `paths` on every selected device, each in a sandboxed child
/// process; writes the grades and reports under `out` and returns an ExitCode.
int runGrade(const clh::ToolConfig& config, const GradeArgs& args);

/// The child side of job `__grade-one`: one submission on one device, in the sandbox runChild
/// made (limits, environment, folder); its events through `channel`.
int runGradeChild(const clh::ToolConfig& config, const DeviceJob& job, clh::JobChannel& channel);

}  // namespace clh::grade
