// The rubric loader (yaml-cpp) and the lookup of an assignment's spec and rubric files.
#include "grade/rubric.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/enum_words.hpp"
#include "core/sizes.hpp"
#include "grade/source_guard.hpp"

namespace fs = std::filesystem;

namespace clh::grade {

namespace {

constexpr EnumWord<ItemCheck> kChecks[] = {
    {ItemCheck::build, "build"},         {ItemCheck::results, "results"},
    {ItemCheck::simulator, "simulator"}, {ItemCheck::speed, "speed"},
    {ItemCheck::uses, "uses"},
};

int lineOf(const YAML::Node& n) {
  return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RubricLoader {
 public:
  explicit RubricLoader(std::string file) : file_(std::move(file)) {}

  Rubric load() {
    YAML::Node doc;
    try {
      doc = YAML::LoadFile(file_);
    } catch (const YAML::BadFile&) {
      throw SpecError(file_, 0, "cannot read the rubric");
    } catch (const YAML::ParserException& e) {
      throw SpecError(file_, e.mark.line + 1, "not valid YAML: " + e.msg);
    }
    if (!doc.IsMap())
      throw SpecError(file_, lineOf(doc), "a rubric is a YAML mapping (title, cases, items)");
    checkKeys(doc, {"title", "cases", "simulator_cases", "items"}, "rubric");
    Rubric r;
    r.file = file_;
    if (doc["title"]) r.title = scalar(doc["title"], "title");
    if (doc["cases"]) r.cases = integer(doc["cases"], "cases", 1, 100000);
    if (doc["simulator_cases"])
      r.simulator_cases = integer(doc["simulator_cases"], "simulator_cases", 1, 100000);
    const YAML::Node items = doc["items"];
    if (!items || !items.IsSequence() || items.size() == 0)
      throw SpecError(file_, lineOf(items ? items : doc),
                      "items: a list of at least one rubric item");
    std::set<std::string> ids;
    std::map<FindingKind, std::string> claimed;
    for (const auto& node : items) {
      RubricItem item = loadItem(node);
      if (!ids.insert(item.id).second)
        fail(node["id"], "items", "two items have the id '" + item.id + "'");
      for (auto k : item.kinds) {
        auto [it, fresh] = claimed.emplace(k, item.id);
        if (!fresh)
          fail(node, "kinds",
               "'" + std::string(toString(k)) + "' already belongs to item '" + it->second + "'");
      }
      if (item.speed && r.firstOf(ItemCheck::speed))
        fail(node, "check", "a rubric has at most one speed item");
      r.items.push_back(std::move(item));
    }
    return r;
  }

 private:
  [[noreturn]] void fail(const YAML::Node& n, const std::string& field,
                         const std::string& what) const {
    throw SpecError(file_, lineOf(n), field + ": " + what);
  }

  void checkKeys(const YAML::Node& map, std::initializer_list<const char*> allowed,
                 const std::string& where) const {
    for (const auto& kv : map) {
      std::string key = kv.first.as<std::string>();
      bool ok = false;
      std::string list;
      for (const char* a : allowed) {
        ok = ok || key == a;
        list += (list.empty() ? "" : ", ") + std::string(a);
      }
      if (!ok) fail(kv.first, where, "unknown field '" + key + "' (expected: " + list + ")");
    }
  }

  std::string scalar(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar()) fail(n, field, "expected a single value");
    return n.as<std::string>();
  }

  double number(const YAML::Node& n, const std::string& field, double lo) const {
    double v = 0;
    try {
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      fail(n, field, "expected a number, got '" + scalar(n, field) + "'");
    }
    if (!(v >= lo)) fail(n, field, "must be at least " + std::to_string(lo));
    return v;
  }

  int integer(const YAML::Node& n, const std::string& field, int lo, int hi) const {
    int v = 0;
    try {
      v = n.as<int>();
    } catch (const YAML::Exception&) {
      fail(n, field, "expected an integer, got '" + scalar(n, field) + "'");
    }
    if (v < lo || v > hi)
      fail(n, field, "must lie in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  }

  RubricItem loadItem(const YAML::Node& node) const {
    RubricItem item = loadItemHead(node);
    const bool speed = item.check == ItemCheck::speed;
    for (const char* key : {"sizes", "full_within", "none_beyond", "repeats"})
      if (node[key] && !speed)
        fail(node[key], key, "only a speed item takes '" + std::string(key) + "'");
    const bool uses = item.check == ItemCheck::uses;
    if (node["uses"] && !uses) fail(node["uses"], "uses", "only a 'check: uses' item takes 'uses'");
    if (uses) {
      item.uses = loadUses(node, item.id);
      return item;
    }
    if (node["kinds"]) {
      if (speed) fail(node["kinds"], "kinds", "a speed item is scored by time, not by findings");
      item.kinds = loadKinds(node["kinds"]);
    } else {
      item.kinds = defaultKinds(item.check);
    }
    if (speed) item.speed = loadSpeedRule(node);
    return item;
  }

  // What every item has: its fields known, an id, a title, its points and its check.
  RubricItem loadItemHead(const YAML::Node& node) const {
    if (!node.IsMap())
      fail(node, "items", "each item is a mapping (id, title, points, check, ...)");
    checkKeys(node,
              {"id", "title", "points", "check", "kinds", "sizes", "full_within", "none_beyond",
               "repeats", "uses"},
              "items");
    RubricItem item;
    item.line = lineOf(node);
    if (!node["id"]) fail(node, "items", "an item needs an id");
    item.id = scalar(node["id"], "id");
    if (!std::regex_match(item.id, std::regex("[A-Za-z0-9_-]+")))
      fail(node["id"], "id", "'" + item.id + "' may hold only letters, digits, '_' and '-'");
    item.title = node["title"] ? scalar(node["title"], "title") : item.id;
    if (!node["points"]) fail(node, "points", "item '" + item.id + "' needs its points");
    item.points = number(node["points"], "points", 0);
    if (!node["check"])
      fail(node, "check",
           "item '" + item.id + "' needs a check (build, results, simulator, speed, uses)");
    auto check = itemCheckFromString(scalar(node["check"], "check"));
    if (!check)
      fail(node["check"], "check",
           "unknown check '" + node["check"].as<std::string>() +
               "' (expected: build, results, simulator, speed, uses)");
    item.check = *check;
    return item;
  }

  // A uses item's techniques: a list of known ones, and no kinds.
  std::vector<std::string> loadUses(const YAML::Node& node, const std::string& id) const {
    if (node["kinds"]) fail(node["kinds"], "kinds", "a uses item is scored by the kernel's code");
    const YAML::Node list = node["uses"];
    if (!list || !list.IsSequence() || list.size() == 0)
      fail(list ? list : node, "uses",
           "item '" + id + "' names the techniques it requires, e.g. [local_memory, barrier]");
    std::vector<std::string> uses;
    for (const auto& t : list) {
      std::string word = scalar(t, "uses");
      const auto& known = knownTechniques();
      if (std::find(known.begin(), known.end(), word) == known.end())
        fail(t, "uses",
             "unknown technique '" + word + "' (expected: local_memory, barrier, atomics)");
      uses.push_back(word);
    }
    return uses;
  }

  // An item's finding kinds, as written under `kinds`.
  std::vector<FindingKind> loadKinds(const YAML::Node& kinds) const {
    if (!kinds.IsSequence() || kinds.size() == 0) fail(kinds, "kinds", "a list of finding kinds");
    std::vector<FindingKind> out;
    for (const auto& k : kinds) {
      auto kind = findingKindFromString(scalar(k, "kinds"));
      if (!kind) {
        std::string words;
        for (auto w : allFindingKinds())
          words += (words.empty() ? "" : " ") + std::string(toString(w));
        fail(k, "kinds",
             "unknown finding kind '" + k.as<std::string>() + "' (expected one of: " + words + ")");
      }
      out.push_back(*kind);
    }
    return out;
  }

  // A speed item's rule: the case it times (in the spec's sizes) and how its ratio scores.
  SpeedRule loadSpeedRule(const YAML::Node& node) const {
    SpeedRule rule;
    if (!node["sizes"])
      fail(node, "sizes", "a speed item names the case it times, e.g. \"TS=16,N=256\"");
    rule.sizes = scalar(node["sizes"], "sizes");
    try {
      parseSizes(rule.sizes);
    } catch (const std::invalid_argument& e) {
      fail(node["sizes"], "sizes", e.what());
    }
    if (node["full_within"]) rule.full_within = number(node["full_within"], "full_within", 1);
    if (node["none_beyond"]) {
      rule.none_beyond = number(node["none_beyond"], "none_beyond", 0);
      if (rule.none_beyond != 0 && rule.none_beyond <= rule.full_within)
        fail(node["none_beyond"], "none_beyond",
             "must exceed full_within (or be 0: all or nothing)");
    }
    if (node["repeats"]) rule.repeats = integer(node["repeats"], "repeats", 1, 100);
    return rule;
  }

  std::string file_;
};

}  // namespace

std::string_view toString(ItemCheck check) {
  return wordOf(kChecks, check, "?");
}

std::optional<ItemCheck> itemCheckFromString(std::string_view word) {
  return valueOf(kChecks, word);
}

std::vector<FindingKind> defaultKinds(ItemCheck check) {
  switch (check) {
    case ItemCheck::build:
      return {FindingKind::build_error};
    case ItemCheck::results:
      return {FindingKind::wrong_result, FindingKind::unwritten, FindingKind::launch_error,
              FindingKind::timeout, FindingKind::crash};
    case ItemCheck::simulator:
      return {FindingKind::race, FindingKind::out_of_bounds, FindingKind::uninitialized,
              FindingKind::divergence};
    case ItemCheck::speed:
    case ItemCheck::uses:
      return {};
  }
  return {};
}

double roundPoints(double points) {
  return std::round(points * 100) / 100;
}

double Rubric::maxPoints() const {
  double sum = 0;
  for (const auto& i : items) sum += i.points;
  return sum;
}

const RubricItem* Rubric::itemFor(FindingKind kind) const {
  for (const auto& i : items)
    for (auto k : i.kinds)
      if (k == kind) return &i;
  return nullptr;
}

const RubricItem* Rubric::firstOf(ItemCheck check) const {
  for (const auto& i : items)
    if (i.check == check) return &i;
  return nullptr;
}

Rubric loadRubric(const std::string& path) {
  return RubricLoader(path).load();
}

Assignment loadAssignment(const std::string& name_or_spec, const std::string& repo_root) {
  Assignment a;
  a.argument = name_or_spec;
  fs::path spec = name_or_spec;
  const bool isName = std::regex_match(name_or_spec, std::regex("[A-Za-z0-9_.-]+")) &&
                      spec.extension() != ".yaml" && spec.extension() != ".yml";
  if (isName) spec = fs::path(repo_root) / "specs" / "assignments" / (name_or_spec + ".yaml");
  if (!fs::is_regular_file(spec)) {
    std::string known;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(repo_root) / "specs" / "assignments", ec))
      if (e.path().extension() == ".yaml")
        known += (known.empty() ? "" : ", ") + e.path().stem().string();
    throw SpecError(spec.string(), 0,
                    "assignment: no such spec" +
                        (isName && !known.empty() ? " (assignments: " + known + ")" : ""));
  }
  fs::path rubric = spec;
  rubric.replace_extension(".rubric");
  if (!fs::is_regular_file(rubric))
    throw SpecError(rubric.string(), 0,
                    "rubric: missing (an assignment spec needs a rubric beside it)");
  a.name = spec.stem().string();
  a.spec_file = spec.string();
  a.rubric_file = rubric.string();
  a.spec = loadSpec(a.spec_file, repo_root);
  a.rubric = loadRubric(a.rubric_file);
  a.spec_text = readText(a.spec_file);
  a.rubric_text = readText(a.rubric_file);
  a.reference_text = readText(a.spec.source_path);
  for (const auto& item : a.rubric.items) {
    if (!item.speed) continue;
    ExprEnv env(paramNames(a.spec));
    Sizes sizes = parseSizes(item.speed->sizes);
    std::string why;
    try {
      completeDerived(a.spec, env, sizes);
      if (!inDomain(a.spec, env, sizes, false, &why))
        throw SpecError(
            a.rubric_file, item.line,
            "sizes: '" + item.speed->sizes + "' is outside the spec's domain (" + why + ")");
    } catch (const ExprError& e) {
      throw SpecError(a.rubric_file, item.line, "sizes: '" + item.speed->sizes + "': " + e.what());
    }
  }
  return a;
}

}  // namespace clh::grade
