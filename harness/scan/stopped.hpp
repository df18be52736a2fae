// A scan stopped before its launches were done (issue 40): the time limit (--timeout) that bounds
// the whole scan and what is left of it, and the report of a child that was stopped, made from the
// last result it sent and what the simulator's log holds of the launch it was running.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "scan/scan.hpp"

namespace clh::scan {

/// The simulator's worker threads: OCLGRIND_NUM_THREADS, else one per core.
unsigned simulatorThreads();

/// --timeout for the whole scan: every child on every device shares it. On the simulator it counts
/// CPU seconds of each simulator thread (the children's CPU time over simulatorThreads()), which a
/// busy machine does not change; on a real device the clock's seconds.
class ScanBudget {
 public:
  explicit ScanBudget(double total_s);
  double total() const { return total_s_; }
  /// Seconds left (CPU seconds of a simulator thread on the simulator), at least 0.
  double left(bool simulator) const;
  /// Seconds since the scan began, by the clock.
  double elapsed() const;

 private:
  double total_s_;
  std::chrono::steady_clock::time_point start_;
  rusage children_at_start_{};
};

/// Why a child's scan ended before its result: its share of the time limit, or an interrupt.
struct StopCause {
  bool timed_out = false;
  int signal = 0;      ///< the interrupt (SIGINT, SIGTERM) when interrupted
  double limit_s = 0;  ///< the user's --timeout
  bool simulator = false;
};

/// What the simulator had reported when the scan was stopped: the findings of every launch in its
/// plugin's log (the launches that finished and the one that was running), with the user's
/// --suppress applied; the tool's own records (a line cut short by the kill, API errors of a build
/// attempt) left out.
std::vector<Finding> findingsInTheLog(const std::string& log_path, const ScanOptions& options,
                                      const std::string& device);

/// The report of a stopped scan from the child's last `partial` result: its findings (--suppress
/// applied, said in a note) and those only the log holds (the launch that was running, named
/// `[with LABEL]`), the launches not run (`not_run`, the one cut short first) and a note saying
/// what stopped it. A scan stopped by its time limit in its first launch gets the `timeout`
/// finding (`timeout_summary`); one stopped later has looked at the kernel and is reported by
/// its findings.
ScanResult stoppedScan(ScanResult partial, const std::vector<Finding>& in_log,
                       const ScanOptions& options, const StopCause& cause,
                       const std::string& timeout_summary);

}  // namespace clh::scan
