// From device runs to points: attributing each finding to a rubric item, excusing the tools'
// failures, and the JSON form of a grade.
#include "grade/grade.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "core/shell.hpp"
#include "core/sizes.hpp"
#include "grade/source_guard.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace clh::grade {

namespace {

bool isResultsSymptom(FindingKind k) {
  return k == FindingKind::wrong_result || k == FindingKind::unwritten;
}

bool judges(const RubricItem& item, const DeviceRun& r) {
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
  for (auto& l : f.lines) l.file = withoutHostPaths(studentPaths(l.file, s));
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

std::string regexWord(const std::string& text) {
  std::string word = text.substr(0, text.find(' '));
  return regexEscape(word);
}

std::string formatNs(double ns) {
  if (ns >= 1e9) return fmt::format("{:.2f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.2f} ms", ns / 1e6);
  return fmt::format("{:.1f} us", ns / 1e3);
}

}  // namespace

std::string_view toString(RunEnd end) {
  switch (end) {
    case RunEnd::completed:
      return "completed";
    case RunEnd::timeout:
      return "timeout";
    case RunEnd::crashed:
      return "crashed";
    case RunEnd::tool_error:
      return "tool_error";
  }
  return "?";
}

std::string Submission::file_name() const {
  return fs::path(path).filename().string();
}

std::string Submission::safe_id() const {
  std::string out;
  for (char c : id) {
    if (c == '/')
      out += "__";
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')
      out += c;
    else
      out += '_';
  }
  if (out.empty() || out[0] == '.') out = "_" + out;
  return out;
}

const ItemGrade* Grade::item(const std::string& id) const {
  for (const auto& i : items)
    if (i.id == id) return &i;
  return nullptr;
}

std::string shortDeviceRegex(const std::string& device, const std::vector<std::string>& devices) {
  const std::vector<std::string> all = devices.empty() ? std::vector<std::string>{device} : devices;
  const size_t colon = device.find(": ");
  std::vector<std::string> candidates;
  if (colon != std::string::npos) {
    const std::string platform = device.substr(0, colon), name = device.substr(colon + 2);
    candidates.push_back(regexWord(platform));
    candidates.push_back(regexWord(platform) + ".*" + regexWord(name));
  }
  for (const auto& c : candidates) {
    if (c.empty()) continue;
    std::regex re(c, std::regex::ECMAScript | std::regex::icase);
    int matches = 0;
    bool self = false;
    for (const auto& d : all) {
      const bool hit = std::regex_search(d, re);
      matches += hit ? 1 : 0;
      self = self || (hit && d == device);
    }
    if (self && matches == 1) return c;
  }
  return exactDeviceRegex(device);
}

std::string gradeReplayCommand(const GradeContext& ctx, const Submission& s,
                               const std::string& device, const Sizes& sizes) {
  return fmt::format("{} grade --assignment {} {} --device {} --seed {} --sizes {}", ctx.tool,
                     shellQuote(ctx.assignment_argument), shellQuote(s.file_name()),
                     shellQuote(shortDeviceRegex(device, ctx.devices)), ctx.seed,
                     shellQuote(formatSizes(sizes)));
}

std::string studentPaths(const std::string& text, const Submission& s) {
  if (text.empty()) return text;
  std::string out = text;
  auto replaceAll = [&out](const std::string& from, const std::string& to) {
    if (from.empty() || from == to) return;
    for (size_t pos = out.find(from); pos != std::string::npos;
         pos = out.find(from, pos + to.size()))
      out.replace(pos, from.size(), to);
  };
  std::error_code ec;
  std::string absolute = fs::absolute(s.path, ec).lexically_normal().string();
  replaceAll(absolute, s.file_name());
  if (s.path != s.file_name()) replaceAll(s.path, s.file_name());
  // PoCL builds a copy in its kernel cache; Oclgrind calls every program "input.cl".
  out = std::regex_replace(out, std::regex(R"([^\s:'"]*tempfile_[A-Za-z0-9]+\.cl)"), s.file_name());
  out = std::regex_replace(out, std::regex(R"((^|[\s'"(])input\.cl\b)"), "$1" + s.file_name());
  return out;
}

std::string gradeFingerprint(const Assignment& a, const std::string& submission_bytes,
                             uint64_t seed, int cases, int simulator_cases,
                             const std::vector<std::string>& devices) {
  std::string all = std::string(kGradeSchema) + '\0' + submission_bytes + '\0' + a.spec_text +
                    '\0' + a.rubric_text + '\0' + a.reference_text + '\0' + std::to_string(seed) +
                    '\0' + std::to_string(cases) + '\0' + std::to_string(simulator_cases);
  std::vector<std::string> sorted = devices;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& d : sorted) all += '\0' + d;
  return fmt::format("{:016x}", hash64(all, 0x6772616465ull));
}

