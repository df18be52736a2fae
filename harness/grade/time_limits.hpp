// Time limits that measure the kernel, not the machine: a grading child reports its phases (the
// driver's compile, each case), each phase has a limit of its own, and a case's limit is a multiple
// of what the reference solution took for the same case on the same device (docs/grading.md).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/hostbuffer.hpp"  // Sizes
#include "proc/job.hpp"

namespace clh::grade {

/// What a batch knows of the reference solution's times on one device.
struct ReferenceTimes {
  std::map<Sizes, double> cases;  ///< wall-clock seconds of each case, compiles left out
  double build_s = 0;             ///< the longest program build (0: none seen)
  /// The reference's time for `sizes`: that case's own, else the slowest case known (a smaller,
  /// shrunk case takes no longer than the largest), else nothing.
  std::optional<double> of(const Sizes& sizes) const;
  void merge(const ReferenceTimes& other);  ///< the other's times win
};

/// How long each phase of a grading child may take.
struct TimePolicy {
  double case_floor_s = 10;    ///< a case may always take this long (--timeout)
  double multiple = 10;        ///< ... or this many times the reference's time for it
  double build_floor_s = 120;  ///< a program build may always take this long (--build-timeout)
  double scale = 1;            ///< 2 for the confirming rerun
  int speed_runs = 0;          ///< runs of the speed case (student and reference), 0: none
  double caseLimit(const ReferenceTimes& reference, const Sizes& sizes) const;
  double buildLimit(const ReferenceTimes& reference) const;
};

/// Where and why a child was stopped.
struct PhaseStop {
  std::string phase;  ///< "start" (before any build), "build", "case", "reference", "after"
  std::optional<Sizes> sizes;
  double elapsed_s = 0;  ///< in the phase, compiles left out of a case's time
  double limit_s = 0;
  std::optional<double> reference_s;  ///< the reference's time for the same case or build
};

/// Follows a grading child's events as they are written (t: seconds since the child started) and
/// says when the phase it is in has run past its limit. A compile inside a case stops the case's
/// clock and runs on the build limit. Events: build_start, build_end, case_start ({"sizes"},
/// {"phase": "speed"}, {"who": "reference"}), case_end, unit; a case without a case_end ends
/// where the next case or the unit's result begins.
class PhaseWatch {
 public:
  PhaseWatch(TimePolicy policy, ReferenceTimes reference);
  void onEvent(const nlohmann::json& event, double t);
  /// The phase past its limit at time t, if any.
  std::optional<PhaseStop> check(double t) const;
  /// Where the child is at time t (for a child that ended some other way: a CPU-time limit).
  PhaseStop where(double t) const;
  /// The times seen: of a reference run, the times that scale a submission's limits.
  const ReferenceTimes& observed() const { return observed_; }

 private:
  void endCase(double t);
  TimePolicy policy_;
  ReferenceTimes reference_, observed_;
  std::string phase_ = "start";  ///< the phase outside any build
  double phase_start_ = 0;
  std::optional<Sizes> sizes_;
  bool speed_ = false, reference_case_ = false;
  bool building_ = false;
  double build_start_ = 0;
  double built_in_phase_ = 0;  ///< seconds of compiles inside the current phase
};

/// proc's reader of the lines a child adds to a file (proc/job.hpp).
using LineTail = clh::LineTail;

}  // namespace clh::grade
