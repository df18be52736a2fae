// Known deviations: failure keys of a shape, matching them against a baseline, reading and writing
// their JSON form, and grouping a family's failures.
#include "launch/known.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace clh::launch {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);)
    if (!part.empty()) out.push_back(part);
  return out;
}

std::string join(const std::vector<std::string>& ids, const char* empty) {
  if (ids.empty()) return empty;
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : "+") + id;
  return s;
}

bool subset(const std::string& small, const std::string& big) {
  const auto b = split(big, '+');
  for (const auto& x : split(small, '+'))
    if (std::find(b.begin(), b.end(), x) == b.end()) return false;
  return true;
}

}  // namespace

bool KnownDeviation::covers(const KnownDeviation& key) const {
  if (!kind.empty() && kind != key.kind) return false;
  if (got != key.got) return false;
  if ((rule == "none") != (key.rule == "none")) return false;
  if (rule != "none" && !subset(rule, key.rule)) return false;
  if (results.empty() != key.results.empty()) return false;
  return subset(key.results, results);
}

std::vector<KnownDeviation> failureKeys(const ShapeCheck& c) {
  // A crash is recorded by kind, not by signal: PoCL dies by SIGSEGV, SIGABRT or SIGFPE on the
  // same shape from one run to the next.
  const std::string got = !c.died.empty() && c.died != "timeout" ? "crash" : c.gotText();
  const std::string rules = join(c.ruleIds(), "none");
  std::vector<KnownDeviation> keys;
  if (!c.conforms && !c.spec_expected)
    keys.push_back({c.shape.kind, rules, got, "", "", c.prediction.allowedToString()});
  if (c.resultMismatch()) {
    std::set<std::string> kinds;
    for (const auto& f : c.result_findings) kinds.insert(std::string(toString(f.kind)));
    keys.push_back({c.shape.kind, rules, got, join({kinds.begin(), kinds.end()}, ""), "",
                    c.prediction.allowedToString()});
  }
  return keys;
}

const KnownDeviation* KnownDeviations::find(const KnownDeviation& key) const {
  for (const auto& e : entries)
    if (e.covers(key)) return &e;
  return nullptr;
}

std::vector<KnownDeviation> KnownDeviations::uncovered(const ShapeCheck& c) const {
  std::vector<KnownDeviation> out;
  for (auto& key : failureKeys(c))
    if (!find(key)) out.push_back(std::move(key));
  return out;
}

void to_json(nlohmann::json& j, const KnownDeviation& e) {
  j = {{"kind", e.kind}, {"rule", e.rule}, {"got", e.got}};
  if (!e.results.empty()) j["results"] = e.results;
  if (!e.allowed.empty()) j["allowed"] = e.allowed;
  j["reason"] = e.reason;
}

void from_json(const nlohmann::json& j, KnownDeviation& e) {
  e = {j.value("kind", ""),    j.at("rule"),          j.at("got"),
       j.value("results", ""), j.value("reason", ""), j.value("allowed", "")};
}

nlohmann::json toJson(const KnownDeviations& k) {
  return {{"slug", k.slug}, {"device", k.device}, {"known_deviations", k.entries}};
}

KnownDeviations knownDeviationsFromJson(const nlohmann::json& j) {
  KnownDeviations k;
  k.slug = j.value("slug", "");
  k.device = j.value("device", "");
  k.found = true;
  k.entries = j.at("known_deviations").get<std::vector<KnownDeviation>>();
  return k;
}

std::vector<FailureGroup> groupFailures(const LaunchFamilyResult& r, const KnownDeviations& known) {
  std::vector<FailureGroup> groups;
  for (const auto& c : r.shapes)
    for (auto& key : failureKeys(c)) {
      auto it = std::find_if(groups.begin(), groups.end(),
                             [&](const FailureGroup& g) { return g.key.sameKey(key); });
      if (it == groups.end()) {
        const bool is_known = known.find(key) != nullptr;
        groups.push_back({std::move(key), {}, is_known});
        it = groups.end() - 1;
      }
      it->shapes.push_back(&c);
    }
  return groups;
}

KnownDeviations collectDeviations(const std::vector<LaunchFamilyResult>& results,
                                  const DeviceInfo& device, const KnownDeviations& keep) {
  KnownDeviations out;
  out.slug = device.slug();
  out.device = device.displayName();
  out.found = true;
  for (const auto& r : results) {
    if (r.device != out.device) continue;
    for (const auto& c : r.shapes)
      for (auto& key : failureKeys(c)) {
        auto same = [&](const KnownDeviation& e) { return e.sameKey(key); };
        if (std::any_of(out.entries.begin(), out.entries.end(), same)) continue;
        auto kept = std::find_if(keep.entries.begin(), keep.entries.end(), same);
        key.reason = kept != keep.entries.end() ? kept->reason
                                                : "first seen: " + r.spec + " " + c.toString();
        out.entries.push_back(std::move(key));
      }
  }
  return out;
}

}  // namespace clh::launch
