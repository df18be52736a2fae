// A scan's result for a person (renderScan) and as JSON (scan/scan.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <numeric>
#include <random>
#include <regex>
#include <set>

#include "core/reference.hpp"
#include "core/result.hpp"
#include "core/text.hpp"
#include "scan/scan.hpp"
#include "sim/work_groups.hpp"

namespace clh::scan {

std::string renderScan(const ScanResult& r) {
  std::string out = fmt::format("scan of {} in {} on {}\n", r.kernel, r.source, r.device);
  out += fmt::format("  global {}  local {}{}  build options: {}\n", commaList(r.global),
                     commaList(r.local), r.local_chosen ? " (chosen)" : "", r.build_options);
  for (const auto& a : r.arguments)
    out += fmt::format("  arg {} {:<12} {:<8} {:<16} {}{}\n", a.index, a.name, a.address_space,
                       a.type_name, a.given,
                       a.from_user ? (r.sim_file.empty() ? " (--arg)" : " (.sim)") : "");
  for (const auto& n : r.notes) out += "  note: " + n + "\n";
  if (r.tries.size() > 1) {
    std::string list;
    for (const auto& t : r.tries)
      list += fmt::format("{}{} ({}, {:.2f}s)", list.empty() ? "" : "; ", t.values, t.findings,
                          t.seconds);
    out += "  launches (diagnostics, time): " + list + "\n";
  }
  if (!r.not_run.empty()) {
    std::string list;
    for (const auto& l : r.not_run) list += (list.empty() ? "" : "; ") + l;
    out += "  launches not run: " + list + "\n";
  }
  if (r.findings.empty()) return out + "no diagnostics\n";
  out += fmt::format("{} diagnostic{}:\n", r.findings.size(), r.findings.size() == 1 ? "" : "s");
  for (const auto& f : r.findings) {
    out += fmt::format("  {}{}: {}\n", toString(f.kind),
                       f.address_space.empty() ? "" : " (" + f.address_space + ")", f.summary);
    for (const auto& l : f.lines) out += fmt::format("      {}:{}: {}\n", l.file, l.line, l.text);
    if (!f.work_items.empty()) {
      std::string who;
      for (const auto& w : f.work_items) who += (who.empty() ? "" : "; ") + w;
      out += "      work-items: " + who + "\n";
    }
    if (f.kind == FindingKind::build_error && !f.raw.empty()) out += f.raw + "\n";
  }
  return out;
}

void to_json(nlohmann::json& j, const ScanArgument& a) {
  j = {{"index", a.index},         {"name", a.name},   {"address_space", a.address_space},
       {"type_name", a.type_name}, {"given", a.given}, {"from_user", a.from_user}};
}

void from_json(const nlohmann::json& j, ScanArgument& a) {
  a.index = j.value("index", 0);
  a.name = j.value("name", "");
  a.address_space = j.value("address_space", "");
  a.type_name = j.value("type_name", "");
  a.given = j.value("given", "");
  a.from_user = j.value("from_user", false);
}

void to_json(nlohmann::json& j, const ScanTry& t) {
  j = {{"values", t.values}, {"local", t.local}, {"findings", t.findings}, {"seconds", t.seconds}};
}

void from_json(const nlohmann::json& j, ScanTry& t) {
  t.values = j.value("values", "");
  t.local = j.value("local", std::vector<size_t>{});
  t.findings = j.value("findings", size_t{0});
  t.seconds = j.value("seconds", 0.0);
}

void to_json(nlohmann::json& j, const ScanResult& r) {
  j = {{"device", r.device},       {"kernel", r.kernel},
       {"source", r.source},       {"build_options", r.build_options},
       {"sim_file", r.sim_file},   {"global", r.global},
       {"local", r.local},         {"local_chosen", r.local_chosen},
       {"arguments", r.arguments}, {"findings", r.findings},
       {"notes", r.notes},         {"tries", r.tries},
       {"not_run", r.not_run}};
}

void from_json(const nlohmann::json& j, ScanResult& r) {
  r.device = j.value("device", "");
  r.kernel = j.value("kernel", "");
  r.source = j.value("source", "");
  r.build_options = j.value("build_options", "");
  r.sim_file = j.value("sim_file", "");
  r.global = j.value("global", std::vector<size_t>{});
  r.local = j.value("local", std::vector<size_t>{});
  r.local_chosen = j.value("local_chosen", false);
  r.arguments = j.value("arguments", std::vector<ScanArgument>{});
  r.findings = j.value("findings", std::vector<Finding>{});
  r.notes = j.value("notes", std::vector<std::string>{});
  r.tries = j.value("tries", std::vector<ScanTry>{});
  r.not_run = j.value("not_run", std::vector<std::string>{});
}

}  // namespace clh::scan
