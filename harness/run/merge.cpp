// Merging shard reports (run/merge.hpp).
#include "run/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/shard.hpp"
#include "run/check.hpp"

namespace clh {

namespace {

// A report's units that no report before it had; a unit that came twice is noted, the first kept.
void mergeUnits(MergeOutcome& out, std::map<std::string, std::string>& seen, const Report& r,
                const std::string& name) {
  for (const auto& u : r.units) {
    const std::string key = u.family + "\n" + u.spec_file + "\n" + u.device;
    if (auto [it, fresh] = seen.emplace(key, name); !fresh) {
      out.notes.push_back(fmt::format("{} on {} came twice ({} and {}): the first kept", u.title(),
                                      u.device, it->second, name));
      continue;
    }
    out.report.units.push_back(u);
    // Each unit keeps the version that ran it (cleared again when every input had the same).
    if (out.report.units.back().tool_version.empty())
      out.report.units.back().tool_version = r.tool_version;
  }
}

// The versions of the inputs: one as it was; several listed in the merged report (each unit
// naming its own), or none of the units naming theirs when all were the same.
void settleVersions(Report& m, const std::vector<std::string>& versions) {
  if (versions.size() <= 1) {
    for (auto& u : m.units)
      if (u.tool_version == m.tool_version) u.tool_version.clear();
    return;
  }
  m.tool_version.clear();
  for (const auto& v : versions) m.tool_version += (m.tool_version.empty() ? "" : ", ") + v;
}

// One device's driver section from another shard into the merged one.
void mergeDriverSection(DriverReport& into, const DriverReport& d) {
  for (const auto& f : d.findings) {
    auto same = std::find_if(into.findings.begin(), into.findings.end(),
                             [&](const DriverFinding& g) { return g.check == f.check; });
    if (same == into.findings.end())
      into.findings.push_back(f);
    else if (same->mark == BaselineMark::missing && f.mark != BaselineMark::missing)
      *same = f;  // one shard's specs did not show it, another's did: seen
  }
  // A check that conformed in one shard and was listed in another stays listed.
  for (const auto& c : d.conforming_checks)
    if (std::find(into.conforming_checks.begin(), into.conforming_checks.end(), c) ==
            into.conforming_checks.end() &&
        std::none_of(into.findings.begin(), into.findings.end(),
                     [&](const DriverFinding& g) { return g.check == c; }))
      into.conforming_checks.push_back(c);
}

// Each device's driver section once: the first report's, with the others' merged into it.
void mergeDriverSections(Report& m, std::map<std::string, size_t>& section, const Report& r) {
  for (const auto& d : r.drivers) {
    auto [it, fresh] = section.emplace(d.device, m.drivers.size());
    if (fresh)
      m.drivers.push_back(d);
    else
      mergeDriverSection(m.drivers[it->second], d);
  }
}

}  // namespace

MergeOutcome mergeReports(const std::vector<Report>& reports,
                          const std::vector<std::string>& names) {
  MergeOutcome out;
  Report& m = out.report;
  std::map<std::string, std::string> seen;  // unit key -> the report it came from
  std::map<std::string, size_t> section;    // device -> its index in m.drivers
  std::set<int> shards;
  int shard_count = 0;
  size_t unfinished = 0;              // units the incomplete inputs planned and did not run
  std::vector<std::string> versions;  // the inputs' tool versions, each once, in order
  for (size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    const std::string& name = i < names.size() ? names[i] : fmt::format("report {}", i + 1);
    if (i == 0) {
      m.tool_version = r.tool_version;
      m.seed = r.seed;
    } else if (r.seed != m.seed) {
      out.notes.push_back(fmt::format(
          "{} was made with seed {}, the first report with seed {}: its units are not the same "
          "cases",
          name, r.seed, m.seed));
    }
    if (std::find(versions.begin(), versions.end(), r.tool_version) == versions.end()) {
      if (!versions.empty())
        out.notes.push_back(fmt::format(
            "{} was made with clharness {}, the first report with {}: each unit keeps the "
            "version that ran it (its tool_version)",
            name, r.tool_version, versions.front()));
      versions.push_back(r.tool_version);
    }
    int k = 0, n = 0;
    const bool sharded = parseShard(r.shard, k, n);
    if (sharded) {
      shards.insert(k);
      shard_count = std::max(shard_count, n);
    }
    if (!r.interrupted_by.empty()) {
      out.notes.push_back(fmt::format("{}{} is incomplete (interrupted by {}: {} of {} units ran)",
                                      name, sharded ? " (shard " + r.shard + ")" : "",
                                      r.interrupted_by, r.units.size(), r.units_planned));
      out.complete = false;
      if (m.interrupted_by.empty()) m.interrupted_by = r.interrupted_by;
      // The units it did not run are planned, not run, in the merge too.
      unfinished += r.units_planned > r.units.size() ? r.units_planned - r.units.size() : 0;
    }
    m.regression_mode |= r.regression_mode;
    for (const auto& d : r.devices)
      if (std::find(m.devices.begin(), m.devices.end(), d) == m.devices.end())
        m.devices.push_back(d);
    mergeUnits(out, seen, r, name);
    mergeDriverSections(m, section, r);
  }
  for (int k = 0; k < shard_count; ++k)
    if (!shards.count(k)) {
      out.notes.push_back(
          fmt::format("shard {}/{} is missing: its specs are not in the merge", k, shard_count));
      out.complete = false;
    }
  if (!m.interrupted_by.empty()) m.units_planned = m.units.size() + unfinished;
  settleVersions(m, versions);
  return out;
}

}  // namespace clh
