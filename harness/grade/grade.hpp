// Grading as values: what one submission did on each device (DeviceRun), and the grade a rubric
// gives it (Grade: per item pass or fail, points, the findings behind the verdict). gradeSubmission
// is a pure function of these values; the JSON forms are the per-submission files of
// docs/grading.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "grade/rubric.hpp"

namespace clh::grade {

/// One submission file.
struct Submission {
  /// Unique in the batch: the path below the folder given, without ".cl", made printable (a
  /// control character in a file name reads `\x1b`: no name reaches a screen or file raw).
  std::string id;
  std::string path;  ///< the file as found
  std::string text;  ///< its bytes, when read (interface and `uses` checks; empty: unknown)
  std::string file_name() const;  ///< the file's own name, as the student knows it
  std::string safe_id() const;    ///< id usable as a file name ("alice/vadd" -> "alice__vadd")
};

/// The speed item's measurement on one real device: rounds of one run of each kernel, in turns,
/// in one process (grade/speed.hpp).
struct SpeedSample {
  Sizes sizes;
  double student_ns = 0;       ///< the median of the student's kernel times over the rounds
  double reference_ns = 0;     ///< the median of the reference solution's
  std::vector<double> ratios;  ///< each round's student time / reference time, in order
  std::string problem;  ///< why there is no timing (the student's kernel failed at this case)
  /// Measured again alone, because the first measurement lost points: `alone` says whether the
  /// rerun is the one counted (else the first is), `other_ratios` holds the other's rounds, and
  /// `rerun_problem` why the rerun gave no timing (the first then counts).
  bool rerun = false, alone = false;
  std::vector<double> other_ratios;
  std::string rerun_problem;
  /// The median of the rounds' ratios (student_ns / reference_ns for a sample without rounds);
  /// 0: no timing.
  double ratio() const;
};

/// One output element a real device got wrong, and what the simulator saw of it in the same case.
struct ElementTrace {
  std::string buffer;          ///< the spec's name of the buffer
  std::vector<int64_t> index;  ///< in the buffer's own shape
  long stores = -1;            ///< stores to it on the simulator; -1: the simulator could not tell
  std::vector<SourceLine> lines;  ///< the statements that stored to it, first seen first
  SourceLine last_line;           ///< the statement of the last store (line 0: none or unknown)
  std::string last_work_item;
  /// The element in the simulator's own result: "wrong", "unwritten", "right" or "unknown".
  std::string on_simulator = "unknown";
};

/// A real device's smallest failing case replayed on the simulator, with its wrong elements
/// watched (docs/grading.md, "Which statement wrote it").
struct SimulatorTrace {
  std::string device;  ///< the real device whose failure it replays
  Sizes sizes;
  std::vector<ElementTrace> elements;
  std::string problem;  ///< why the simulator could not tell, when it could not
};

/// How the process that ran a submission on one device ended.
enum class RunEnd {
  completed,   ///< it reported its result
  timeout,     ///< stopped at its wall-clock or CPU-time limit
  crashed,     ///< a signal ended it
  tool_error,  ///< it failed for a reason of the harness or driver (could not start, reported an
               ///< error)
};
std::string_view toString(RunEnd end);

/// What one submission did on one device.
struct DeviceRun {
  std::string device;  ///< display name
  std::string device_kind;
  bool simulator = false;
  /// The kernel instrumented by the sanitizer on this real device (grade/sanitized_run.hpp): it
  /// judges the "clean" item (check: simulator) alone.
  bool sanitized = false;
  RunEnd end = RunEnd::completed;
  std::optional<UnitResult> unit;  ///< the random-size search, when it finished
  std::optional<CaseOutcome>
      lost;  ///< timeout / crash / tool_error finding, with the sizes running then
  std::optional<SpeedSample> speed;     ///< for a rubric with a speed item, on a real device
  std::optional<SimulatorTrace> trace;  ///< on the simulator: a real device's failure replayed
  int cases_started = 0;
  int distinct_cases = 0;  ///< distinct sizes among the random cases (the generator may repeat)
  int cases_asked = 0;     ///< the distinct random cases wanted (0: a replay, or unknown)
  double seconds = 0;
  /// How the run's time limits went, when that needs saying: a first try stopped at its limit
  /// and rerun alone (docs/grading.md, "Time limits").
  std::string note;
};

/// The findings behind an item's verdict on one device and case.
struct Evidence {
  std::string device;
  std::optional<Sizes> sizes;     ///< the (smallest) failing case
  std::string replay;             ///< the command that replays it
  std::vector<Finding> findings;  ///< the item's own findings
  std::vector<Finding> symptoms;  ///< findings of the same case that follow from them (simulator)
  std::string note;               ///< a speed measurement, an excused tool failure, ...
  bool shrunk = true;             ///< false: the case running when the process was lost
};

struct ItemGrade {
  std::string id, title;
  ItemCheck check = ItemCheck::results;
  bool passed = false;
  double points = 0, max_points = 0;
  std::vector<FindingKind> kinds;   ///< the kinds of the findings behind the verdict
  bool assessed = true;             ///< false: nothing could judge it (no simulator selected, ...)
  std::string blocked_by;           ///< the id of a failed item this one depends on
  bool not_students_fault = false;  ///< a tool or driver failure was excused; no points lost for it
  std::string note;                 ///< one sentence on why, when the verdict needs one
  std::vector<Evidence> evidence;
  /// Kept some of its points but not all (a speed item between its two ratios): "partial".
  bool partial() const { return !passed && assessed && blocked_by.empty() && points > 0; }
};

/// The grade of one submission.
struct Grade {
  std::string assignment, assignment_title;
  std::string submission;   ///< Submission::id
  std::string file;         ///< the submission's file name
  std::string fingerprint;  ///< of everything the grade depends on (a batch skips a match)
  uint64_t seed = 0;
  std::vector<DeviceRun> runs;
  std::vector<ItemGrade> items;
  std::vector<Evidence> other_findings;  ///< findings no rubric item claims (no points)
  double points = 0, max_points = 0;
  bool review = false;  ///< some item could not be judged: an instructor should look
  double seconds = 0;
  std::string graded_at;  ///< ISO 8601 UTC
  /// How the kernel's parameter list differs from the assignment's (shown first: that is the bug).
  std::vector<std::string> interface_differences;
  /// Items no selected device could judge (graded anyway with --allow-unassessed): they score 0.
  std::vector<std::string> unassessed;
  /// What its grading processes ran in: "namespaces", "limits only" or "off" (grade/sandbox.hpp).
  std::string sandbox;

