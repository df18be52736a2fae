// Rendering and comparing the semantics matrix.
#include "drivers/matrix.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/enum_words.hpp"

namespace clh::drivers {

namespace {

// Splits text into lines of at most `width` characters, breaking at spaces where possible.
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    while (word.size() > width) {
      if (!line.empty()) {
        lines.push_back(line);
        line.clear();
      }
      lines.push_back(word.substr(0, width));
      word = word.substr(width);
    }
    if (line.empty())
      line = word;
    else if (line.size() + 1 + word.size() <= width)
      line += " " + word;
    else {
      lines.push_back(line);
      line = word;
    }
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// A process that a launch killed or hung is one outcome whatever the signal: PoCL 3.1 dies on the
// same zero_local shape by SIGSEGV, SIGFPE or SIGABRT, or spins, from one run to the next.
std::string outcome(const std::string& got) {
  if (got.rfind("the process killed by", 0) == 0 || got.rfind("the process hung", 0) == 0)
    return "the process did not survive";
  return got;
}

bool same(const CheckResult& a, const CheckResult& b) {
  return a.verdict == b.verdict && outcome(a.got) == outcome(b.got) && a.required == b.required &&
         a.observed == b.observed;
}

std::string field(const nlohmann::json& j, const char* key, bool required = false) {
  if (!j.contains(key)) {
    if (required)
      throw std::runtime_error(std::string("semantics JSON: missing field '") + key + "'");
    return {};
  }
  if (!j.at(key).is_string())
    throw std::runtime_error(std::string("semantics JSON: field '") + key + "' is not a string");
  return j.at(key).get<std::string>();
}

}  // namespace

DeviceColumn makeColumn(const clh::DeviceInfo& device, std::vector<CheckResult> results) {
  return {device.slug(), device.displayName(), device.version, device.driver_version,
          std::move(results)};
}

std::string cellText(const CheckResult& r) {
  switch (r.verdict) {
    case Verdict::conforms:
      return "conforms";
    case Verdict::deviates:
      return "deviates: got " + r.got + ", spec requires " + r.required;
    case Verdict::observed:
      return "observed: " + r.observed;
    case Verdict::skipped:
      return r.detail.empty() ? "skipped" : "skipped: " + r.detail;
  }
  return "?";
}

std::string renderTable(const Matrix& matrix, size_t cell_width) {
  // Rows: check ids in order of first appearance over the columns.
  std::vector<std::string> rows;
  for (const auto& col : matrix)
    for (const auto& r : col.results)
      if (std::find(rows.begin(), rows.end(), r.id) == rows.end()) rows.push_back(r.id);
  size_t id_width = 5;
  for (const auto& id : rows) id_width = std::max(id_width, id.size());

  std::ostringstream out;
  auto rule = [&] {
    out << std::string(id_width + 2, '-');
    for (size_t c = 0; c < matrix.size(); ++c) out << "+" << std::string(cell_width + 2, '-');
    out << "\n";
  };
  out << pad("check", id_width + 2);
  for (size_t c = 0; c < matrix.size(); ++c)
    out << "| "
        << pad("[" + std::to_string(c + 1) + "] " + matrix[c].slug, cell_width)
               .substr(0, cell_width)
        << " ";
  out << "\n";
  rule();
  for (const auto& id : rows) {
    std::vector<std::vector<std::string>> cells;
    size_t height = 1;
    for (const auto& col : matrix) {
      auto it = std::find_if(col.results.begin(), col.results.end(),
                             [&](const CheckResult& r) { return r.id == id; });
      cells.push_back(wrap(it == col.results.end() ? "-" : cellText(*it), cell_width));
      height = std::max(height, cells.back().size());
    }
    for (size_t line = 0; line < height; ++line) {
      out << pad(line == 0 ? id : "", id_width + 2);
      for (const auto& cell : cells)
        out << "| " << pad(line < cell.size() ? cell[line] : "", cell_width) << " ";
      out << "\n";
    }
  }
  rule();
  for (size_t c = 0; c < matrix.size(); ++c)
    out << "[" << c + 1 << "] " << matrix[c].slug << " = " << matrix[c].name << " ("
        << matrix[c].version << ", driver " << matrix[c].driver << ")\n";
  return out.str();
}

nlohmann::json toJson(const DeviceColumn& column) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& r : column.results) {
    nlohmann::json j = {{"id", r.id}, {"title", r.title}, {"verdict", toString(r.verdict)}};
    if (!r.got.empty()) j["got"] = r.got;
    if (!r.required.empty()) j["required"] = r.required;
    if (!r.observed.empty()) j["observed"] = r.observed;
    if (!r.detail.empty()) j["detail"] = r.detail;
    checks.push_back(std::move(j));
  }
  return {{"format", "clharness-semantics-1"},
          {"device",
           {{"slug", column.slug},
            {"name", column.name},
            {"version", column.version},
            {"driver", column.driver}}},
          {"checks", std::move(checks)}};
}

