// The JSON form of an audit's result (audit/audit.hpp).
#include <nlohmann/json.hpp>

#include "audit/audit.hpp"

namespace clh::audit {

nlohmann::json toJson(const std::vector<SpecAudit>& audits) {
  nlohmann::json specs = nlohmann::json::array();
  for (const auto& a : audits) {
    nlohmann::json calls = nlohmann::json::array();
    for (const auto& c : a.calls) {
      nlohmann::json devs = nlohmann::json::array();
      for (const auto& d : c.devices) {
        nlohmann::json j = {{"device", d.device},
                            {"simulator", d.simulator},
                            {"sanitized", d.sanitized},
                            {"unseen", d.unseen},
                            {"summary", describe(d)},
                            {"evidence", d.evidence},
                            {"note", d.note},
                            {"replay", d.replay},
                            {"paired", d.paired},
                            {"mutant", d.mutant},
                            {"baseline_status", toString(d.baseline.status)},
                            {"baseline_cases", d.baseline.cases_run}};
        if (d.baseline.failing) j["baseline_findings"] = d.baseline.failing->findings;
        devs.push_back(std::move(j));
      }
      calls.push_back({{"index", c.call.index},
                       {"function", c.call.function},
                       {"line", c.call.line},
                       {"column", c.call.column},
                       {"text", c.call.text},
                       {"verdict", toString(c.verdict)},
                       {"reason", c.reason},
                       {"devices", std::move(devs)}});
    }
    specs.push_back({{"spec", a.spec},
                     {"spec_file", a.spec_file},
                     {"source", a.source},
                     {"kernels", a.kernels},
                     {"seconds", a.seconds},
                     {"calls", std::move(calls)}});
  }
  return {{"schema", "clharness-audit/2"}, {"specs", std::move(specs)}};
}

}  // namespace clh::audit
