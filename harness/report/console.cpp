// The terminal report.
#include <fmt/format.h>

#include <map>

#include "core/sizes.hpp"
#include "report/reporters.hpp"

namespace clh {

namespace {

std::string fit(const std::string& s, size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
}

std::string statusWord(Status s) {
  switch (s) {
    case Status::pass:
      return "pass";  // also the heading of a passing unit's observations
    case Status::fail:
      return "FAIL";
    case Status::expected_failure:
      return "expected failure";
    case Status::unexpected_pass:
      return "FAIL (bug gone)";
    case Status::tool_error:
      return "tool error";
    case Status::skipped:
      return "skipped";
    case Status::not_reproduced:
      return "not reproduced";
  }
  return "?";
}

}  // namespace

std::string describeMismatch(const Mismatch& m) {
  std::string idx;
  for (auto i : m.index) idx += (idx.empty() ? "" : ", ") + std::to_string(i);
  return fmt::format("{}[{}]: got {}, want {}{}", m.buffer, idx, m.unwritten ? "(poison)" : m.got,
                     m.want, m.unwritten ? " (never written)" : "");
}

void writeUnitDetails(std::ostream& os, const UnitResult& u) {
  os << fmt::format("{} {} on {}\n", statusWord(u.status), u.title(), u.device);
  if (!u.message.empty()) os << "  " << u.message << "\n";
  if (u.failing) {
    os << fmt::format("  smallest failing case: {}\n", u.failing->sizes.empty()
                                                           ? std::string("(no size parameters)")
                                                           : formatSizes(u.failing->sizes));
    for (const auto& f : u.failing->findings) {
      os << fmt::format("  {}: {}\n", toString(f.kind), f.summary);
      for (const auto& l : f.lines) os << fmt::format("    {}:{}: {}\n", l.file, l.line, l.text);
      for (const auto& w : f.work_items) os << "    " << w << "\n";
      for (const auto& m : f.mismatches) os << "    " << describeMismatch(m) << "\n";
      if (f.mismatch_count > static_cast<int64_t>(f.mismatches.size()))
        os << fmt::format("    ... {} mismatches in all\n", f.mismatch_count);
      if (!f.raw.empty() &&
          (f.kind == FindingKind::build_error || f.kind == FindingKind::tool_error ||
           f.kind == FindingKind::crash || f.kind == FindingKind::timeout)) {
        std::string raw = f.raw.size() > 2000 ? f.raw.substr(0, 2000) + "\n...(cut)" : f.raw;
        os << "    --- log ---\n";
        size_t pos = 0;
        while (pos < raw.size()) {
          size_t nl = raw.find('\n', pos);
          if (nl == std::string::npos) nl = raw.size();
          os << "    " << raw.substr(pos, nl - pos) << "\n";
          pos = nl + 1;
        }
      }
    }
  }
  if (!u.replay.empty()) os << "  replay: " << u.replay << "\n";
  for (const auto& o : u.observations) os << "  observed: " << o << "\n";
}

void writeConsoleReport(std::ostream& os, const Report& r) {
  os << fmt::format("{:<30} {:<44} {:>5}  {:<17} {:>7} {:>9}\n", "SPEC", "DEVICE", "CASES",
                    "RESULT", "TIME", "GFLOP/s");
  for (const auto& u : r.units) {
    // A simulator's kernel time is interpretation time: no rate is printed for it.
    std::string perf = u.device_kind == "simulator" ? "-"
                       : u.perf.gflops() > 0        ? fmt::format("{:.3f}", u.perf.gflops())
                       : u.perf.gbytes() > 0        ? fmt::format("{:.2f}GB/s", u.perf.gbytes())
                                                    : "-";
    os << fmt::format("{:<30} {:<44} {:>5}  {:<17} {:>6.2f}s {:>9}\n", fit(u.title(), 30),
                      fit(u.device, 44), u.cases_run, statusWord(u.status), u.seconds, perf);
  }
  bool header = false;
  for (const auto& u : r.units) {
    // A skipped unit says why (a buffer too large for the device, no shape run): a skip without
    // its reason on the console reads like a pass.
    if (u.observations.empty() &&
        (u.status == Status::pass || (u.status == Status::skipped && u.message.empty())))
      continue;
    if (!header) os << "\n";
    header = true;
    writeUnitDetails(os, u);
    os << "\n";
  }
  if (!r.drivers.empty()) {
    if (!header) os << "\n";
    header = true;
    writeDriverSection(os, r);
  }
  std::map<Status, int> n;
  for (const auto& u : r.units) n[u.status]++;
  os << fmt::format(
      "{}{} units: {} passed, {} failed, {} expected failures, {} unexpected passes, {} tool "
      "errors, {} skipped{}\n",
      header ? "" : "\n", r.units.size(), n[Status::pass], n[Status::fail],
      n[Status::expected_failure], n[Status::unexpected_pass], n[Status::tool_error],
      n[Status::skipped],
      n[Status::not_reproduced]
          ? fmt::format(", {} expected failures not reproduced", n[Status::not_reproduced])
          : "");
  if (!r.drivers.empty()) {
    std::map<BaselineMark, int> m;
    int deviations = 0;
    for (const auto& d : r.drivers)
      for (const auto& f : d.findings) {
        m[f.mark]++;
        deviations += f.mark != BaselineMark::missing && f.mark != BaselineMark::fix &&
                      (f.verdict == DriverVerdict::deviates ||
                       f.verdict == DriverVerdict::crashed || f.verdict == DriverVerdict::hung);
      }
    os << fmt::format(
        "drivers: {} deviations, crashes or hangs on {} device(s){}\n", deviations,
        r.drivers.size(),
        r.regression_mode
            ? fmt::format(" (regression mode: {} regressions, {} new, {} flaky, {} fixes, {} "
                          "missing)",
                          m[BaselineMark::regression], m[BaselineMark::fresh],
                          m[BaselineMark::flaky], m[BaselineMark::fix], m[BaselineMark::missing])
            : " (never a kernel's verdict; --baseline compares them)");
  }
}

void writeDriverSection(std::ostream& os, const Report& r) {
  os << "DRIVERS: what each driver answered where the specification forbids a call or leaves it "
        "open (never a kernel's verdict)\n";
  for (const auto& d : r.drivers) {
    os << fmt::format("{} (driver {}, {})\n", d.device, d.driver_version, d.device_type);
    os << "  baseline: " << (d.baseline_note.empty() ? "none" : d.baseline_note) << "\n";
    for (const auto& n : d.notes) os << "  note: " << n << "\n";
    std::vector<std::string> skipped;
    for (const auto& f : d.findings) {
      if (f.verdict == DriverVerdict::skipped &&
          (f.mark == BaselineMark::none || f.mark == BaselineMark::known)) {
        skipped.push_back(f.check + (f.detail.empty() ? "" : " (" + f.detail + ")"));
        continue;
      }
      const std::string mark =
          f.mark == BaselineMark::none ? std::string()
          : f.mark == BaselineMark::fresh
              ? std::string("NEW ")
              : (f.mark == BaselineMark::regression ? "REGRESSION "
                                                    : std::string(toString(f.mark)) + " ");
      os << fmt::format("  {}{} {}", mark, toString(f.verdict), f.check);
      if (!f.got.empty()) os << ": got " << f.got;
      if (!f.allowed.empty()) os << "; allowed: " << f.allowed;
      if (!f.before.empty()) os << "; baseline: " << f.before;
      os << "\n";
      if (!f.detail.empty()) os << "    " << f.detail << "\n";
      if (!f.replay.empty()) os << "    replay: " << f.replay << "\n";
    }
    os << fmt::format(
        "  {} check(s) conform{}\n", d.conforming,
        skipped.empty() ? "" : fmt::format("; {} could not run here", skipped.size()));
    for (const auto& s : skipped) os << "    not run: " << s << "\n";
  }
  os << "\n";
}

}  // namespace clh
