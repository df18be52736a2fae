// The YAML spec loader: reads, checks every field, and names the file, line and field of an error.
#include "core/spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "core/expr.hpp"
#include "core/reference.hpp"
#include "core/spec_loader.hpp"

namespace fs = std::filesystem;

namespace clh {

SpecError::SpecError(std::string file, int line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message),
      file_(std::move(file)),
      line_(line) {}

namespace spec_detail {

Spec Loader::load() {
  const YAML::Node doc = readDocument();
  checkKeys(doc, {"name",        "origin",          "description", "source", "reference", "params",
                  "constraints", "build_options",   "buffers",     "kernel", "args",      "global",
                  "local",       "offset",          "launches",    "expect", "suppress",  "read",
                  "cases",       "simulator_cases", "flops",       "bytes",  "labels"},
            "spec");
  Spec s;
  s.file = file_;
  s.root = repoRoot_;
  loadIdentity(doc, s);
  if (doc["params"]) loadParams(doc["params"], s);
  if (doc["constraints"]) {
    requireSeq(doc["constraints"], "constraints");
    for (const auto& c : doc["constraints"]) s.constraints.push_back(expr(c, "constraints"));
  }
  s.build_options = optString(doc, "build_options");
  if (doc["build_options"]) s.build_options_line = lineOf(doc["build_options"]);
  if (!doc["buffers"]) fail(doc, "buffers", "missing (at least one buffer)");
  loadBuffers(doc["buffers"], s);
  loadLaunches(doc, s);
  loadRunFields(doc, s);
  validateExpressions(s);
  checkValuesAtSampleSizes(s);
  return s;
}

YAML::Node Loader::readDocument() {
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(file_);
  } catch (const YAML::BadFile&) {
    throw SpecError(file_, 0, "cannot read the file");
  } catch (const YAML::ParserException& e) {
    throw SpecError(file_, e.mark.line + 1, "not valid YAML: " + e.msg);
  }
  if (!doc.IsMap()) throw SpecError(file_, lineOf(doc), "a spec is a YAML mapping of fields");
  return doc;
}

void Loader::loadIdentity(const YAML::Node& doc, Spec& s) {
  s.name = requireString(doc, "name");
  if (!std::regex_match(s.name, std::regex("[A-Za-z0-9_.-]+")))
    fail(doc["name"], "name", "'" + s.name + "' may hold only letters, digits, '_', '.', '-'");
  s.origin = optString(doc, "origin");
  s.description = optString(doc, "description");
  s.source = requireString(doc, "source");
  s.source_path = resolveSource(doc["source"], s.source);
  s.reference = requireString(doc, "reference");
  if (!ReferenceRegistry::instance().find(s.reference)) {
    std::string known;
    for (const auto& n : ReferenceRegistry::instance().names())
      known += (known.empty() ? "" : ", ") + n;
    fail(doc["reference"], "reference",
         "unknown reference '" + s.reference + "' (registered: " + known + ")");
  }
}

void Loader::loadLaunches(const YAML::Node& doc, Spec& s) {
  bool single = doc["kernel"] || doc["args"] || doc["global"];
  if (single && doc["launches"])
    fail(doc["launches"], "launches", "give either launches or kernel/args/global, not both");
  if (single) {
    s.launches.push_back(loadLaunch(doc, s));
  } else if (doc["launches"]) {
    requireSeq(doc["launches"], "launches");
    for (const auto& l : doc["launches"]) {
      checkKeys(l, {"kernel", "args", "global", "local", "offset"}, "launches");
      s.launches.push_back(loadLaunch(l, s));
    }
  } else {
    fail(doc, "kernel", "missing: a spec needs kernel/args/global or launches");
  }
}

void Loader::loadRunFields(const YAML::Node& doc, Spec& s) {
  if (doc["expect"]) s.expect = loadExpect(doc["expect"]);
  if (doc["read"]) {
    std::string m = scalarString(doc["read"], "read");
    s.read = readModeFromString(m);
    if (!s.read) {
      std::string list;
      for (auto mode : allReadModes())
        list += (list.empty() ? "" : ", ") + std::string(toString(mode));
      fail(doc["read"], "read", "unknown read mode '" + m + "' (expected: " + list + ")");
    }
  }
  if (doc["suppress"]) {
    requireSeq(doc["suppress"], "suppress");
    for (const auto& n : doc["suppress"]) s.suppress.push_back(loadSuppress(n));
  }
  if (doc["cases"]) s.cases = positiveInt(doc["cases"], "cases");
  if (doc["simulator_cases"]) s.sim_cases = positiveInt(doc["simulator_cases"], "simulator_cases");
  if (doc["flops"]) s.flops = expr(doc["flops"], "flops");
  if (doc["bytes"]) s.bytes = expr(doc["bytes"], "bytes");
  if (doc["labels"]) {
    if (!doc["labels"].IsMap()) fail(doc["labels"], "labels", "a mapping of strings");
    for (const auto& kv : doc["labels"])
      s.labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
  }
}

void Loader::fail(const YAML::Node& n, const std::string& field, const std::string& what) {
  throw SpecError(file_, lineOf(n), field + ": " + what);
}

void Loader::checkKeys(const YAML::Node& map, std::initializer_list<const char*> allowed,
                       const std::string& where) {
  if (!map.IsMap()) fail(map, where, "expected a mapping");
  for (const auto& kv : map) {
    std::string key = kv.first.as<std::string>();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      std::string hint;
      if (!key.empty() && key.back() == ')')
        hint = "; a value with a comma inside {...} needs quotes: init: \"uniform(-1, 1)\"";
      fail(kv.first, where, "unknown field '" + key + "' (expected one of: " + list + ")" + hint);
    }
  }
}

}  // namespace spec_detail

using spec_detail::Loader;

std::optional<ElemType> elemTypeFromString(const std::string& name) {
  return valueOf(kElemTypeWords, name);
}
std::string toString(ElemType type) {
  return wordOf(kElemTypeWords, type, "?");
}

const BufferSpec* Spec::findBuffer(const std::string& n) const {
  for (const auto& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}

Spec loadSpec(const std::string& path, const std::string& repoRoot) {
  try {
    return Loader(path, repoRoot).load();
  } catch (const YAML::Exception& e) {
    // A node of another shape than a field allows (a key that is a list, a value that is a
    // mapping where text was expected, ...), met before a field's own check.
    throw SpecError(path, e.mark.line >= 0 ? e.mark.line + 1 : 1,
                    "unexpected YAML structure: " + e.msg);
  }
}

std::vector<std::string> findSpecFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      out.push_back(p);
    } else if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
        auto ext = e.path().extension();
        if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml"))
          out.push_back(e.path().string());
      }
    } else {
      throw SpecError(p, 0, "no such spec file or directory");
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace clh
