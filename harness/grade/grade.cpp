// From device runs to points: attributing each finding to a rubric item, excusing the tools'
// failures, and the JSON form of a grade.
#include "grade/grade.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "cl/session.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"
#include "core/text.hpp"
#include "grade/explain.hpp"
#include "grade/source_guard.hpp"
#include "grade/speed.hpp"
#include "grade/trace.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace clh::grade {

namespace {

bool isResultsSymptom(FindingKind k) {
  return k == FindingKind::wrong_result || k == FindingKind::unwritten;
}

bool judges(const RubricItem& item, const DeviceRun& r) {
  // A sanitized run checks accesses and races, not results, builds or speed.
  if (r.sanitized) return item.check == ItemCheck::simulator;
  switch (item.check) {
    case ItemCheck::build:
    case ItemCheck::results:
    case ItemCheck::uses:
      return true;
    case ItemCheck::simulator:
      return r.simulator;
    case ItemCheck::speed:
      return !r.simulator;
  }
  return false;
}

std::vector<const CaseOutcome*> casesOf(const DeviceRun& r) {
  std::vector<const CaseOutcome*> out;
  if (r.unit && r.unit->failing) out.push_back(&*r.unit->failing);
  if (r.lost) out.push_back(&*r.lost);
  return out;
}

bool isStrayRead(const Finding& f) {
  std::string head = f.summary.substr(0, 12);
  std::transform(head.begin(), head.end(), head.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return head.rfind("invalid read", 0) == 0;
}

bool hasLaunchError(const DeviceRun& r) {
  for (const CaseOutcome* c : casesOf(r))
    for (const auto& f : c->findings)
      if (f.kind == FindingKind::launch_error) return true;
  return false;
}

bool hasToolError(const DeviceRun& r) {
  for (const CaseOutcome* c : casesOf(r))
    for (const auto& f : c->findings)
      if (f.kind == FindingKind::tool_error) return true;
  return false;
}

std::string nowUtc() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// What the student sees of a finding: their own file's name, and no text of the grading machine
// (a build log keeps only the lines about the student's file; other tool output loses its paths).
void rewrite(Finding& f, const Submission& s) {
  f.summary = withoutHostPaths(studentPaths(f.summary, s));
  f.raw = studentPaths(f.raw, s);
  f.raw = f.kind == FindingKind::build_error ? studentBuildLog(f.raw, s.file_name())
                                             : withoutHostPaths(f.raw);
  for (auto& l : f.lines) l.file = printable(withoutHostPaths(studentPaths(l.file, s)));
  // The file's name is the student's to choose: the compiler quotes it as it is.
  f.summary = printable(f.summary, true);
  f.raw = printable(f.raw, true);
}

std::string techniqueWords(const std::string& t) {
  if (t == "local_memory") return "local memory (__local)";
  if (t == "barrier") return "a barrier";
  if (t == "atomics") return "atomic operations";
  return t;
}

// Renames what the harness calls a buffer (the spec's name) to the student's parameter at the
// same place; the simulator already says the kernel's own names.
void studentNames(Finding& f, const std::map<std::string, std::string>& names) {
  if (names.empty()) return;
  for (auto& m : f.mismatches)
    if (auto it = names.find(m.buffer); it != names.end()) m.buffer = it->second;
  if (f.kind == FindingKind::out_of_bounds && f.summary.find("(guard zone)") != std::string::npos) {
    for (const auto& [from, to] : names)
      if (f.summary.rfind("buffer '" + from + "'", 0) == 0) {
        f.summary.replace(0, from.size() + 9, "buffer '" + to + "'");
        break;
      }
  } else if (f.kind == FindingKind::wrong_result || f.kind == FindingKind::unwritten) {
    for (const auto& [from, to] : names)
      if (f.summary.rfind(from + ":", 0) == 0) {
        f.summary.replace(0, from.size(), to);
        break;
      }
  }
}

// What the simulator runs that judged a passing item could not look at (a check left off, the
// kernel as written, races inside a work-group), so that a pass never claims more than was seen.
std::string simulatorLimits(const std::vector<DeviceRun>& runs, const std::vector<size_t>& judged) {
  std::vector<std::string> limits;
  for (size_t i : judged) {
    if (!runs[i].simulator || !runs[i].unit) continue;
    for (const auto& o : runs[i].unit->observations)
      if (isSimulatorLimit(o) && std::find(limits.begin(), limits.end(), o) == limits.end())
        limits.push_back(o);
  }
  if (limits.empty()) return "";
  std::string out = "passed where the simulator looked; it could not look everywhere: ";
  for (size_t i = 0; i < limits.size(); ++i) out += (i ? "; " : "") + limits[i];
  return out;
}

// What the sanitizer looked at where it judged a passing item: the devices, the sizes and what it
// could not route (docs/sanitizer.md); without a simulator, that divergence went unchecked.
std::string sanitizerLooked(const std::vector<DeviceRun>& runs, const std::vector<size_t>& judged) {
  std::vector<std::string> said;
  bool simulator = false;
  for (size_t i : judged) {
    simulator = simulator || runs[i].simulator;
    if (!runs[i].sanitized || !runs[i].unit) continue;
    for (const auto& o : runs[i].unit->observations)
      if ((o.rfind("sanitized on ", 0) == 0 || o.rfind("sanitizer: not looked at", 0) == 0) &&
          std::find(said.begin(), said.end(), o) == said.end())
        said.push_back(o);
  }
  if (said.empty()) return "";
  std::string out;
  for (const auto& o : said) out += (out.empty() ? "" : "; ") + o;
  if (!simulator) out += "; no simulator: barrier divergence was not looked at";
  return out;
}

// Which runs say nothing about the student: a tool's or the driver's failure (a grading process
// that could not start, a simulator that crashed, a timeout that the rerun alone could not pin on
// the kernel: grade/command.cpp makes those tool_error). A timeout confirmed as the kernel's is the
// kernel's on the simulator as on any device: its printf flood or its loop is its own doing.
std::vector<bool> excusedRuns(const std::vector<DeviceRun>& runs) {
  std::vector<bool> excused(runs.size(), false);
  for (size_t i = 0; i < runs.size(); ++i)
    excused[i] = runs[i].end == RunEnd::tool_error || hasToolError(runs[i]);
  return excused;
}

// Why a device could not look: its first tool_error finding, else how its run ended.
std::string whyItCouldNotLook(const DeviceRun& r) {
  for (const CaseOutcome* c : casesOf(r))
    for (const auto& f : c->findings)
      if (f.kind == FindingKind::tool_error) return f.summary;
  return std::string(toString(r.end));
}

// The evidence of a device whose tool failed: its findings, and that it could not look.
Evidence excusedEvidence(const DeviceRun& r) {
  Evidence e;
  e.device = r.device;
  for (const CaseOutcome* c : casesOf(r))
    for (const auto& f : c->findings) e.findings.push_back(f);
  e.note = "this device could not look at your kernel (the tool failed here, not your kernel)";
  return e;
}

// An item some of whose devices failed as tools: a device that did look (`ok`) judges it, and
// the failures cost nothing; when none looked, nobody checked it, so it earns nothing and an
// instructor must look: "not your fault" never awards points nobody checked.
void judgeDespiteToolFailures(ItemGrade& ig, const RubricItem& item,
                              const std::vector<DeviceRun>& runs, const std::vector<size_t>& ok,
                              const std::vector<size_t>& excusedHere) {
  for (size_t i : excusedHere) ig.evidence.push_back(excusedEvidence(runs[i]));
  std::string couldNot;
  for (size_t i : excusedHere)
    couldNot += fmt::format("{}{} could not look ({})", couldNot.empty() ? "" : "; ",
                            runs[i].device, whyItCouldNotLook(runs[i]));
  if (ok.empty()) {
    ig.assessed = false;
    ig.passed = false;
    ig.points = 0;
    ig.kinds = {FindingKind::tool_error};
    ig.note = "not assessed: no device could judge it: " + couldNot +
              "; no points either way: grade it by hand";
    return;
  }
  std::string judgedOn;
  for (size_t i : ok) judgedOn += (judgedOn.empty() ? "" : ", ") + runs[i].device;
  ig.passed = true;
  ig.points = item.points;
  ig.not_students_fault = true;
  ig.kinds = {FindingKind::tool_error};
  ig.note =
      "judged on " + judgedOn + " alone: " + couldNot + "; not the student's fault, no points lost";
}

// The runs a speed item is judged on: the real devices, with which of them are excused and the
// evidence an excused one shows.
struct SpeedRuns {
  const std::vector<DeviceRun>& runs;
  const std::vector<size_t>& judging;
  const std::vector<bool>& excused;
  std::function<Evidence(size_t)> excuse;
};

// The speed item: each real device's paired measurement, the median of its rounds' ratios (a
// losing one already measured again alone, grade/speed.hpp); the slowest device scores. A device
// without a sample is excused or lost; one where the kernel failed at the timed case scores 0.
void judgeSpeed(ItemGrade& ig, Grade& g, const RubricItem& item, const SpeedRuns& in,
                const GradeContext& ctx, const Submission& s) {
  double points = roundPoints(item.points);
  int measured = 0;
  for (size_t i : in.judging) {
    const DeviceRun& r = in.runs[i];
    if (in.excused[i] || !r.speed) {
      if (in.excused[i]) ig.evidence.push_back(in.excuse(i));
      continue;
    }
    ++measured;
    Evidence e;
    e.device = r.device;
    e.sizes = r.speed->sizes;
    if (!r.speed->problem.empty() || r.speed->ratio() <= 0) {
      e.note = r.speed->problem.empty() ? "no timing could be taken" : r.speed->problem;
      e.replay = gradeReplayCommand(ctx, s, r.device, r.speed->sizes);
      points = 0;
    } else {
      points = std::min(points, speedPoints(item, r.speed->ratio()));
      e.note = speedNote(*item.speed, *r.speed);
    }
    ig.evidence.push_back(std::move(e));
  }
  if (measured == 0) {
    ig.assessed = false;
    g.review = true;
    ig.note = "not assessed: no real device could time the kernel";
    return;
  }
  // Points as shown: 9.998 of 10 is 10, and a pass.
  ig.points = points;
  ig.passed = points >= roundPoints(item.points);
  if (!ig.passed && item.points > 0)
    ig.note = fmt::format("{:.0f}% of the points for speed", 100 * points / item.points);
}

// gradeSubmission step by step: the grade's header and the student's interface, the findings put
// in the student's words, each finding of each counted run attributed to the item that claims its
// kind, and each item judged.
class SubmissionGrader {
 public:
  SubmissionGrader(const Assignment& a, const Submission& s, const GradeContext& ctx)
      : a_(a), rubric_(a.rubric), s_(s), ctx_(ctx) {}

  Grade grade(const std::vector<DeviceRun>& input) {
    g_.assignment = a_.name;
    g_.assignment_title = rubric_.title;
    g_.submission = s_.id;
    g_.file = printable(s_.file_name());
    g_.seed = ctx_.seed;
    g_.graded_at = nowUtc();
    g_.runs = input;
    techniques_ = techniquesUsed(s_.text);
    compareInterface();
    inStudentsWords();
    excused_ = excusedRuns(g_.runs);
    // Attribute each finding of each counted run to the item that claims its kind.
    evidence_.resize(rubric_.items.size());
    for (size_t i = 0; i < g_.runs.size(); ++i)
      if (!excused_[i])
        for (const CaseOutcome* c : casesOf(g_.runs[i])) attributeCase(g_.runs[i], c);
    for (size_t k = 0; k < rubric_.items.size(); ++k)
      for (const auto& e : evidence_[k])
        for (const auto& f : e.findings)
          if (f.kind == FindingKind::build_error) buildFailed_ = true;
    resultsItem_ = rubric_.firstOf(ItemCheck::results);
    resultsFailed_ = resultsItem_ && !evidence_[indexOf(resultsItem_)].empty();
    for (size_t k = 0; k < rubric_.items.size(); ++k) {
      ItemGrade ig = judgeItem(k);
      g_.points += ig.points;
      g_.max_points += ig.max_points;
      g_.items.push_back(std::move(ig));
    }
    return std::move(g_);
  }

 private:
  // The student's kernel against the assignment's interface: differences come first in the
  // feedback, and the harness's buffer names become the student's parameter names.
  void compareInterface() {
    if (s_.text.empty() || a_.spec.launches.empty()) return;
    const LaunchSpec& launch = a_.spec.launches.front();
    auto want = kernelParameters(a_.reference_text, launch.kernel);
    auto got = kernelParameters(s_.text, launch.kernel);
    if (want && got) {
      g_.interface_differences = interfaceDifferences(*want, *got);
      for (size_t i = 0; i < launch.args.size() && i < got->size(); ++i)
        if (launch.args[i].kind == ArgSpec::Kind::buffer && !(*got)[i].name.empty() &&
            (*got)[i].name != launch.args[i].buffer)
          names_.emplace(launch.args[i].buffer, (*got)[i].name);
    } else if (want && !got) {
      g_.interface_differences.push_back("no kernel named '" + launch.kernel +
                                         "' was found in your file: the assignment launches '" +
                                         launch.kernel + "'");
    }
  }

  // Each run's findings in the student's terms (file, parameter names, address spaces, the
  // declaration), and no grader paths or replays of the reference solution.
  void inStudentsWords() {
    for (auto& r : g_.runs) {
      if (r.unit && r.unit->failing)
        for (auto& f : r.unit->failing->findings) {
          rewrite(f, s_);
          studentNames(f, names_);
          nameAddressSpace(f);
          pointAtDeclaration(f, s_.text, s_.file_name());
        }
      if (r.lost)
        for (auto& f : r.lost->findings) rewrite(f, s_);
      if (r.unit) {
        r.unit->replay.clear();  // it would run the reference solution; evidence has ours
        r.unit->spec_file = fs::path(r.unit->spec_file).filename().string();  // no grader paths
      }
    }
  }

  size_t indexOf(const RubricItem* item) const {
    return static_cast<size_t>(item - rubric_.items.data());
  }

  // On the simulator a wrong result that comes with a race, a divergence or a bad access in the
  // same case is its symptom (the simulator's schedule exposes it): the item it goes to.
  const RubricItem* simulatorSymptomItem(const DeviceRun& r, const CaseOutcome& c) const {
    const RubricItem* simItem = nullptr;
    if (r.simulator)
      for (const auto& f : c.findings)
        if (const RubricItem* it = rubric_.itemFor(f.kind);
            it && it->check == ItemCheck::simulator && !simItem)
          simItem = it;
    return simItem;
  }

  // A stray read returns a value nobody wrote: the uninitialized value that follows is its
  // consequence, reported under the out-of-bounds read, not as a cause of its own.
  const RubricItem* strayReadItem(const CaseOutcome& c) const {
    const RubricItem* item = nullptr;
    for (const auto& f : c.findings)
      if (f.kind == FindingKind::out_of_bounds && isStrayRead(f))
        item = rubric_.itemFor(FindingKind::out_of_bounds);
    return item;
  }

  // One case's findings, each to the item that claims it (as a finding or a symptom), the rest to
  // the grade's other findings.
  void attributeCase(const DeviceRun& r, const CaseOutcome* c) {
    const RubricItem* simItem = simulatorSymptomItem(r, *c);
    const RubricItem* strayItem = strayReadItem(*c);
    std::map<size_t, Evidence> byItem;
    Evidence other;
    for (const auto& f : c->findings) {
      const RubricItem* item = rubric_.itemFor(f.kind);
      // A sanitized run speaks for the "clean" item alone (its tool errors excuse the run).
      if (r.sanitized && item && item->check != ItemCheck::simulator) item = nullptr;
      if (strayItem && f.kind == FindingKind::uninitialized) {
        byItem[indexOf(strayItem)].symptoms.push_back(f);
      } else if (item && simItem && item->check == ItemCheck::results && isResultsSymptom(f.kind)) {
        byItem[indexOf(simItem)].symptoms.push_back(f);
      } else if (item) {
        byItem[indexOf(item)].findings.push_back(f);
      } else {
        other.findings.push_back(f);
      }
    }
    for (auto& [idx, e] : byItem) {
      stamp(e, r, c);
      if (r.sanitized)
        e.note = "found by the sanitizer: your kernel instrumented and run on this real device";
      else if (!r.simulator)
        explainWithTrace(e, g_.runs, names_);  // which statement wrote it
      evidence_[idx].push_back(std::move(e));
    }
    if (!other.findings.empty()) {
      stamp(other, r, c);
      g_.other_findings.push_back(std::move(other));
    }
  }

  // Where a piece of evidence was seen, and its replay. A process lost before its first case
  // knows no sizes, so there is nothing to replay.
  void stamp(Evidence& e, const DeviceRun& r, const CaseOutcome* c) const {
    const bool sizesKnown = !(r.lost && c == &*r.lost) || r.cases_started > 0;
    e.device = r.device;
    e.shrunk = !(r.lost && c == &*r.lost);
    if (sizesKnown) {
      e.sizes = c->sizes;
      e.replay = gradeReplayCommand(ctx_, s_, r.device, c->sizes);
    }
  }

  // A kernel that never launched on a device was not checked there: an item judged only by such
  // runs earns nothing (as after a failed build).
  bool launchBlocks(const std::vector<size_t>& judging) const {
    if (judging.empty()) return false;
    for (size_t i : judging)
      if (!hasLaunchError(g_.runs[i])) return false;
    return true;
  }

  // An item's grade: its evidence, else what blocks it, else what the runs that judge it say.
  ItemGrade judgeItem(size_t k) {
    const RubricItem& item = rubric_.items[k];
    const std::vector<DeviceRun>& runs = g_.runs;
    ItemGrade ig;
    ig.id = item.id;
    ig.title = item.title;
    ig.check = item.check;
    ig.max_points = item.points;
    ig.evidence = std::move(evidence_[k]);
    std::set<FindingKind> kinds;
    for (const auto& e : ig.evidence)
      for (const auto& f : e.findings) kinds.insert(f.kind);
    ig.kinds.assign(kinds.begin(), kinds.end());
    std::vector<size_t> judging;
    for (size_t i = 0; i < runs.size(); ++i)
      if (judges(item, runs[i])) judging.push_back(i);
    const RubricItem* buildItem = rubric_.firstOf(ItemCheck::build);

    if (!ig.evidence.empty()) {
      ig.passed = false;
      if (std::count(ig.kinds.begin(), ig.kinds.end(), FindingKind::launch_error) &&
          !g_.interface_differences.empty())
        ig.note = "the kernel could not be launched: " + g_.interface_differences.front();
    } else if (buildFailed_ && item.check != ItemCheck::build) {
      ig.blocked_by = buildItem ? buildItem->id : "build";
      ig.note = "not assessed: the kernel does not build";
    } else if (item.check == ItemCheck::uses) {
      judgeUses(ig, item);
    } else if (item.check == ItemCheck::simulator && launchBlocks(judging)) {
      ig.blocked_by = resultsItem_ ? resultsItem_->id : "results";
      ig.note =
          "not assessed: the kernel could not be launched on the simulator, so nothing "
          "checked it there";
    } else if (item.check == ItemCheck::speed && resultsFailed_) {
      ig.blocked_by = resultsItem_->id;
      ig.note = "not assessed: a kernel with wrong results earns no speed points";
    } else if (judging.empty() && item.check == ItemCheck::simulator && resultsFailed_ &&
               !runs.empty()) {
      // No simulator, and the real devices' kernel never ended or launched: no sanitized run.
      ig.blocked_by = resultsItem_->id;
      ig.note =
          "not assessed: the kernel did not run to its end on a real device, so the "
          "sanitizer did not run it (see '" +
          resultsItem_->id + "')";
    } else if (judging.empty()) {
      ig.assessed = false;
      g_.unassessed.push_back(item.id);
      ig.note = item.check == ItemCheck::simulator
                    ? "not assessed: no simulator device was selected"
                    : "not assessed: no real device was selected";
    } else if (item.check == ItemCheck::speed) {
      auto excuse = [&](size_t i) { return excusedEvidence(runs[i]); };
      judgeSpeed(ig, g_, item, {runs, judging, excused_, excuse}, ctx_, s_);
    } else {
      judgeByRuns(ig, item, judging);
    }
    return ig;
  }

  // A uses item: the techniques the assignment asks for, looked for in the kernel's code.
  void judgeUses(ItemGrade& ig, const RubricItem& item) const {
    std::vector<std::string> missing;
    for (const auto& t : item.uses)
      if (!techniques_.count(t)) missing.push_back(t);
    ig.passed = missing.empty();
    ig.points = ig.passed ? item.points : 0;
    if (!ig.passed) {
      Evidence e;
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "" : ", ") + techniqueWords(m);
      e.note = "the kernel does not use " + list;
      ig.evidence.push_back(std::move(e));
      ig.note = "the assignment asks for " + list;
    }
  }

  // An item without evidence against it, by the runs that judge it: passed where each ran to its
  // end, else not assessed (a lost run) or judged on the others (a tool's failure).
  void judgeByRuns(ItemGrade& ig, const RubricItem& item, const std::vector<size_t>& judging) {
    const std::vector<DeviceRun>& runs = g_.runs;
    std::vector<size_t> ok, excusedHere, lostHere;
    for (size_t i : judging) {
      // A run that hung or crashed, even by the simulator's own fault, got as far as running
      // the kernel: it built there.
      const bool ran = runs[i].end == RunEnd::timeout || runs[i].end == RunEnd::crashed;
      if (item.check == ItemCheck::build && ran)
        ok.push_back(i);
      else if (excused_[i])
        excusedHere.push_back(i);
      else if (runs[i].end == RunEnd::completed)
        ok.push_back(i);
      else
        lostHere.push_back(i);
    }
    if (!lostHere.empty() && item.check != ItemCheck::results && resultsFailed_) {
      ig.blocked_by = resultsItem_->id;
      ig.note = fmt::format("not assessed: the kernel did not finish on {} (see '{}')",
                            runs[lostHere[0]].device, resultsItem_->id);
    } else if (!lostHere.empty()) {
      ig.assessed = false;
      g_.review = true;
      ig.note = fmt::format("not assessed: {} on {}", toString(runs[lostHere[0]].end),
                            runs[lostHere[0]].device);
    } else if (!excusedHere.empty()) {
      judgeDespiteToolFailures(ig, item, runs, ok, excusedHere);
      g_.review = g_.review || !ig.assessed;
    } else {
      ig.passed = true;
      ig.points = item.points;
      if (item.check == ItemCheck::simulator) {
        const std::string sim = simulatorLimits(runs, ok), san = sanitizerLooked(runs, ok);
        ig.note = sim + (sim.empty() || san.empty() ? "" : "; ") + san;
      }
    }
  }

  const Assignment& a_;
  const Rubric& rubric_;
  const Submission& s_;
  const GradeContext& ctx_;
  Grade g_;
  std::map<std::string, std::string> names_;  ///< the harness's buffer -> the student's name
  std::set<std::string> techniques_;
  std::vector<bool> excused_;
  std::vector<std::vector<Evidence>> evidence_;  ///< per rubric item
  const RubricItem* resultsItem_ = nullptr;
  bool buildFailed_ = false, resultsFailed_ = false;
};

}  // namespace

