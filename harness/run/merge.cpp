// Merging shard reports (run/merge.hpp).
#include "run/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/shard.hpp"
#include "run/check.hpp"

namespace clh {

MergeOutcome mergeReports(const std::vector<Report>& reports,
                          const std::vector<std::string>& names) {
  MergeOutcome out;
  Report& m = out.report;
  std::map<std::string, std::string> seen;  // unit key -> the report it came from
  std::map<std::string, size_t> section;    // device -> its index in m.drivers
  std::set<int> shards;
  int shard_count = 0;
  size_t planned = 0;  // the units the inputs' runs planned
  for (size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    const std::string& name = i < names.size() ? names[i] : fmt::format("report {}", i + 1);
    if (i == 0) {
      m.tool_version = r.tool_version;
      m.seed = r.seed;
    } else if (r.seed != m.seed || r.tool_version != m.tool_version) {
      out.notes.push_back(fmt::format(
          "{} was made with seed {} and clharness {}, the first report with seed {} and {}: its "
          "units are not the same cases",
          name, r.seed, r.tool_version, m.seed, m.tool_version));
    }
    // An incomplete input makes an incomplete merge: the flag and the count of units planned go
    // on, so that no report of the merge reads as a whole run.
    if (!r.interrupted_by.empty()) {
      out.notes.push_back(name + " is incomplete (interrupted by " + r.interrupted_by + ")");
      if (m.interrupted_by.empty()) m.interrupted_by = r.interrupted_by;
    }
    planned +=
        r.interrupted_by.empty() ? r.units.size() : std::max(r.units_planned, r.units.size());
    int k = 0, n = 0;
    if (parseShard(r.shard, k, n)) {
      shards.insert(k);
      shard_count = std::max(shard_count, n);
    }
    m.regression_mode |= r.regression_mode;
    for (const auto& d : r.devices)
      if (std::find(m.devices.begin(), m.devices.end(), d) == m.devices.end())
        m.devices.push_back(d);
    for (const auto& u : r.units) {
      const std::string key = u.family + "\n" + u.spec_file + "\n" + u.device;
      if (auto [it, fresh] = seen.emplace(key, name); !fresh) {
        out.notes.push_back(fmt::format("{} on {} came twice ({} and {}): the first kept",
                                        u.title(), u.device, it->second, name));
        continue;
      }
      m.units.push_back(u);
    }
    for (const auto& d : r.drivers) {
      auto [it, fresh] = section.emplace(d.device, m.drivers.size());
      if (fresh) {
        m.drivers.push_back(d);
        continue;
      }
      DriverReport& into = m.drivers[it->second];
      for (const auto& f : d.findings)
        if (std::none_of(into.findings.begin(), into.findings.end(),
                         [&](const DriverFinding& g) { return g.check == f.check; }))
          into.findings.push_back(f);
      // A check that conformed in one shard and was listed in another stays listed.
      for (const auto& c : d.conforming_checks)
        if (std::find(into.conforming_checks.begin(), into.conforming_checks.end(), c) ==
                into.conforming_checks.end() &&
            std::none_of(into.findings.begin(), into.findings.end(),
                         [&](const DriverFinding& g) { return g.check == c; }))
          into.conforming_checks.push_back(c);
    }
  }
  if (!m.interrupted_by.empty()) m.units_planned = std::max(planned, m.units.size());
  for (int k = 0; k < shard_count; ++k)
    if (!shards.count(k))
      out.notes.push_back(
          fmt::format("shard {}/{} is missing: its specs are not in the merge", k, shard_count));
  return out;
}

}  // namespace clh
