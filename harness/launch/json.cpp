// JSON for the launch family: field names follow the C++ members.
#include "launch/json.hpp"

#include <algorithm>
#include <map>

#include "core/result.hpp"

namespace clh::launch {

using nlohmann::json;

namespace {

json outcomeJson(const launch::Outcome& o) {
  return {{"stage", launch::toString(o.stage)}, {"code", o.code}};
}

launch::Outcome outcomeFromJson(const json& j) {
  launch::Outcome o;
  o.stage =
      launch::stageFromString(j.at("stage").get<std::string>()).value_or(launch::Stage::completion);
  o.code = j.at("code");
  return o;
}

json configJson(const launch::LaunchConfig& c) {
  json j = {{"work_dim", c.work_dim},
            {"global", c.global},
            {"dynamic_local_bytes", c.dynamic_local_bytes}};
  j["local"] = c.local ? json(*c.local) : json(nullptr);
  j["offset"] = c.offset ? json(*c.offset) : json(nullptr);
  return j;
}

launch::LaunchConfig configFromJson(const json& j) {
  launch::LaunchConfig c;
  c.work_dim = j.at("work_dim");
  c.global = j.at("global").get<std::vector<size_t>>();
  if (!j.at("local").is_null()) c.local = j.at("local").get<std::vector<size_t>>();
  if (!j.at("offset").is_null()) c.offset = j.at("offset").get<std::vector<size_t>>();
  c.dynamic_local_bytes = j.at("dynamic_local_bytes");
  return c;
}

json predictionJson(const launch::Prediction& p) {
  json rules = json::array();
  for (const auto& r : p.rules) {
    json allows = json::array();
    for (const auto& o : r.allows) allows.push_back(outcomeJson(o));
    rules.push_back({{"id", r.id}, {"reason", r.reason}, {"allows", allows}});
  }
  json allowed = json::array();
  for (const auto& o : p.allowed) allowed.push_back(outcomeJson(o));
  return {{"allowed", allowed},
          {"rules", rules},
          {"notes", p.notes},
          {"zero_size_success", p.zero_size_success}};
}

launch::Prediction predictionFromJson(const json& j) {
  launch::Prediction p;
  for (const auto& o : j.at("allowed")) p.allowed.push_back(outcomeFromJson(o));
  for (const auto& r : j.at("rules")) {
    launch::AppliedRule rule;
    rule.id = r.at("id");
    rule.reason = r.at("reason");
    for (const auto& o : r.at("allows")) rule.allows.push_back(outcomeFromJson(o));
    p.rules.push_back(std::move(rule));
  }
  p.notes = j.at("notes").get<std::vector<std::string>>();
  p.zero_size_success = j.at("zero_size_success");
  return p;
}

json kernelJson(const launch::KernelLimits& k) {
  return {{"work_group_size", k.work_group_size},
          {"local_mem_size", k.local_mem_size},
          {"compile_work_group_size", k.compile_work_group_size}};
}

launch::KernelLimits kernelFromJson(const json& j) {
  launch::KernelLimits k;
  k.work_group_size = j.at("work_group_size");
  k.local_mem_size = j.at("local_mem_size");
  k.compile_work_group_size = j.at("compile_work_group_size").get<std::array<size_t, 3>>();
  return k;
}

json shapeJson(const SpecShape& s) {
  return {{"kind", s.kind},
          {"variant", s.variant},
          {"config", configJson(s.config)},
          {"local_arg_bytes", s.local_arg_bytes},
          {"checkable", s.checkable}};
}

SpecShape shapeFromJson(const json& j) {
  SpecShape s;
  s.kind = j.at("kind");
  s.variant = j.at("variant");
  s.config = configFromJson(j.at("config"));
  s.local_arg_bytes = j.at("local_arg_bytes").get<std::vector<size_t>>();
  s.checkable = j.at("checkable");
  return s;
}

}  // namespace

json toJson(const SpecLaunch& l) {
  json variants = json::array();
  for (const auto& v : l.variants)
    variants.push_back({{"name", v.name},
                        {"extra", v.extra},
                        {"cl_std", std::to_string(v.program.cl_std_major) + "." +
                                       std::to_string(v.program.cl_std_minor)},
                        {"uniform_work_group_size", v.program.uniform_work_group_size}});
  const auto& d = l.device;
  return {{"global", l.global},
          {"local", l.local},
          {"offset", l.offset},
          {"any_local", l.any_local},
          {"local_arg_bytes", l.local_arg_bytes},
          {"local_arg_elem", l.local_arg_elem},
          {"device",
           {{"opencl", std::to_string(d.opencl_major) + "." + std::to_string(d.opencl_minor)},
            {"max_work_group_size", d.max_work_group_size},
            {"max_work_item_sizes", d.max_work_item_sizes},
            {"local_mem_size", d.local_mem_size},
            {"non_uniform_work_groups", d.non_uniform_work_groups},
            {"address_bits", d.address_bits}}},
          {"kernel", kernelJson(l.kernel)},
          {"variants", variants},
          {"zero_local", l.zero_local},
          {"kinds", l.kinds}};
}

SpecLaunch specLaunchFromJson(const json& j) {
  SpecLaunch l;
  l.global = j.at("global").get<std::vector<size_t>>();
  l.local = j.at("local").get<std::vector<size_t>>();
  l.offset = j.at("offset").get<std::vector<size_t>>();
  l.any_local = j.at("any_local");
  l.local_arg_bytes = j.at("local_arg_bytes").get<std::vector<size_t>>();
  l.local_arg_elem = j.at("local_arg_elem").get<std::vector<size_t>>();
  const json& d = j.at("device");
  const std::string version = d.at("opencl");
  l.device.opencl_major = std::stoi(version);
  l.device.opencl_minor = std::stoi(version.substr(version.find('.') + 1));
  l.device.max_work_group_size = d.at("max_work_group_size");
  l.device.max_work_item_sizes = d.at("max_work_item_sizes").get<std::vector<size_t>>();
  l.device.local_mem_size = d.at("local_mem_size");
  l.device.non_uniform_work_groups = d.at("non_uniform_work_groups");
  l.device.address_bits = d.at("address_bits");
  l.kernel = kernelFromJson(j.at("kernel"));
  for (const auto& v : j.at("variants")) {
    BuildVariant b;
    b.name = v.at("name");
    b.extra = v.at("extra");
    b.program = launch::parseBuildOptions(
        "-cl-std=CL" + v.at("cl_std").get<std::string>() +
        (v.at("uniform_work_group_size").get<bool>() ? " -cl-uniform-work-group-size" : ""));
    l.variants.push_back(std::move(b));
  }
  l.zero_local = j.at("zero_local");
  l.kinds = j.at("kinds").get<std::vector<std::string>>();
  return l;
}

json toJson(const ShapeCheck& c) {
  json j = {{"index", c.index},
            {"shape", shapeJson(c.shape)},
            {"text", c.text},
            {"kernel", kernelJson(c.kernel)},
            {"prediction", predictionJson(c.prediction)},
            {"got", outcomeJson(c.got)},
            {"got_text", c.gotText()},
            {"died", c.died},
            {"conforms", c.conforms},
            {"spec_expected", c.spec_expected},
            {"results_checked", c.results_checked},
            {"result_findings", c.result_findings}};
  if (c.results_of >= 0) j["results_of"] = c.results_of;
  return j;
}

ShapeCheck shapeCheckFromJson(const json& j) {
  ShapeCheck c;
  c.index = j.at("index");
  c.shape = shapeFromJson(j.at("shape"));
  c.text = j.at("text");
  c.kernel = kernelFromJson(j.at("kernel"));
  c.prediction = predictionFromJson(j.at("prediction"));
  c.got = outcomeFromJson(j.at("got"));
  c.died = j.at("died");
  c.conforms = j.at("conforms");
  c.spec_expected = j.value("spec_expected", false);
  c.results_checked = j.at("results_checked");
  c.results_of = j.value("results_of", -1);
  c.result_findings = j.at("result_findings").get<std::vector<Finding>>();
  return c;
}

json toJson(const LaunchFamilyResult& r, bool with_shapes) {
  json omitted = json::array();
  for (const auto& [kind, why] : r.omitted) omitted.push_back({{"kind", kind}, {"why", why}});
  json j = {{"spec", r.spec},   {"spec_file", r.spec_file}, {"device", r.device},
            {"sizes", r.sizes}, {"seed", r.seed},           {"launch", toJson(r.launch)},
            {"kinds", r.kinds}, {"omitted", omitted},       {"notes", r.notes}};
  j["failure"] = r.failure ? json(*r.failure) : json(nullptr);
  if (with_shapes) {
    json shapes = json::array();
    for (const auto& c : r.shapes) shapes.push_back(toJson(c));
    j["shapes"] = shapes;
  }
  return j;
}

LaunchFamilyResult familyFromJson(const json& j) {
  LaunchFamilyResult r;
  r.spec = j.at("spec");
  r.spec_file = j.at("spec_file");
  r.device = j.at("device");
  r.sizes = j.at("sizes").get<Sizes>();
  r.seed = j.at("seed");
  r.launch = specLaunchFromJson(j.at("launch"));
  r.kinds = j.at("kinds").get<std::vector<std::string>>();
  for (const auto& o : j.at("omitted")) r.omitted.emplace_back(o.at("kind"), o.at("why"));
  r.notes = j.at("notes").get<std::vector<std::string>>();
  if (!j.at("failure").is_null()) r.failure = j.at("failure").get<Finding>();
  if (j.contains("shapes"))
    for (const auto& c : j.at("shapes")) r.shapes.push_back(shapeCheckFromJson(c));
  return r;
}

json summaryJson(const LaunchFamilyResult& r, const KnownDeviations* known) {
  std::map<std::string, json> per_kind;
  json failures = json::array();
  int results_checked = 0, failing = 0, covered = 0;
  for (const auto& c : r.shapes) {
    json& k = per_kind[c.shape.kind];
    if (k.is_null()) k = {{"shapes", 0}, {"conforming", 0}, {"results_checked", 0}};
    k["shapes"] = k["shapes"].get<int>() + 1;
    k["conforming"] = k["conforming"].get<int>() + (c.conforms ? 1 : 0);
    k["results_checked"] = k["results_checked"].get<int>() + (c.results_checked ? 1 : 0);
    results_checked += c.results_checked ? 1 : 0;
    const auto keys = failureKeys(c);
    if (keys.empty()) continue;
    ++failing;
    covered += std::all_of(keys.begin(), keys.end(),
                           [&](const KnownDeviation& key) { return known && known->find(key); })
                   ? 1
                   : 0;
  }
  for (const auto& g : groupFailures(r, known ? *known : KnownDeviations{})) {
    const ShapeCheck& c = *g.shapes.front();
    json example = {{"index", c.index},
                    {"shape", c.text},
                    {"predicted", c.prediction.allowedToString()},
                    {"got", c.gotText()}};
    for (const auto& f : c.result_findings)
      example["findings"].push_back(std::string(toString(f.kind)) + ": " + f.summary);
    json indices = json::array();
    for (const auto* s : g.shapes) indices.push_back(s->index);
    failures.push_back({{"kind", g.key.kind},
                        {"rule", g.key.rule},
                        {"got", g.key.got},
                        {"results", g.key.results},
                        {"known", known && g.known},
                        {"shapes", g.shapes.size()},
                        {"indices", indices},
                        {"example", example}});
  }
  json kinds = json::object();
  for (auto& [name, k] : per_kind) kinds[name] = k;
  json omitted = json::array();
  for (const auto& [kind, why] : r.omitted) omitted.push_back({{"kind", kind}, {"why", why}});
  json variants = json::array();
  for (const auto& v : r.launch.variants) variants.push_back(v.name);
  return {{"spec", r.spec},
          {"spec_file", r.spec_file},
          {"device", r.device},
          {"sizes", r.sizes},
          {"seed", r.seed},
          {"global", r.launch.global},
          {"local", r.launch.local},
          {"any_local", r.launch.any_local},
          {"variants", variants},
          {"shapes", r.shapes.size()},
          {"conforming", r.conforming()},
          {"deviating", r.deviating()},
          {"spec_expected", r.specExpected()},
          {"results_checked", results_checked},
          {"result_mismatches", r.mismatching()},
          {"died", r.died()},
          {"known_failures", covered},
          {"new_failures", failing - covered},
          {"per_kind", kinds},
          {"omitted", omitted},
          {"notes", r.notes},
          {"failures", failures},
          {"failure", r.failure ? json(*r.failure) : json(nullptr)}};
}

}  // namespace clh::launch
