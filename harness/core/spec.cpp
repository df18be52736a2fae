// The YAML spec loader: reads, checks every field, and names the file, line and field of an error.
#include "core/spec.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "core/expr.hpp"
#include "core/reference.hpp"

namespace fs = std::filesystem;

namespace clh {

SpecError::SpecError(std::string file, int line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message),
      file_(std::move(file)),
      line_(line) {}

namespace {

struct TypeName {
  ElemType type;
  const char* name;
  size_t size;
};
constexpr TypeName kTypes[] = {
    {ElemType::i8, "char", 1},    {ElemType::u8, "uchar", 1},  {ElemType::i16, "short", 2},
    {ElemType::u16, "ushort", 2}, {ElemType::i32, "int", 4},   {ElemType::u32, "uint", 4},
    {ElemType::i64, "long", 8},   {ElemType::u64, "ulong", 8}, {ElemType::f32, "float", 4},
    {ElemType::f64, "double", 8},
};

// A YAML node's 1-based line; 1 for a node with no place (an empty document).
int lineOf(const YAML::Node& n) {
  return n.Mark().line >= 0 ? n.Mark().line + 1 : 1;
}

class Loader {
 public:
  Loader(std::string file, std::string repoRoot)
      : file_(std::move(file)), repoRoot_(std::move(repoRoot)) {}

  Spec load() {
    YAML::Node doc;
    try {
      doc = YAML::LoadFile(file_);
    } catch (const YAML::BadFile&) {
      throw SpecError(file_, 0, "cannot read the file");
    } catch (const YAML::ParserException& e) {
      throw SpecError(file_, e.mark.line + 1, "not valid YAML: " + e.msg);
    }
    if (!doc.IsMap()) throw SpecError(file_, lineOf(doc), "a spec is a YAML mapping of fields");
    checkKeys(doc,
              {"name",        "origin",          "description", "source", "reference", "params",
               "constraints", "build_options",   "buffers",     "kernel", "args",      "global",
               "local",       "offset",          "launches",    "expect", "suppress",  "read",
               "cases",       "simulator_cases", "flops",       "bytes",  "labels"},
              "spec");
    Spec s;
    s.file = file_;
    s.root = repoRoot_;
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
    if (doc["params"]) loadParams(doc["params"], s);
    if (doc["constraints"]) {
      requireSeq(doc["constraints"], "constraints");
      for (const auto& c : doc["constraints"]) s.constraints.push_back(expr(c, "constraints"));
    }
    s.build_options = optString(doc, "build_options");
    if (doc["build_options"]) s.build_options_line = lineOf(doc["build_options"]);
    if (!doc["buffers"]) fail(doc, "buffers", "missing (at least one buffer)");
    loadBuffers(doc["buffers"], s);

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
    if (doc["simulator_cases"])
      s.sim_cases = positiveInt(doc["simulator_cases"], "simulator_cases");
    if (doc["flops"]) s.flops = expr(doc["flops"], "flops");
    if (doc["bytes"]) s.bytes = expr(doc["bytes"], "bytes");
    if (doc["labels"]) {
      if (!doc["labels"].IsMap()) fail(doc["labels"], "labels", "a mapping of strings");
      for (const auto& kv : doc["labels"])
        s.labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
    }
    validateExpressions(s);
    return s;
  }

 private:
  [[noreturn]] void fail(const YAML::Node& n, const std::string& field, const std::string& what) {
    throw SpecError(file_, lineOf(n), field + ": " + what);
  }