  const ItemGrade* item(const std::string& id) const;
};

/// How to name things in a grade: the replay command's tool and assignment argument.
struct GradeContext {
  std::string tool = "clharness";
  std::string assignment_argument;  ///< how replay commands name the assignment
  uint64_t seed = 1;
  std::vector<std::string> devices;  ///< the batch's devices: replay lines name theirs briefly
};

/// The shortest `--device` value that selects `device` alone among `devices` (its platform's
/// first word, "Oclgrind"; then that and its name's first word), else the exact name.
std::string shortDeviceRegex(const std::string& device, const std::vector<std::string>& devices);

/// The grade of a submission refused before any device saw it (an #include, docs/grading.md):
/// the build item fails with `why`, the others are blocked by it.
Grade refusedGrade(const Assignment& assignment, const Submission& submission,
                   const std::string& why, const GradeContext& ctx);

/// The command that replays one case of a submission on one device.
std::string gradeReplayCommand(const GradeContext& ctx, const Submission& s,
                               const std::string& device, const Sizes& sizes);

/// Applies the rubric to what the submission did on each device (docs/grading.md, "How findings
/// become points"). Pure: no device, no file.
Grade gradeSubmission(const Assignment& assignment, const Submission& submission,
                      const std::vector<DeviceRun>& runs, const GradeContext& ctx);

/// Rewrites what drivers and the simulator call the kernel file (Oclgrind's "input.cl", PoCL's
/// cache temp files, the absolute path given) to the submission's own file name.
std::string studentPaths(const std::string& text, const Submission& s);

/// The fingerprint of a submission's grade inputs: its bytes, the assignment's spec, rubric and
/// reference solution, the seed, the case counts and the devices.
std::string gradeFingerprint(const Assignment& a, const std::string& submission_bytes,
                             uint64_t seed, int cases, int simulator_cases,
                             const std::vector<std::string>& devices);

void to_json(nlohmann::json& j, const SpeedSample& s);
void from_json(const nlohmann::json& j, SpeedSample& s);
void to_json(nlohmann::json& j, const ElementTrace& e);
void from_json(const nlohmann::json& j, ElementTrace& e);
void to_json(nlohmann::json& j, const SimulatorTrace& t);
void from_json(const nlohmann::json& j, SimulatorTrace& t);
void to_json(nlohmann::json& j, const DeviceRun& r);
void from_json(const nlohmann::json& j, DeviceRun& r);
void to_json(nlohmann::json& j, const Evidence& e);
void from_json(const nlohmann::json& j, Evidence& e);
void to_json(nlohmann::json& j, const ItemGrade& i);
void from_json(const nlohmann::json& j, ItemGrade& i);
/// The per-submission file: {"schema": "clharness-grade/1", ...} (docs/grading.md).
void to_json(nlohmann::json& j, const Grade& g);
void from_json(const nlohmann::json& j, Grade& g);

inline constexpr const char* kGradeSchema = "clharness-grade/1";

}  // namespace clh::grade
