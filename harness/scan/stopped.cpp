// A scan stopped before its launches were done: the whole scan's time limit, and the report of a
// stopped child (scan/stopped.hpp).
#include "scan/stopped.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include "proc/child.hpp"
#include "sim/oclgrind_log.hpp"

namespace clh::scan {

namespace {

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// One problem, whichever launch showed it and however many reports it counted.
std::string problemKey(const Finding& f) {
  static const std::regex count(R"( \([0-9]+ reports\)$)"), with(R"( \[with [^\]]*\]$)");
  return std::string(toString(f.kind)) + "\n" +
         std::regex_replace(std::regex_replace(f.summary, with, ""), count, "");
}

}  // namespace

unsigned simulatorThreads() {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (const char* n = std::getenv("OCLGRIND_NUM_THREADS"); n && std::atoi(n) > 0)
    threads = static_cast<unsigned>(std::atoi(n));
  return threads;
}

ScanBudget::ScanBudget(double total_s)
    : total_s_(total_s), start_(std::chrono::steady_clock::now()) {
  ::getrusage(RUSAGE_CHILDREN, &children_at_start_);
}

double ScanBudget::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double ScanBudget::left(bool simulator) const {
  double used = elapsed();
  if (simulator) {
    rusage now{};
    ::getrusage(RUSAGE_CHILDREN, &now);
    const double cpu = seconds(now.ru_utime) + seconds(now.ru_stime) -
                       seconds(children_at_start_.ru_utime) - seconds(children_at_start_.ru_stime);
    used = cpu / simulatorThreads();
  }
  return std::max(0.0, total_s_ - used);
}

std::vector<Finding> findingsInTheLog(const std::string& log_path, const ScanOptions& options,
                                      const std::string& device) {
  std::ifstream in(log_path);
  if (!in) return {};
  OclgrindParseOptions parse;
  parse.source_file = options.source_path;
  parse.device = device;
  const OclgrindLog log = parseOclgrindLogDetailed(in, parse);
  std::vector<Finding> out;
  std::set<std::string> seen;  // one problem found by several launches is listed once
  for (const auto& launch : log.launches)
    for (const auto& f : launch.findings) {
      if (f.kind == FindingKind::tool_error ||
          std::find(options.suppress.begin(), options.suppress.end(), f.kind) !=
              options.suppress.end())
        continue;
      if (seen.insert(problemKey(f)).second) out.push_back(f);
    }
  return out;
}

ScanResult stoppedScan(ScanResult r, const std::vector<Finding>& in_log, const ScanOptions& options,
                       const StopCause& cause, const std::string& timeout_summary) {
  for (FindingKind kind : options.suppress) {  // as a finished scan does
    auto dropped = std::erase_if(r.findings, [&](const Finding& f) { return f.kind == kind; });
    if (dropped)
      r.notes.push_back(fmt::format("{} {} finding{} suppressed (--suppress)", dropped,
                                    toString(kind), dropped == 1 ? "" : "s"));
  }
  // What only the log holds: the findings of the launch that was running.
  const std::string running = r.not_run.empty() ? "" : r.not_run.front();
  std::set<std::string> have;
  for (const auto& f : r.findings) have.insert(problemKey(f));
  for (Finding f : in_log)
    if (have.insert(problemKey(f)).second) {
      if (!running.empty() && running != "defaults") f.summary += " [with " + running + "]";
      r.findings.push_back(std::move(f));
    }
  const std::string what =
      cause.signal
          ? fmt::format("interrupted by {}", signalName(cause.signal))
          : fmt::format(
                "the scan's time limit ({:g} s, --timeout, for the whole scan{}) "
                "ran out",
                cause.limit_s, cause.simulator ? "; CPU time on each simulator thread" : "");
  std::string list;
  for (const auto& l : r.not_run) list += (list.empty() ? "" : "; ") + l;
  if (running.empty())
    r.notes.push_back(what + " before the first launch: none ran");
  else
    r.notes.push_back(fmt::format("{} during launch '{}': {} of {} launches ran; not run: {}", what,
                                  running, r.tries.size(), r.tries.size() + r.not_run.size(),
                                  list));
  if (cause.timed_out && r.tries.empty()) {  // the kernel's first launch did not end in time
    Finding t;
    t.kind = FindingKind::timeout;
    t.device = r.device;
    t.kernel = r.kernel;
    t.summary = timeout_summary;
    if (!r.findings.empty())
      t.summary += fmt::format(
          "; the {} finding{} above {} what the simulator reported before it stopped the scan",
          r.findings.size(), r.findings.size() == 1 ? "" : "s",
          r.findings.size() == 1 ? "is" : "are");
    r.findings.push_back(std::move(t));
  }
  return r;
}

}  // namespace clh::scan