  void checkKeys(const YAML::Node& map, std::initializer_list<const char*> allowed,
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

  std::string scalarString(const YAML::Node& n, const std::string& field) {
    if (!n.IsScalar()) fail(n, field, "expected a single value");
    return n.Scalar();
  }
  std::string requireString(const YAML::Node& map, const char* key) {
    if (!map[key]) fail(map, key, "missing");
    return scalarString(map[key], key);
  }
  std::string optString(const YAML::Node& map, const char* key) {
    return map[key] ? scalarString(map[key], key) : std::string();
  }
  void requireSeq(const YAML::Node& n, const std::string& field) {
    if (!n.IsSequence()) fail(n, field, "expected a list");
  }
  Expr expr(const YAML::Node& n, const std::string& field) {
    return Expr{scalarString(n, field), lineOf(n)};
  }
  std::vector<Expr> exprList(const YAML::Node& n, const std::string& field) {
    std::vector<Expr> out;
    if (n.IsScalar()) {
      out.push_back(expr(n, field));
      return out;
    }
    requireSeq(n, field);
    if (n.size() < 1 || n.size() > 3) fail(n, field, "1 to 3 dimensions");
    for (const auto& e : n) out.push_back(expr(e, field));
    return out;
  }
  int64_t integer(const YAML::Node& n, const std::string& field) {
    try {
      return n.as<int64_t>();
    } catch (const YAML::Exception&) {
      fail(n, field,
           "expected an integer, got '" + (n.IsScalar() ? n.Scalar() : "a structure") + "'");
    }
  }
  int positiveInt(const YAML::Node& n, const std::string& field) {
    int64_t v = integer(n, field);
    if (v < 1 || v > 1000000) fail(n, field, "expected an integer from 1 to 1000000");
    return static_cast<int>(v);
  }

  std::string resolveSource(const YAML::Node& n, const std::string& source) {
    std::vector<fs::path> candidates;
    if (fs::path(source).is_absolute()) candidates.push_back(source);
    if (!repoRoot_.empty()) candidates.push_back(fs::path(repoRoot_) / source);
    candidates.push_back(fs::path(file_).parent_path() / source);
    candidates.push_back(fs::path(source));
    for (const auto& c : candidates) {
      std::error_code ec;  // a name too long or not a path at all is "not found", not a throw
      if (!fs::is_regular_file(c, ec)) continue;
      const fs::path canonical = fs::weakly_canonical(c, ec);
      return ec ? c.string() : canonical.string();
    }
    fail(n, "source",
         "kernel file '" + source + "' not found (looked in " +
             (repoRoot_.empty() ? std::string() : repoRoot_ + " and ") +
             fs::path(file_).parent_path().string() + ")");
  }

  std::pair<Expr, Expr> range(const YAML::Node& n, const std::string& field) {
    if (!n.IsSequence() || n.size() != 2) fail(n, field, "expected [lo, hi]");
    return {expr(n[0], field), expr(n[1], field)};
  }

  void loadParams(const YAML::Node& params, Spec& s) {
    if (!params.IsMap())
      fail(params, "params", "expected a mapping NAME: {range|one_of|value: ...}");
    for (const auto& kv : params) {
      ParamSpec p;
      p.name = kv.first.as<std::string>();
      p.line = lineOf(kv.first);
      std::string field = "params." + p.name;
      if (!std::regex_match(p.name, std::regex("[A-Za-z_][A-Za-z0-9_]*")))
        fail(kv.first, field, "a parameter name is an identifier");
      const YAML::Node& d = kv.second;
      checkKeys(d, {"range", "one_of", "value", "multiple_of", "simulator"}, field);
      int kinds = (d["range"] ? 1 : 0) + (d["one_of"] ? 1 : 0) + (d["value"] ? 1 : 0);
      if (kinds != 1) fail(d, field, "give exactly one of range, one_of, value");
      if (d["range"]) p.range = range(d["range"], field + ".range");
      if (d["one_of"]) {
        requireSeq(d["one_of"], field + ".one_of");
        for (const auto& v : d["one_of"]) p.one_of.push_back(integer(v, field + ".one_of"));
        if (p.one_of.empty()) fail(d["one_of"], field + ".one_of", "an empty list");
      }
      if (d["value"]) p.value = expr(d["value"], field + ".value");
      if (d["multiple_of"]) {
        if (!p.range) fail(d["multiple_of"], field, "multiple_of goes with range");
        p.multiple_of = expr(d["multiple_of"], field + ".multiple_of");
      }
      if (d["simulator"]) {
        if (!p.range) fail(d["simulator"], field, "simulator (a range) goes with range");
        p.sim_range = range(d["simulator"], field + ".simulator");
      }
      for (const auto& q : s.params)
        if (q.name == p.name) fail(kv.first, field, "defined twice");
      s.params.push_back(std::move(p));
    }
  }

  InitSpec parseInit(const YAML::Node& n, const std::string& field) {
    std::string text = scalarString(n, field);
    std::smatch m;
    InitSpec init;
    init.text = text;
    static const std::regex call(
        R"(\s*([a-z_]+)\s*(?:\(\s*([^,()]*?)\s*(?:,\s*([^,()]*?)\s*)?\))?\s*)");
    if (!std::regex_match(text, m, call)) fail(n, field, "cannot read '" + text + "'");
    std::string fn = m[1];
    auto num = [&](const std::ssub_match& s) {
      try {
        size_t used = 0;
        double v = std::stod(s.str(), &used);
        if (used != s.str().size()) throw std::invalid_argument("trailing");
        return v;
      } catch (const std::exception&) {
        fail(n, field, "'" + s.str() + "' is not a number in '" + text + "'");
      }
    };
    if (fn == "zero" && !m[2].matched) {
      init.kind = InitSpec::Kind::zero;
    } else if (fn == "iota" && !m[2].matched) {
      init.kind = InitSpec::Kind::iota;
    } else if (fn == "constant" && m[2].matched && !m[3].matched) {
      init.kind = InitSpec::Kind::constant;
      init.a = num(m[2]);
    } else if (fn == "uniform" && m[2].matched && m[3].matched) {
      init.kind = InitSpec::Kind::uniform;
      init.a = num(m[2]);
      init.b = num(m[3]);
      if (init.b < init.a) fail(n, field, "uniform(lo, hi) needs lo <= hi");
    } else {
      fail(n, field,
           "unknown initialisation '" + text +
               "' (expected: zero, constant(V), uniform(LO, HI), iota)");
    }
    return init;
  }

  CompareSpec parseCompare(const YAML::Node& n, const std::string& field) {
    CompareSpec c;
    if (n.IsScalar()) {
      if (n.Scalar() != "exact")
        fail(n, field,
             "unknown comparison '" + n.Scalar() +
                 "' (expected: exact, {ulp: N}, {abs: E, rel: E})");
      return c;
    }
    checkKeys(n, {"ulp", "abs", "rel"}, field);
    if (n["ulp"]) {
      if (n["abs"] || n["rel"]) fail(n, field, "ulp does not combine with abs/rel");
      c.kind = CompareSpec::Kind::ulp;
      c.ulp = integer(n["ulp"], field + ".ulp");
      if (c.ulp < 0) fail(n["ulp"], field + ".ulp", "must be >= 0");
      return c;
    }
    c.kind = CompareSpec::Kind::tolerance;
    if (n["abs"]) c.abs = expr(n["abs"], field + ".abs");
    if (n["rel"]) c.rel = expr(n["rel"], field + ".rel");
    return c;
  }

  void loadBuffers(const YAML::Node& bufs, Spec& s) {
    if (!bufs.IsMap() || bufs.size() == 0)
      fail(bufs, "buffers", "expected a mapping NAME: {type, count, ...}");
    for (const auto& kv : bufs) {
      BufferSpec b;
      b.name = kv.first.as<std::string>();
      b.line = lineOf(kv.first);
      std::string field = "buffers." + b.name;
      const YAML::Node& d = kv.second;
      checkKeys(d, {"type", "count", "shape", "role", "init", "compare", "memory"}, field);
      if (d["memory"]) {
        std::string m = scalarString(d["memory"], field + ".memory");
        b.memory = bufferModeFromString(m);
        if (!b.memory) {
          std::string list;
          for (auto mode : allBufferModes())
            list += (list.empty() ? "" : ", ") + std::string(toString(mode));
          fail(d["memory"], field + ".memory", "unknown mode '" + m + "' (expected: " + list + ")");
        }
      }
      std::string type = d["type"] ? scalarString(d["type"], field + ".type") : "float";
      auto t = elemTypeFromString(type);
      if (!t)
        fail(d["type"], field + ".type",
             "unknown type '" + type +
                 "' (expected: char uchar short ushort int uint long ulong float double)");
      b.type = *t;
      if (!d["count"]) fail(d, field + ".count", "missing");
      b.count = expr(d["count"], field + ".count");
      if (d["shape"]) b.shape = exprList(d["shape"], field + ".shape");
      std::string role = d["role"] ? scalarString(d["role"], field + ".role") : "in";
      if (role == "in")
        b.role = Role::in;
      else if (role == "out")
        b.role = Role::out;
      else if (role == "inout")
        b.role = Role::inout;
      else if (role == "scratch")
        b.role = Role::scratch;
      else
        fail(d["role"], field + ".role",
             "unknown role '" + role + "' (expected: in, out, inout, scratch)");
      if (d["init"]) {
        if (b.role == Role::out)
          fail(d["init"], field + ".init",
               "an out buffer is poisoned, not initialised (use role: inout)");
        b.init = parseInit(d["init"], field + ".init");
      }
      if (d["compare"]) {
        if (b.role != Role::out && b.role != Role::inout)
          fail(d["compare"], field + ".compare", "only out and inout buffers are compared");
        b.compare = parseCompare(d["compare"], field + ".compare");
        if (b.compare.kind == CompareSpec::Kind::ulp && !isFloat(b.type))
          fail(d["compare"], field + ".compare", "ulp needs a float or double buffer");
      }
      for (const auto& o : s.buffers)
        if (o.name == b.name) fail(kv.first, field, "defined twice");
      s.buffers.push_back(std::move(b));
    }
    if (std::none_of(s.buffers.begin(), s.buffers.end(), [](const BufferSpec& b) {
          return b.role == Role::out || b.role == Role::inout;
        }))
      fail(bufs, "buffers", "no buffer has role out or inout: nothing would be checked");
  }

  ArgSpec loadArg(const YAML::Node& n, const Spec& s, const std::string& field) {
    ArgSpec a;
    a.line = lineOf(n);
    if (n.IsScalar()) {
      a.kind = ArgSpec::Kind::buffer;
      a.buffer = n.Scalar();
      if (!s.findBuffer(a.buffer)) fail(n, field, "no buffer named '" + a.buffer + "'");
      return a;
    }
    checkKeys(n, {"scalar", "local", "value", "count", "name"}, field);
    if (n["scalar"]) {
      a.kind = ArgSpec::Kind::scalar;
      std::string t = scalarString(n["scalar"], field + ".scalar");
      auto et = elemTypeFromString(t);
      if (!et) fail(n["scalar"], field + ".scalar", "unknown type '" + t + "'");
      a.type = *et;
      if (!n["value"]) fail(n, field + ".value", "missing");
      a.value = expr(n["value"], field + ".value");
      if (n["name"]) a.name = scalarString(n["name"], field + ".name");
    } else if (n["local"]) {
      a.kind = ArgSpec::Kind::local;
      std::string t = scalarString(n["local"], field + ".local");
      auto et = elemTypeFromString(t);
      if (!et) fail(n["local"], field + ".local", "unknown type '" + t + "'");
      a.type = *et;
      if (!n["count"]) fail(n, field + ".count", "missing");
      a.value = expr(n["count"], field + ".count");
    } else {
      fail(n, field,
           "an argument is a buffer name, {scalar: TYPE, value: E} or {local: TYPE, count: E}");
    }
    return a;
  }

  LaunchSpec loadLaunch(const YAML::Node& n, const Spec& s) {
    LaunchSpec l;
    l.line = lineOf(n);
    if (!n["kernel"]) fail(n, "kernel", "missing");
    l.kernel = scalarString(n["kernel"], "kernel");
    if (!n["args"]) fail(n, "args", "missing");
    requireSeq(n["args"], "args");
    int i = 0;
    for (const auto& a : n["args"])
      l.args.push_back(loadArg(a, s, "args[" + std::to_string(i++) + "]"));
    if (!n["global"]) fail(n, "global", "missing");
    l.global = exprList(n["global"], "global");
    if (n["local"] && !n["local"].IsNull()) {
      l.local = exprList(n["local"], "local");
      if (l.local.size() != l.global.size())
        fail(n["local"], "local", "needs as many dimensions as global");
    }
    if (n["offset"]) {
      l.offset = exprList(n["offset"], "offset");
      if (l.offset.size() != l.global.size())
        fail(n["offset"], "offset", "needs as many dimensions as global");
    }
    return l;
  }

  ExpectSpec loadExpect(const YAML::Node& n) {
    ExpectSpec e;
    e.line = lineOf(n);
    checkKeys(n, {"any_of", "devices", "reason", "certain"}, "expect");
    if (!n["any_of"]) fail(n, "expect.any_of", "missing: the finding kinds that must appear");
    std::vector<std::string> words;
    if (n["any_of"].IsScalar())
      words.push_back(n["any_of"].Scalar());
    else {
      requireSeq(n["any_of"], "expect.any_of");
      for (const auto& w : n["any_of"]) words.push_back(scalarString(w, "expect.any_of"));
    }
    for (const auto& w : words) {
      auto k = findingKindFromString(w);
      if (!k) {
        std::string list;
        for (auto kind : allFindingKinds())
          list += (list.empty() ? "" : ", ") + std::string(toString(kind));
        fail(n["any_of"], "expect.any_of", "unknown finding '" + w + "' (expected: " + list + ")");
      }
      e.any_of.push_back(*k);
    }
    e.devices = optString(n, "devices");
    if (!e.devices.empty()) {
      try {
        std::regex re(e.devices);
      } catch (const std::regex_error&) {
        fail(n["devices"], "expect.devices", "not a valid regular expression");
      }
    }
    e.reason = optString(n, "reason");
    if (n["certain"]) {
      e.certain = scalarString(n["certain"], "expect.certain");
      if (e.certain != "everywhere" && e.certain != "simulator") {
        try {
          std::regex re(e.certain);
        } catch (const std::regex_error&) {
          fail(n["certain"], "expect.certain",
               "expected everywhere, simulator, or a regular expression of devices");
        }
      }
    }
    return e;
  }

  SuppressSpec loadSuppress(const YAML::Node& n) {
    SuppressSpec sp;
    sp.line = lineOf(n);
    checkKeys(n, {"kind", "devices", "reason"}, "suppress");
    std::string word = n["kind"] ? scalarString(n["kind"], "suppress.kind") : "";
    auto k = findingKindFromString(word);
    if (!k) fail(n, "suppress.kind", "unknown finding '" + word + "'");
    sp.kind = *k;
    sp.devices = optString(n, "devices");
    if (!sp.devices.empty()) {
      try {
        std::regex re(sp.devices);
      } catch (const std::regex_error&) {
        fail(n["devices"], "suppress.devices", "not a valid regular expression");
      }
    }
    sp.reason = optString(n, "reason");
    if (sp.reason.empty())
      fail(n, "suppress.reason", "missing: say why the finding is not the kernel's");
    return sp;
  }

  // A range [lo, hi] whose ends are both constants must have lo <= hi (one that depends on
  // earlier parameters is checked per case: its empty domains are discarded).
  void checkOrder(ExprEnv& env, const std::pair<Expr, Expr>& r, const std::string& field) {
    if (!env.usedNames(r.first.text).empty() || !env.usedNames(r.second.text).empty()) return;
    int64_t lo = 0, hi = 0;
    try {
      lo = env.evalInt(r.first.text);
      hi = env.evalInt(r.second.text);
    } catch (const ExprError& e) {
      throw SpecError(file_, r.first.line, field + ": " + e.what());
    }
    if (lo > hi)
      throw SpecError(file_, r.first.line,
                      fmt::format("{}: [{}, {}] is empty: the first value is the lowest ({} > {})",
                                  field, r.first.text, r.second.text, lo, hi));
  }

  // Every expression must parse and use only known names; params only earlier params.
  void validateExpressions(const Spec& s) {
    std::vector<std::string> names;
    for (const auto& p : s.params) names.push_back(p.name);
    ExprEnv env(names);
    auto check = [&](const Expr& e, const std::string& field, size_t visible) {
      std::vector<std::string> used;
      try {
        used = env.usedNames(e.text);
      } catch (const ExprError& err) {
        throw SpecError(file_, e.line, field + ": " + err.what());
      }
      for (const auto& u : used) {
        auto it = std::find(names.begin(), names.end(), u);
        if (it == names.end())
          throw SpecError(file_, e.line,
                          field + ": '" + e.text + "' uses '" + u + "', which is not a parameter");
        if (static_cast<size_t>(it - names.begin()) >= visible)
          throw SpecError(file_, e.line,
                          field + ": '" + e.text + "' uses '" + u + "', defined after it");
      }
    };
    for (size_t i = 0; i < s.params.size(); ++i) {
      const auto& p = s.params[i];
      std::string f = "params." + p.name;
      if (p.range) {
        check(p.range->first, f, i);
        check(p.range->second, f, i);
      }
      if (p.sim_range) {
        check(p.sim_range->first, f, i);
        check(p.sim_range->second, f, i);
      }
      if (p.multiple_of) check(*p.multiple_of, f, i);
      if (p.value) check(*p.value, f, i);
      if (p.range) checkOrder(env, *p.range, f + ".range");
      if (p.sim_range) checkOrder(env, *p.sim_range, f + ".simulator");
    }
    size_t all = names.size();
    for (const auto& c : s.constraints) check(c, "constraints", all);
    for (const auto& b : s.buffers) {
      check(b.count, "buffers." + b.name + ".count", all);
      for (const auto& d : b.shape) check(d, "buffers." + b.name + ".shape", all);
      check(b.compare.abs, "buffers." + b.name + ".compare.abs", all);
      check(b.compare.rel, "buffers." + b.name + ".compare.rel", all);
    }
    for (const auto& l : s.launches) {
      for (const auto& a : l.args)
        if (a.kind != ArgSpec::Kind::buffer) check(a.value, "args", all);
      for (const auto& g : l.global) check(g, "global", all);
      for (const auto& g : l.local) check(g, "local", all);
      for (const auto& g : l.offset) check(g, "offset", all);
    }
    if (s.flops) check(*s.flops, "flops", all);
    if (s.bytes) check(*s.bytes, "bytes", all);
    // build_options: check each {EXPR}.
    const std::string& bo = s.build_options;
    for (size_t pos = bo.find('{'); pos != std::string::npos; pos = bo.find('{', pos + 1)) {
      size_t close = bo.find('}', pos);
      if (close == std::string::npos)
        throw SpecError(file_, s.build_options_line, "build_options: unclosed '{'");
      check(Expr{bo.substr(pos + 1, close - pos - 1), s.build_options_line}, "build_options", all);
    }
  }

  std::string file_;
  std::string repoRoot_;
};

}  // namespace

std::optional<ElemType> elemTypeFromString(const std::string& name) {
  for (const auto& t : kTypes)
    if (name == t.name) return t.type;
  return std::nullopt;
}
std::string toString(ElemType type) {
  for (const auto& t : kTypes)
    if (t.type == type) return t.name;
  return "?";
}
size_t sizeOf(ElemType type) {
  for (const auto& t : kTypes)
    if (t.type == type) return t.size;
  return 0;
}
bool isFloat(ElemType t) {
  return t == ElemType::f32 || t == ElemType::f64;
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