nlohmann::json toJson(const Matrix& matrix) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& c : matrix) devices.push_back(toJson(c));
  return {{"format", "clharness-semantics-1"}, {"devices", std::move(devices)}};
}

DeviceColumn columnFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("device") || !j.contains("checks"))
    throw std::runtime_error("semantics JSON: a device column needs 'device' and 'checks'");
  DeviceColumn c;
  const auto& d = j.at("device");
  c.slug = field(d, "slug", true);
  c.name = field(d, "name");
  c.version = field(d, "version");
  c.driver = field(d, "driver");
  for (const auto& cj : j.at("checks")) {
    CheckResult r;
    r.id = field(cj, "id", true);
    r.title = field(cj, "title");
    try {
      r.verdict = verdictFromString(field(cj, "verdict", true));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("semantics JSON: check '" + r.id + "': " + e.what());
    }
    r.got = field(cj, "got");
    r.required = field(cj, "required");
    r.observed = field(cj, "observed");
    r.detail = field(cj, "detail");
    c.results.push_back(std::move(r));
  }
  return c;
}

Matrix matrixFromJson(const nlohmann::json& j) {
  if (j.is_object() && j.contains("devices")) {
    Matrix m;
    for (const auto& c : j.at("devices")) m.push_back(columnFromJson(c));
    return m;
  }
  return {columnFromJson(j)};
}

namespace {
constexpr EnumWord<Change::Kind> kChangeWords[] = {
    {Change::Kind::regression, "regression"}, {Change::Kind::fix, "fix"},
    {Change::Kind::changed, "changed"},       {Change::Kind::added, "added"},
    {Change::Kind::removed, "removed"},
};
}  // namespace

const char* toString(Change::Kind kind) {
  return wordOf(kChangeWords, kind, "?");
}

std::string Change::toString() const {
  return std::string(drivers::toString(kind)) + "  " + device + "  " + check + ": " +
         (before.empty() ? "(none)" : before) + " -> " + (after.empty() ? "(none)" : after);
}

std::vector<Change> compareWithBaseline(const DeviceColumn& current, const DeviceColumn& baseline) {
  std::vector<Change> changes;
  std::map<std::string, const CheckResult*> before;
  for (const auto& r : baseline.results) before[r.id] = &r;
  for (const auto& now : current.results) {
    auto it = before.find(now.id);
    if (it == before.end()) {
      changes.push_back({Change::Kind::added, current.slug, now.id, "", cellText(now)});
      continue;
    }
    const CheckResult& was = *it->second;
    before.erase(it);
    if (same(was, now)) continue;
    Change::Kind kind = Change::Kind::changed;
    if (was.verdict == Verdict::conforms && now.verdict == Verdict::deviates)
      kind = Change::Kind::regression;
    else if (was.verdict == Verdict::deviates && now.verdict == Verdict::conforms)
      kind = Change::Kind::fix;
    changes.push_back({kind, current.slug, now.id, cellText(was), cellText(now)});
  }
  for (const auto& r : baseline.results)
    if (before.count(r.id))
      changes.push_back({Change::Kind::removed, current.slug, r.id, cellText(r), ""});
  return changes;
}

}  // namespace clh::drivers