Grade gradeSubmission(const Assignment& a, const Submission& s, const std::vector<DeviceRun>& input,
                      const GradeContext& ctx) {
  const Rubric& rubric = a.rubric;
  Grade g;
  g.assignment = a.name;
  g.assignment_title = rubric.title;
  g.submission = s.id;
  g.file = s.file_name();
  g.seed = ctx.seed;
  g.graded_at = nowUtc();
  g.runs = input;
  // The student's kernel against the assignment's interface: differences come first in the
  // feedback, and the harness's buffer names become the student's parameter names.
  std::map<std::string, std::string> names;
  const std::set<std::string> techniques = techniquesUsed(s.text);
  if (!s.text.empty() && !a.spec.launches.empty()) {
    const LaunchSpec& launch = a.spec.launches.front();
    auto want = kernelParameters(a.reference_text, launch.kernel);
    auto got = kernelParameters(s.text, launch.kernel);
    if (want && got) {
      g.interface_differences = interfaceDifferences(*want, *got);
      for (size_t i = 0; i < launch.args.size() && i < got->size(); ++i)
        if (launch.args[i].kind == ArgSpec::Kind::buffer && !(*got)[i].name.empty() &&
            (*got)[i].name != launch.args[i].buffer)
          names.emplace(launch.args[i].buffer, (*got)[i].name);
    } else if (want && !got) {
      g.interface_differences.push_back("no kernel named '" + launch.kernel +
                                        "' was found in your file: the assignment launches '" +
                                        launch.kernel + "'");
    }
  }
  for (auto& r : g.runs) {
    if (r.unit && r.unit->failing)
      for (auto& f : r.unit->failing->findings) {
        rewrite(f, s);
        studentNames(f, names);
      }
    if (r.lost)
      for (auto& f : r.lost->findings) rewrite(f, s);
    if (r.unit) {
      r.unit->replay.clear();  // it would run the reference solution; evidence has ours
      r.unit->spec_file = fs::path(r.unit->spec_file).filename().string();  // no grader paths
    }
  }
  const std::vector<DeviceRun>& runs = g.runs;

  // Which runs say nothing about the student: a tool failure, a simulator that crashed, or a
  // simulator that ran out of time on a kernel every real device finished.
  bool realFinished = false, realStuck = false;
  for (const auto& r : runs) {
    if (r.simulator) continue;
    if (r.end == RunEnd::completed && !hasToolError(r)) realFinished = true;
    if (r.end == RunEnd::timeout || r.end == RunEnd::crashed) realStuck = true;
  }
  std::vector<bool> excused(runs.size(), false);
  for (size_t i = 0; i < runs.size(); ++i) {
    const DeviceRun& r = runs[i];
    excused[i] = r.end == RunEnd::tool_error || hasToolError(r) ||
                 (r.simulator && r.end == RunEnd::timeout && realFinished && !realStuck);
  }

  // Attribute each finding of each counted run to the item that claims its kind.
  std::vector<std::vector<Evidence>> evidence(rubric.items.size());
  auto indexOf = [&](const RubricItem* item) {
    return static_cast<size_t>(item - rubric.items.data());
  };
  for (size_t i = 0; i < runs.size(); ++i) {
    if (excused[i]) continue;
    const DeviceRun& r = runs[i];
    for (const CaseOutcome* c : casesOf(r)) {
      // On the simulator a wrong result that comes with a race, a divergence or a bad access in
      // the same case is its symptom (the simulator's schedule exposes it): it goes to that item.
      const RubricItem* simItem = nullptr;
      if (r.simulator)
        for (const auto& f : c->findings)
          if (const RubricItem* it = rubric.itemFor(f.kind);
              it && it->check == ItemCheck::simulator && !simItem)
            simItem = it;
      // A stray read returns a value nobody wrote: the uninitialized value that follows is its
      // consequence, reported under the out-of-bounds read, not as a cause of its own.
      const RubricItem* strayReadItem = nullptr;
      for (const auto& f : c->findings)
        if (f.kind == FindingKind::out_of_bounds && isStrayRead(f))
          strayReadItem = rubric.itemFor(FindingKind::out_of_bounds);
      std::map<size_t, Evidence> byItem;
      Evidence other;
      for (const auto& f : c->findings) {
        const RubricItem* item = rubric.itemFor(f.kind);
        if (strayReadItem && f.kind == FindingKind::uninitialized) {
          byItem[indexOf(strayReadItem)].symptoms.push_back(f);
        } else if (item && simItem && item->check == ItemCheck::results &&
                   isResultsSymptom(f.kind)) {
          byItem[indexOf(simItem)].symptoms.push_back(f);
        } else if (item) {
          byItem[indexOf(item)].findings.push_back(f);
        } else {
          other.findings.push_back(f);
        }
      }
      // A process lost before its first case knows no sizes, so there is nothing to replay.
      const bool sizesKnown = !(r.lost && c == &*r.lost) || r.cases_started > 0;
      auto stamp = [&](Evidence& e) {
        e.device = r.device;
        e.shrunk = !(r.lost && c == &*r.lost);
        if (sizesKnown) {
          e.sizes = c->sizes;
          e.replay = gradeReplayCommand(ctx, s, r.device, c->sizes);
        }
      };
      for (auto& [idx, e] : byItem) {
        stamp(e);
        evidence[idx].push_back(std::move(e));
      }
      if (!other.findings.empty()) {
        stamp(other);
        g.other_findings.push_back(std::move(other));
      }
    }
  }

  const RubricItem* buildItem = rubric.firstOf(ItemCheck::build);
  const RubricItem* resultsItem = rubric.firstOf(ItemCheck::results);
  bool buildFailed = false;
  for (size_t k = 0; k < rubric.items.size(); ++k)
    for (const auto& e : evidence[k])
      for (const auto& f : e.findings)
        if (f.kind == FindingKind::build_error) buildFailed = true;
  bool resultsFailed = resultsItem && !evidence[indexOf(resultsItem)].empty();
  // A kernel that never launched on a device was not checked there: an item judged only by such
  // runs earns nothing (as after a failed build).
  auto launchBlocks = [&](const std::vector<size_t>& judging) {
    if (judging.empty()) return false;
    for (size_t i : judging)
      if (!hasLaunchError(runs[i])) return false;
    return true;
  };

  for (size_t k = 0; k < rubric.items.size(); ++k) {
    const RubricItem& item = rubric.items[k];
    ItemGrade ig;
    ig.id = item.id;
    ig.title = item.title;
    ig.check = item.check;
    ig.max_points = item.points;
    ig.evidence = std::move(evidence[k]);
    std::set<FindingKind> kinds;
    for (const auto& e : ig.evidence)
      for (const auto& f : e.findings) kinds.insert(f.kind);
    ig.kinds.assign(kinds.begin(), kinds.end());

    std::vector<size_t> judging;
    for (size_t i = 0; i < runs.size(); ++i)
      if (judges(item, runs[i])) judging.push_back(i);
    auto excuse = [&](size_t i) {
      Evidence e;
      e.device = runs[i].device;
      for (const CaseOutcome* c : casesOf(runs[i]))
        for (const auto& f : c->findings) e.findings.push_back(f);
      e.note = "not the student's fault: the tool failed here while another device ran the kernel";
      return e;
    };

    if (!ig.evidence.empty()) {
      ig.passed = false;
      if (std::count(ig.kinds.begin(), ig.kinds.end(), FindingKind::launch_error) &&
          !g.interface_differences.empty())
        ig.note = "the kernel could not be launched: " + g.interface_differences.front();
    } else if (buildFailed && item.check != ItemCheck::build) {
      ig.blocked_by = buildItem ? buildItem->id : "build";
      ig.note = "not assessed: the kernel does not build";
    } else if (item.check == ItemCheck::uses) {
      std::vector<std::string> missing;
      for (const auto& t : item.uses)
        if (!techniques.count(t)) missing.push_back(t);
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
    } else if (item.check == ItemCheck::simulator && launchBlocks(judging)) {
      ig.blocked_by = resultsItem ? resultsItem->id : "results";
      ig.note =
          "not assessed: the kernel could not be launched on the simulator, so nothing "
          "checked it there";
    } else if (item.check == ItemCheck::speed && resultsFailed) {
      ig.blocked_by = resultsItem->id;
      ig.note = "not assessed: a kernel with wrong results earns no speed points";
    } else if (judging.empty()) {
      ig.assessed = false;
      g.unassessed.push_back(item.id);
      ig.note = item.check == ItemCheck::simulator
                    ? "not assessed: no simulator device was selected"
                    : "not assessed: no real device was selected";
    } else if (item.check == ItemCheck::speed) {
      // Score the slowest device; a device without a sample is excused or lost.
      double fraction = 1;
      int measured = 0;
      const SpeedRule& rule = *item.speed;
      for (size_t i : judging) {
        const DeviceRun& r = runs[i];
        Evidence e;
        e.device = r.device;
        if (excused[i] || !r.speed) {
          if (excused[i]) ig.evidence.push_back(excuse(i));
          continue;
        }
        e.sizes = r.speed->sizes;
        if (!r.speed->problem.empty() || r.speed->reference_ns <= 0) {
          e.note = r.speed->problem.empty() ? "no timing could be taken" : r.speed->problem;
          e.replay = gradeReplayCommand(ctx, s, r.device, r.speed->sizes);
          fraction = 0;
          ++measured;
          ig.evidence.push_back(std::move(e));
          continue;
        }
        ++measured;
        double ratio = r.speed->ratio(), f = 1;
        if (ratio > rule.full_within)
          f = rule.none_beyond > rule.full_within
                  ? std::clamp((rule.none_beyond - ratio) / (rule.none_beyond - rule.full_within),
                               0.0, 1.0)
                  : 0.0;
        fraction = std::min(fraction, f);
        e.note = fmt::format(
            "kernel {} against the reference solution's {}: {:.2f}x ({} within {:.2g}x{})",
            formatNs(r.speed->student_ns), formatNs(r.speed->reference_ns), ratio, "full points",
            rule.full_within,
            rule.none_beyond > 0 ? fmt::format(", none beyond {:.2g}x", rule.none_beyond) : "");
        ig.evidence.push_back(std::move(e));
      }
      if (measured == 0) {
        ig.assessed = false;
        g.review = true;
        ig.note = "not assessed: no real device could time the kernel";
      } else {
        ig.points = item.points * fraction;
        ig.passed = fraction >= 1;
        if (!ig.passed) ig.note = fmt::format("{:.0f}% of the points for speed", fraction * 100);
      }
    } else {
      std::vector<size_t> ok, excusedHere, lostHere;
      for (size_t i : judging) {
        // A run that hung or crashed, even by the simulator's own fault, got as far as running
        // the kernel: it built there.
        const bool ran = runs[i].end == RunEnd::timeout || runs[i].end == RunEnd::crashed;
        if (item.check == ItemCheck::build && ran)
          ok.push_back(i);
        else if (excused[i])
          excusedHere.push_back(i);
        else if (runs[i].end == RunEnd::completed)
          ok.push_back(i);
        else
          lostHere.push_back(i);
      }
      if (!lostHere.empty() && item.check != ItemCheck::results && resultsFailed) {
        ig.blocked_by = resultsItem->id;
        ig.note = fmt::format("not assessed: the kernel did not finish on {} (see '{}')",
                              runs[lostHere[0]].device, resultsItem->id);
      } else if (!lostHere.empty()) {
        ig.assessed = false;
        g.review = true;
        ig.note = fmt::format("not assessed: {} on {}", toString(runs[lostHere[0]].end),
                              runs[lostHere[0]].device);
      } else if (!excusedHere.empty()) {
        bool otherRan = false;
        for (size_t i = 0; i < runs.size(); ++i)
          otherRan = otherRan || (!excused[i] && runs[i].end == RunEnd::completed);
        for (size_t i : excusedHere) ig.evidence.push_back(excuse(i));
        if (ok.empty() && !otherRan) {
          ig.assessed = false;
          g.review = true;
          ig.note = "not assessed: the tools failed on every device; grade it by hand";
        } else {
          ig.passed = true;
          ig.points = item.points;
          ig.not_students_fault = true;
          ig.kinds = {FindingKind::tool_error};
          ig.note = "a tool failed on " + runs[excusedHere[0]].device +
                    " while another device ran the kernel: not the student's fault, no points lost";
        }
      } else {
        ig.passed = true;
        ig.points = item.points;
      }
    }
    g.points += ig.points;
    g.max_points += ig.max_points;
    g.items.push_back(std::move(ig));
  }
  return g;
}

