// The HTML report of `clharness check` and `merge` (the format "html", docs/report.md): summary,
// devices, the driver matrix, and per spec its units, findings with source, replay and plots.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "report/html.hpp"
#include "report/reporters.hpp"

namespace clh {

namespace {

using html::escape;

constexpr Status kStatusOrder[] = {
    Status::fail,           Status::unexpected_pass, Status::tool_error, Status::expected_failure,
    Status::not_reproduced, Status::skipped,         Status::pass};

// The spec's units (its families on every device), in the report's order.
struct SpecGroup {
  std::string name, file;
  std::vector<const UnitResult*> units;
};

std::vector<SpecGroup> groupBySpec(const Report& r) {
  std::vector<SpecGroup> out;
  std::map<std::string, size_t> at;
  for (const auto& u : r.units) {
    auto [it, fresh] = at.emplace(u.spec_file + "\n" + u.spec, out.size());
    if (fresh) out.push_back({u.spec, u.spec_file, {}});
    out[it->second].units.push_back(&u);
  }
  return out;
}

// The most telling status of a group: a failure first, a pass last.
Status worst(const SpecGroup& g) {
  for (Status s : kStatusOrder)
    for (const auto* u : g.units)
      if (u->status == s) return s;
  return Status::pass;
}

std::string rateText(const UnitResult& u) {
  if (u.device_kind == "simulator") return "&ndash;";
  if (u.perf.gflops() > 0) return fmt::format("{:.3g} GFLOP/s", u.perf.gflops());
  if (u.perf.gbytes() > 0) return fmt::format("{:.3g} GB/s", u.perf.gbytes());
  return "";
}

std::string unitRow(const UnitResult& u) {
  return fmt::format(
      "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{:.2f} s</td><td "
      "class=\"num\">{}</td><td>{}</td>"
      "</tr>\n",
      escape(u.device), escape(u.family), html::badge(toString(u.status), toString(u.status)),
      u.cases_run, u.seconds, rateText(u), escape(u.message));
}

std::string unitDetails(const UnitResult& u) {
  if (!u.failing && u.observations.empty()) return "";
  std::string out =
      fmt::format("<h4>{} on {} &mdash; {}</h4>\n", escape(u.title()), escape(u.device),
                  html::badge(toString(u.status), toString(u.status)));
  const std::vector<std::string> folders = {
      std::filesystem::path(u.spec_file).parent_path().string()};
  if (u.failing) {
    out += "<p>Smallest failing case: <code>" + escape(html::formatSizesList(u.failing->sizes)) +
           "</code></p>\n";
    const bool expected = u.status == Status::expected_failure;
    for (const auto& f : u.failing->findings) out += html::renderFinding(f, folders, expected);
  }
  if (!u.replay.empty()) out += "<p>Replay:</p><pre class=\"cmd\">" + escape(u.replay) + "</pre>\n";
  if (!u.observations.empty()) {
    out += "<details><summary>observations</summary><ul>";
    for (const auto& o : u.observations) out += "<li>" + escape(o) + "</li>";
    out += "</ul></details>\n";
  }
  return out;
}

// GFLOP/s (or GB/s) against size, and the time of each case, one series per device.
std::string specPlots(const SpecGroup& g, const std::vector<std::string>& devices) {
  std::vector<const UnitResult*> cases;
  for (const auto* u : g.units)
    if (u->family == "cases") cases.push_back(u);
  if (cases.empty()) return "";
  bool flops = false, bytes = false, any = false;
  for (const auto* u : cases)
    for (const auto& s : u->perf_samples) {
      any = true;
      flops |= s.flops && *s.flops > 0;
      bytes |= s.bytes && *s.bytes > 0;
    }
  const std::string x = "problem size: elements in the case's buffers";
  auto colorOf = [&](const std::string& device) {
    for (size_t i = 0; i < devices.size(); ++i)
      if (devices[i] == device) return html::seriesColor(i);
    return html::seriesColor(devices.size());
  };
  html::Plot rate{std::string(flops ? "GFLOP/s" : "GB/s") + " against problem size",
                  x,
                  flops ? "GFLOP/s (flops / kernel time)" : "GB/s (bytes / kernel time)",
                  {},
                  true,
                  html::Plot::LogY::automatic,
                  any ? "nothing to plot: the spec states neither flops nor bytes, so no case has "
                        "a rate (docs/spec.md)"
                      : "nothing to plot: no case of this spec has a kernel time in this report"};
  html::Plot time{"Time per case: harness (hollow) and kernel (filled)",
                  x,
                  "ms per case",
                  {},
                  true,
                  html::Plot::LogY::automatic,
                  "nothing to plot: no case of this spec has a kernel time in this report"};
  bool simulator = false;
  for (const auto* u : cases) {
    simulator |= u->device_kind == "simulator" && !u->perf_samples.empty();
    html::PlotSeries r{u->device, {}, colorOf(u->device), false};
    html::PlotSeries k{u->device + ": kernel", {}, colorOf(u->device), false};
    html::PlotSeries w{u->device + ": harness", {}, colorOf(u->device), true};
    for (const auto& s : u->perf_samples) {
      const double work = flops ? s.flops.value_or(0) : s.bytes.value_or(0);
      if ((flops || bytes) && work > 0 && s.kernel_ns > 0)
        r.points.emplace_back(s.size, work / s.kernel_ns);
      k.points.emplace_back(s.size, s.kernel_ns / 1e6);
      w.points.emplace_back(s.size, s.wall_ns / 1e6);
    }
    if (!r.points.empty()) rate.series.push_back(std::move(r));
    if (!k.points.empty()) {
      time.series.push_back(std::move(k));
      time.series.push_back(std::move(w));
    }
  }
  std::string out =
      "<div class=\"plots\">\n" + html::renderPlot(rate) + html::renderPlot(time) + "</div>\n";
  if (any)
    out += "<p class=\"note\">Each point is one case (up to " + std::to_string(kMaxPerfSamples) +
           " per device, spread over the run). Harness time is the whole case as the tool ran it "
           "(build, inputs, launches, read-back, reference and comparison); kernel time is the "
           "profiling events'." +
           (simulator ? std::string(" A simulator's times are the simulation's, not a device's.")
                      : "") +
           "</p>\n";
  return out;
}

void writeSummary(std::ostream& os, const Report& r, const std::vector<SpecGroup>& specs) {
  os << "<p class=\"meta\">clharness <b>" << escape(r.tool_version) << "</b> &middot; seed <b>"
     << r.seed << "</b>";
  if (!r.shard.empty()) os << " &middot; shard <b>" << escape(r.shard) << "</b>";
  if (r.regression_mode) os << " &middot; regression mode (--baseline)";
  os << " &middot; " << specs.size() << " spec(s) &middot; " << r.devices.size()
     << " device(s)</p>\n";
  if (!r.interrupted_by.empty())
    os << "<p class=\"finding\"><b>Incomplete:</b> the run was interrupted by "
       << escape(r.interrupted_by) << "; " << r.units.size() << " of " << r.units_planned
       << " units finished.</p>\n";
  std::map<Status, int> counts;
  for (const auto& u : r.units) ++counts[u.status];
  os << "<div class=\"counts\"><div class=\"count\"><span class=\"n\">" << r.units.size()
     << "</span>units</div>";
  for (Status s : kStatusOrder)
    if (counts[s])
      os << fmt::format("<div class=\"count s-{0}\"><span class=\"n\">{1}</span>{0}</div>",
                        toString(s), counts[s]);
  os << "</div>\n<p>"
     << (reportPasses(r) ? html::badge("the run passes", "pass")
                         : html::badge("the run fails", "fail"))
     << "</p>\n";

  os << "<h2 id=\"devices\">Devices</h2>\n<table><tr><th>device</th><th>kind</th><th>units</th>";
  for (Status s : kStatusOrder)
    if (counts[s]) os << "<th>" << toString(s) << "</th>";
  os << "</tr>\n";
  for (const auto& d : r.devices) {
    std::map<Status, int> c;
    std::string kind;
    int n = 0;
    for (const auto& u : r.units)
      if (u.device == d) ++c[u.status], ++n, kind = u.device_kind;
    os << "<tr><td>" << escape(d) << "</td><td>" << escape(kind) << "</td><td>" << n << "</td>";
    for (Status s : kStatusOrder)
      if (counts[s]) os << "<td>" << (c[s] ? std::to_string(c[s]) : "") << "</td>";
    os << "</tr>\n";
  }
  os << "</table>\n";
}

}  // namespace

void writeHtmlReport(std::ostream& os, const Report& r) {
  const std::vector<SpecGroup> specs = groupBySpec(r);
  html::beginPage(os, "clharness report");
  writeSummary(os, r, specs);

  os << "<nav class=\"toc\">";
  for (const auto& g : specs) {
    const Status w = worst(g);
    os << "<a href=\"#" << html::anchorId("spec-", g.file + "\n" + g.name) << "\">"
       << html::badge(toString(w), toString(w)) << " " << escape(g.name) << "</a>";
  }
  os << "</nav>\n";

  os << "<h2 id=\"matrix\">Driver matrix</h2>\n<p class=\"meta\">What each driver answered "
        "where the OpenCL specification forbids a call or leaves it open (docs/semantics.md): a "
        "row per check, a column per device. Never part of a kernel's verdict.</p>\n";
  // A column for every device of the report: one without a driver section reads "not run".
  std::vector<DriverReport> sections = r.drivers;
  std::vector<std::string> without;
  if (!sections.empty())
    for (const auto& d : r.devices)
      if (std::none_of(sections.begin(), sections.end(),
                       [&](const DriverReport& s) { return s.device == d; })) {
        sections.push_back(DriverReport{});
        sections.back().device = d;
        without.push_back(d);
      }
  os << html::renderMatrix(html::driverMatrix(sections));
  for (const auto& d : without)
    os << "<p class=\"note\">" << escape(d)
       << ": no driver section in this report (--no-driver-checks, or the run that had this "
          "device did not run them): its column reads \"not run\"</p>\n";
  for (const auto& d : r.drivers) {
    if (d.baseline_note.empty() && d.notes.empty()) continue;
    os << "<p class=\"meta\"><b>" << escape(d.device)
       << "</b>: baseline: " << escape(d.baseline_note.empty() ? "none" : d.baseline_note);
    for (const auto& n : d.notes) os << "; " << escape(n);
    os << "</p>\n";
  }

  os << "<h2 id=\"specs\">Specs</h2>\n";
  for (const auto& g : specs) {
    os << "<section id=\"" << html::anchorId("spec-", g.file + "\n" + g.name) << "\"><h3>"
       << escape(g.name) << " <small class=\"meta\">" << escape(g.file) << "</small></h3>\n";
    os << "<table><tr><th>device</th><th>family</th><th>status</th><th>cases</th><th>time</th>"
          "<th>rate</th><th>message</th></tr>\n";
    for (const auto* u : g.units) os << unitRow(*u);
    os << "</table>\n";
    for (const auto* u : g.units) os << unitDetails(*u);
    os << specPlots(g, r.devices) << "</section>\n";
  }
  html::endPage(os, r.tool_version);
}

}  // namespace clh