Grade gradeSubmission(const Assignment& a, const Submission& s, const std::vector<DeviceRun>& input,
                      const GradeContext& ctx) {
  return SubmissionGrader(a, s, ctx).grade(input);
}

Grade refusedGrade(const Assignment& a, const Submission& s, const std::string& why,
                   const GradeContext& ctx) {
  Grade g;
  g.assignment = a.name;
  g.assignment_title = a.rubric.title;
  g.submission = s.id;
  g.file = printable(s.file_name());
  g.seed = ctx.seed;
  g.graded_at = nowUtc();
  const RubricItem* buildItem = a.rubric.firstOf(ItemCheck::build);
  for (const auto& item : a.rubric.items) {
    ItemGrade ig;
    ig.id = item.id;
    ig.title = item.title;
    ig.check = item.check;
    ig.max_points = item.points;
    if (&item == buildItem || (!buildItem && &item == &a.rubric.items.front())) {
      Finding f;
      f.kind = FindingKind::build_error;
      f.summary = "refused before any device built it: " + why;
      Evidence e;
      e.findings.push_back(std::move(f));
      ig.evidence.push_back(std::move(e));
      ig.kinds = {FindingKind::build_error};
      ig.note = "the submission was not built";
    } else {
      ig.blocked_by = buildItem ? buildItem->id : a.rubric.items.front().id;
      ig.note = "not assessed: the kernel was not built";
    }
    g.max_points += ig.max_points;
    g.items.push_back(std::move(ig));
  }
  return g;
}

}  // namespace clh::grade