Grade refusedGrade(const Assignment& a, const Submission& s, const std::string& why,
                   const GradeContext& ctx) {
  Grade g;
  g.assignment = a.name;
  g.assignment_title = a.rubric.title;
  g.submission = s.id;
  g.file = s.file_name();
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

// ---- JSON ----

void to_json(json& j, const SpeedSample& s) {
  j = {{"sizes", s.sizes}, {"student_ns", s.student_ns}, {"reference_ns", s.reference_ns}};
  if (s.reference_ns > 0 && s.student_ns > 0) j["ratio"] = s.ratio();
  if (!s.problem.empty()) j["problem"] = s.problem;
}
void from_json(const json& j, SpeedSample& s) {
  s.sizes = j.value("sizes", Sizes{});
  s.student_ns = j.value("student_ns", 0.0);
  s.reference_ns = j.value("reference_ns", 0.0);
  s.problem = j.value("problem", "");
}

void to_json(json& j, const DeviceRun& r) {
  j = {{"device", r.device},     {"device_kind", r.device_kind},     {"simulator", r.simulator},
       {"end", toString(r.end)}, {"cases_started", r.cases_started}, {"seconds", r.seconds}};
  if (r.distinct_cases > 0) j["distinct_cases"] = r.distinct_cases;
  if (r.unit) j["unit"] = *r.unit;
  if (r.lost) j["lost"] = *r.lost;
  if (r.speed) j["speed"] = *r.speed;
}
void from_json(const json& j, DeviceRun& r) {
  r.device = j.value("device", "");
  r.device_kind = j.value("device_kind", "");
  r.simulator = j.value("simulator", false);
  std::string end = j.value("end", "completed");
  for (RunEnd e : {RunEnd::completed, RunEnd::timeout, RunEnd::crashed, RunEnd::tool_error})
    if (end == toString(e)) r.end = e;
  r.cases_started = j.value("cases_started", 0);
  r.distinct_cases = j.value("distinct_cases", 0);
  r.seconds = j.value("seconds", 0.0);
  if (j.contains("unit")) r.unit = j["unit"].get<UnitResult>();
  if (j.contains("lost")) r.lost = j["lost"].get<CaseOutcome>();
  if (j.contains("speed")) r.speed = j["speed"].get<SpeedSample>();
}

void to_json(json& j, const Evidence& e) {
  j = {{"device", e.device}, {"findings", e.findings}};
  if (e.sizes) j["sizes"] = *e.sizes;
  if (!e.replay.empty()) j["replay"] = e.replay;
  if (!e.symptoms.empty()) j["symptoms"] = e.symptoms;
  if (!e.note.empty()) j["note"] = e.note;
  if (!e.shrunk) j["shrunk"] = false;
}
void from_json(const json& j, Evidence& e) {
  e.device = j.value("device", "");
  e.findings = j.value("findings", std::vector<Finding>{});
  if (j.contains("sizes")) e.sizes = j["sizes"].get<Sizes>();
  e.replay = j.value("replay", "");
  e.symptoms = j.value("symptoms", std::vector<Finding>{});
  e.note = j.value("note", "");
  e.shrunk = j.value("shrunk", true);
}

void to_json(json& j, const ItemGrade& i) {
  json kinds = json::array();
  for (auto k : i.kinds) kinds.push_back(toString(k));
  j = {{"id", i.id},
       {"title", i.title},
       {"check", toString(i.check)},
       {"result", i.passed ? "pass" : "fail"},
       {"points", i.points},
       {"max_points", i.max_points},
       {"kinds", kinds},
       {"assessed", i.assessed},
       {"not_students_fault", i.not_students_fault},
       {"evidence", i.evidence}};
  j["blocked_by"] = i.blocked_by.empty() ? json(nullptr) : json(i.blocked_by);
  if (!i.note.empty()) j["note"] = i.note;
}
void from_json(const json& j, ItemGrade& i) {
  i.id = j.value("id", "");
  i.title = j.value("title", "");
  i.check = itemCheckFromString(j.value("check", "results")).value_or(ItemCheck::results);
  i.passed = j.value("result", "fail") == "pass";
  i.points = j.value("points", 0.0);
  i.max_points = j.value("max_points", 0.0);
  i.kinds.clear();
  for (const auto& k : j.value("kinds", std::vector<std::string>{}))
    if (auto kind = findingKindFromString(k)) i.kinds.push_back(*kind);
  i.assessed = j.value("assessed", true);
  i.not_students_fault = j.value("not_students_fault", false);
  i.evidence = j.value("evidence", std::vector<Evidence>{});
  i.blocked_by = j.contains("blocked_by") && j["blocked_by"].is_string()
                     ? j["blocked_by"].get<std::string>()
                     : "";
  i.note = j.value("note", "");
}

void to_json(json& j, const Grade& g) {
  j = {{"schema", kGradeSchema},
       {"assignment", g.assignment},
       {"assignment_title", g.assignment_title},
       {"submission", g.submission},
       {"file", g.file},
       {"fingerprint", g.fingerprint},
       {"seed", g.seed},
       {"points", g.points},
       {"max_points", g.max_points},
       {"review", g.review},
       {"items", g.items},
       {"other_findings", g.other_findings},
       {"devices", g.runs},
       {"seconds", g.seconds},
       {"graded_at", g.graded_at}};
  if (!g.interface_differences.empty()) j["interface_differences"] = g.interface_differences;
  if (!g.unassessed.empty()) j["unassessed"] = g.unassessed;
}
void from_json(const json& j, Grade& g) {
  if (j.value("schema", "") != kGradeSchema)
    throw std::runtime_error("not a " + std::string(kGradeSchema) + " file");
  g.assignment = j.value("assignment", "");
  g.assignment_title = j.value("assignment_title", "");
  g.submission = j.value("submission", "");
  g.file = j.value("file", "");
  g.fingerprint = j.value("fingerprint", "");
  g.seed = j.value("seed", uint64_t{0});
  g.points = j.value("points", 0.0);
  g.max_points = j.value("max_points", 0.0);
  g.review = j.value("review", false);
  g.items = j.value("items", std::vector<ItemGrade>{});
  g.other_findings = j.value("other_findings", std::vector<Evidence>{});
  g.runs = j.value("devices", std::vector<DeviceRun>{});
  g.seconds = j.value("seconds", 0.0);
  g.graded_at = j.value("graded_at", "");
  g.interface_differences = j.value("interface_differences", std::vector<std::string>{});
  g.unassessed = j.value("unassessed", std::vector<std::string>{});
}

}  // namespace clh::grade
