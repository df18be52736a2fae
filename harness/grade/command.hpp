// `clharness grade` as library calls: every submission of an assignment on every device, each in
// a sandboxed child process (`__grade-child`), then the grade reports.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cl/tool.hpp"

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
};

/// The sandboxed child that runs one submission on one device (`__grade-one`).
struct ChildArgs {
  std::string spec, submission, device_id, seed = "1", out, log;
  int cases = 0, speed_repeats = 0, memory_mb = 0;
  double cpu_seconds = 0;
  std::optional<std::string> sizes, speed_sizes;
  std::optional<std::string> reference_first;  ///< time the reference solution at these sizes
  std::optional<std::string> trace;  ///< a SimulatorTrace request as JSON (simulator only)
  long parent_pid = 0;
};

/// Grades every submission under `paths` on every selected device, each in a sandboxed child
/// process; writes the grades and reports under `out` and returns an ExitCode.
int runGrade(const clh::ToolConfig& config, const GradeArgs& args);

// The child: one submission on one device. Its output goes to a log (the simulator prints every
// diagnostic); it dies with its parent, and limits itself before the first OpenCL call.
/// The child side: runs the submission's cases in this (sandboxed) process.
int runGradeChild(const clh::ToolConfig& config, const ChildArgs& a);

}  // namespace clh::grade
