// Reading, choosing and writing driver baselines (docs/semantics.md, "Baselines").
#include "drivers/baseline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace clh::drivers {

namespace {

std::string word(const std::string& s, bool whole) {
  std::string out;
  for (char ch : whole ? s : s.substr(0, s.find(' '))) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c))
      out += static_cast<char>(std::tolower(c));
    else if (whole && !out.empty() && out.back() != '-')
      out += '-';
    if (out.size() >= 40) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string major(const std::string& version) {
  const auto end = version.find_first_of(". ");
  return version.substr(0, end);
}

drivers::CheckResult rowFromJson(const nlohmann::json& j) {
  drivers::CheckResult r;
  r.id = j.at("id").get<std::string>();
  r.title = j.value("title", "");
  r.rule = j.value("rule", "");
  r.verdict = drivers::verdictFromString(j.at("verdict").get<std::string>());
  r.got = j.value("got", "");
  r.required = j.value("required", "");
  r.observed = j.value("observed", "");
  r.detail = j.value("detail", "");
  return r;
}

nlohmann::json rowToJson(const drivers::CheckResult& r) {
  nlohmann::json j = {{"id", r.id}, {"verdict", drivers::toString(r.verdict)}};
  if (!r.title.empty()) j["title"] = r.title;
  if (!r.got.empty()) j["got"] = r.got;
  if (!r.required.empty()) j["required"] = r.required;
  if (!r.observed.empty()) j["observed"] = r.observed;
  if (!r.detail.empty()) j["detail"] = r.detail;
  return j;
}

}  // namespace

BaselineMatch matchFor(const DeviceInfo& device, bool per_model) {
  return {device.platform, toString(device.kind), device.driver_version,
          per_model ? device.name : std::string()};
}

std::string baselineFileName(const BaselineMatch& m) {
  std::string name = word(m.platform, false) + "-" + m.device_type;
  if (!m.device.empty()) name += "-" + word(m.device, true);
  return name + ".json";
}

nlohmann::json toJson(const Baseline& b) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& r : b.checks) checks.push_back(rowToJson(r));
  nlohmann::json launch = b.launch;
  nlohmann::json match = {{"platform", b.match.platform},
                          {"device_type", b.match.device_type},
                          {"driver_version", b.match.driver_version}};
  if (!b.match.device.empty()) match["device"] = b.match.device;
  return {{"schema", "clharness-driver-baseline/1"},
          {"match", match},
          {"recorded_on", b.recorded_on},
          {"checks", checks},
          {"launch", launch}};
}

Baseline baselineFromJson(const nlohmann::json& j) {
  Baseline b;
  const auto& m = j.at("match");
  b.match = {m.at("platform").get<std::string>(), m.at("device_type").get<std::string>(),
             m.value("driver_version", ""), m.value("device", "")};
  b.recorded_on = j.value("recorded_on", "");
  for (const auto& r : j.value("checks", nlohmann::json::array()))
    b.checks.push_back(rowFromJson(r));
  b.launch = j.value("launch", nlohmann::json::array()).get<std::vector<launch::KnownDeviation>>();
  return b;
}

Baseline loadBaseline(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read baseline " + file);
  try {
    Baseline b = baselineFromJson(nlohmann::json::parse(in));
    b.file = file;
    return b;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("baseline " + file + ": " + e.what());
  }
}

std::optional<Baseline> findBaseline(const std::string& dir, const DeviceInfo& device,
                                     std::string* note) {
  std::optional<Baseline> best;
  int best_score = -1;
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(dir, ec))
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());  // the same choice whatever the directory's order
  const std::string type = toString(device.kind);
  for (const auto& f : files) {
    Baseline b = loadBaseline(f.string());
    if (b.match.platform != device.platform || b.match.device_type != type) continue;
    if (!b.match.device.empty() && b.match.device != device.name) continue;
    int score = b.match.device.empty() ? 0 : 4;
    if (b.match.driver_version == device.driver_version)
      score += 2;
    else if (major(b.match.driver_version) == major(device.driver_version))
      score += 1;
    if (score > best_score) best = std::move(b), best_score = score;
  }
  if (note) {
    if (!best) {
      *note = fmt::format("none for platform '{}', device type {} in {} (every finding is new)",
                          device.platform, type, dir);
    } else {
      *note = fmt::format(
          "{} (platform '{}', {}{}, recorded with driver {}{})",
          fs::path(best->file).filename().string(), best->match.platform, best->match.device_type,
          best->match.device.empty() ? "" : ", model " + best->match.device,
          best->match.driver_version, best->recorded_on.empty() ? "" : " on " + best->recorded_on);
      if (best->match.driver_version != device.driver_version)
        *note += fmt::format("; this device runs driver {}", device.driver_version);
    }
  }
  return best;
}

std::pair<std::string, Baseline> baselineToUpdate(const std::string& dir,
                                                  const DeviceInfo& device) {
  const std::string file = (fs::path(dir) / baselineFileName(matchFor(device))).string();
  Baseline b;
  if (fs::exists(file)) b = loadBaseline(file);
  b.match = matchFor(device, !b.match.device.empty());
  b.recorded_on = device.displayName();
  return {file, std::move(b)};
}

launch::KnownDeviations knownDeviations(const Baseline& b, const DeviceInfo& device) {
  launch::KnownDeviations k;
  k.slug = device.slug();
  k.device = device.displayName();
  k.found = true;
  k.file = fs::path(b.file).filename().string();
  k.entries = b.launch;
  return k;
}

}  // namespace clh::drivers
