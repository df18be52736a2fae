// Reading the log the clharness Oclgrind plugin writes (harness/oclgrind, a JSON object a line)
// into one finding per distinct problem, with its kind, address space, work-items and source lines.
// The format is described in docs/races.md.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"

namespace clh {

/// How log lines become findings.
struct OclgrindParseOptions {
  /// Oclgrind calls every program built from source "input.cl"; when set, this name replaces it in
  /// SourceLine::file (the runner knows which .cl file it built).
  std::string source_file;
  /// Copied into Finding::device.
  std::string device;
  /// One finding per distinct problem (same kind, kernel, address space, report wording and set of
  /// source lines) instead of one per report: a missing barrier in a 16x16 matmul yields thousands
  /// of reports but two problems. The number of reports merged is appended to the summary.
  bool merge = true;
  /// Work-items kept per merged finding (the first ones reported).
  size_t max_work_items = 4;
};

/// Which of Oclgrind's checks were on, as the plugin saw its environment.
struct OclgrindChecks {
  bool data_races = false;
  bool uninitialized = false;
  bool check_api = false;
  bool uniform_writes = false;
  bool quick = false;  ///< OCLGRIND_QUICK: only the first and last work-groups run
};

/// One kernel launch seen by the plugin, with the findings reported while it ran.
struct OclgrindLaunch {
  long id = 0;       ///< numbered from 1 in the process that ran it
  long context = 0;  ///< the Oclgrind context (one per cl_context), numbered from 1
  long pid = 0;
  std::string kernel;
  int work_dim = 0;
  std::array<uint64_t, 3> global_size{};
  std::array<uint64_t, 3> local_size{};
  std::array<uint64_t, 3> global_offset{};
  /// False when the log stops inside the launch: the process died there, or it is still running.
  bool ended = false;
  /// The checks Oclgrind ran during the launch; nullopt when its kernel_begin is not in the stretch
  /// of log read.
  std::optional<OclgrindChecks> checks;
  std::vector<Finding> findings;
  /// The kernel calls image builtins, whose pixels Oclgrind does not follow: the plugin left out
  /// this many uninitialized reports that stem only from images the host wrote whole (-1: the
  /// kernel uses no images, or the log does not say).
  long image_reports_left_out = -1;

  /// Work-groups of a single work-item (what Oclgrind uses for a NULL local size): no race between
  /// the work-items of a group can show, so "no race" from such a launch proves nothing.
  bool singleItemGroups() const { return local_size[0] * local_size[1] * local_size[2] == 1; }
};

/// Everything one stretch of the log says.
struct OclgrindLog {
  std::vector<OclgrindLaunch> launches;  ///< in the order they began
  /// Findings reported outside any launch: API errors from the context callback, for instance.
  std::vector<Finding> outside_launches;
  int plugin_loads = 0;  ///< one per Oclgrind context the plugin was loaded into
  /// As the latest plugin_loaded or kernel_begin event reported them (OclgrindSession remembers
  /// them across drains).
  std::optional<OclgrindChecks> checks;
  std::vector<std::string> malformed;  ///< lines that are not records of a known format version

  /// Every finding, launch by launch and then those outside launches; a tool_error is added when
  /// some lines could not be read (a damaged log is the tool's failure, never the kernel's).
  std::vector<Finding> allFindings() const;
};

/// What a launch that used images could not look at, for a unit's or a scan's notes: which pixels
/// were written (and how many of Oclgrind's reports were left out for it); empty for a launch
/// without images.
std::string imagePixelsNote(const OclgrindLaunch& launch);

/// Parses a stretch of the plugin's log (whole lines).
OclgrindLog parseOclgrindLogDetailed(std::istream& in, const OclgrindParseOptions& options = {});

/// The findings of a stretch of the plugin's log: parseOclgrindLogDetailed(...).allFindings().
std::vector<Finding> parseOclgrindLog(std::istream& in, const OclgrindParseOptions& options = {});

/// One row of the table from Oclgrind's messages to finding kinds (docs/races.md): the first
/// line of a message, lower-cased, that starts with (`at_start`) or contains `text` is `kind`.
struct OclgrindMessageRule {
  const char* text;
  bool at_start;
  FindingKind kind;
};

/// The table, in the order it is tried (first match wins); a message no row matches is `other`.
const std::vector<OclgrindMessageRule>& oclgrindMessageRules();

/// Classifies one Oclgrind message by its text alone, through oclgrindMessageRules().
FindingKind classifyOclgrindMessage(const std::string& text);

/// An Oclgrind work-item triple [x, y, z] written "(x,y,z)"; "(?)" for anything else.
std::string oclgrindTriple(const nlohmann::json& value);

}  // namespace clh
