// What `clharness check` keeps on disk while it runs: a journal of finished units (JSON lines
// beside the report, so a run killed any way leaves them readable and `--resume` goes on from
// them). The report files themselves are written by report/formats.hpp.
#pragma once

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace clh {

struct CheckOptions;  // run/check.hpp
struct Spec;          // core/spec.hpp

/// The key of one unit in a journal: family, spec file and device.
std::string unitKey(const std::string& family, const std::string& spec_file,
                    const std::string& device);
std::string unitKey(const UnitResult& u);

/// The journal of one run: a first line with the run's options, then one line per finished unit.
/// It holds an exclusive lock (flock) while open, so a second run into the same report cannot
/// interleave its lines.
class RunJournal {
 public:
  RunJournal() = default;
  ~RunJournal();
  RunJournal(const RunJournal&) = delete;
  RunJournal& operator=(const RunJournal&) = delete;

  /// Opens `path`. Fresh: starts it anew with `options`. Resume: reads the finished units of an
  /// earlier run (a line cut short by a kill is dropped) after checking that its options equal
  /// `options`, and goes on appending. Returns "" when open, else why not (locked by another
  /// run; the options differ; cannot write). A missing journal with `resume` starts fresh.
  std::string open(const std::string& path, const nlohmann::json& options, bool resume);
  bool isOpen() const { return file_ != nullptr; }
  const std::string& path() const { return path_; }

  /// The finished unit of an earlier run with this key, taken out of the journal's memory; what
  /// was appended with it goes to `extra` (null when nothing was).
  std::optional<UnitResult> take(const std::string& key, nlohmann::json* extra = nullptr);
  /// How many finished units the earlier run left (at open()).
  size_t resumed() const { return resumed_; }
  /// Appends one finished unit, with what a resumed run needs besides it (`extra`: a launch unit's
  /// family, for the driver section), and flushes it to disk.
  void append(const UnitResult& u, const nlohmann::json& extra = nullptr);
  /// Closes it and deletes the file (the run is complete: its report holds every unit).
  void finish();

 private:
  std::FILE* file_ = nullptr;
  int fd_ = -1;
  std::string path_;
  std::map<std::string, std::pair<UnitResult, nlohmann::json>> done_;
  size_t resumed_ = 0;
};

/// Opens a check run's journal beside its first report (none when it writes no report): finished
/// units are kept, whatever ends the run, and `--resume` takes them, when its options and every
/// spec's and kernel's text are those of the run it resumes. False (after the message) on a usage
/// error: --resume without a report, or a journal that cannot be resumed.
bool openCheckJournal(const CheckOptions& o, const std::vector<Spec>& specs, RunJournal& journal);

/// The line printed under the console totals of an interrupted run.
std::string interruptedLine(const Report& report, const std::string& journal);

}  // namespace clh
