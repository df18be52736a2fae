// The spec loader's field readers: scalars, expressions, ranges, sources, params, init and
// compare rules, buffers, args, the launch, expectations and suppressions (core/spec_loader.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <string_view>

#include "core/reference.hpp"
#include "core/spec_loader.hpp"

namespace fs = std::filesystem;

namespace clh::spec_detail {

std::string Loader::scalarString(const YAML::Node& n, const std::string& field) {
  if (!n.IsScalar()) fail(n, field, "expected a single value");
  return n.Scalar();
}

std::string Loader::requireString(const YAML::Node& map, const char* key) {
  if (!map[key]) fail(map, key, "missing");
  return scalarString(map[key], key);
}

std::string Loader::optString(const YAML::Node& map, const char* key) {
  return map[key] ? scalarString(map[key], key) : std::string();
}

void Loader::requireSeq(const YAML::Node& n, const std::string& field) {
  if (!n.IsSequence()) fail(n, field, "expected a list");
}

Expr Loader::expr(const YAML::Node& n, const std::string& field) {
  return Expr{scalarString(n, field), lineOf(n)};
}

std::vector<Expr> Loader::exprList(const YAML::Node& n, const std::string& field) {
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

int64_t Loader::integer(const YAML::Node& n, const std::string& field) {
  try {
    return n.as<int64_t>();
  } catch (const YAML::Exception&) {
    fail(n, field,
         "expected an integer, got '" + (n.IsScalar() ? n.Scalar() : "a structure") + "'");
  }
}

int Loader::positiveInt(const YAML::Node& n, const std::string& field) {
  int64_t v = integer(n, field);
  if (v < 1 || v > 1000000) fail(n, field, "expected an integer from 1 to 1000000");
  return static_cast<int>(v);
}

namespace {

// What a file that is not a regular one is, for a message.
std::string notRegularWhat(fs::file_type t) {
  switch (t) {
    case fs::file_type::directory:
      return "a folder";
    case fs::file_type::fifo:
      return "a named pipe (FIFO), not a regular file";
    case fs::file_type::socket:
      return "a socket, not a regular file";
    case fs::file_type::block:
    case fs::file_type::character:
      return "a device, not a regular file";
    default:
      return "not a regular file";
  }
}

}  // namespace

std::string Loader::resolveSource(const YAML::Node& n, const std::string& source) {
  std::vector<fs::path> candidates;
  if (fs::path(source).is_absolute()) candidates.push_back(source);
  if (!repoRoot_.empty()) candidates.push_back(fs::path(repoRoot_) / source);
  candidates.push_back(fs::path(file_).parent_path() / source);
  candidates.push_back(fs::path(source));
  // The kernel file lies in the spec's tree: below the repository root or the spec's folder
  // (links resolved), so that a spec cannot have the tool read and report a file elsewhere
  // (`source: ../../../etc/passwd`).
  auto inside = [](const fs::path& file, const fs::path& folder) {
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(folder, ec);
    if (ec || base.empty()) return false;
    const fs::path rel = file.lexically_relative(base);
    return !rel.empty() && *rel.begin() != "..";
  };
  for (const auto& c : candidates) {
    std::error_code ec;  // a name too long or not a path at all is "not found", not a throw
    const fs::file_type type = fs::status(c, ec).type();
    if (type != fs::file_type::regular && type != fs::file_type::not_found &&
        type != fs::file_type::none && type != fs::file_type::unknown)
      fail(n, "source",
           "kernel file '" + source + "' is " + fs::absolute(c, ec).lexically_normal().string() +
               ", " + notRegularWhat(type) + ": a kernel file is a regular file");
    if (type != fs::file_type::regular) continue;
    const fs::path canonical = fs::weakly_canonical(c, ec);
    if (ec) continue;
    const fs::path specFolder = fs::absolute(fs::path(file_), ec).parent_path();
    if (!(!repoRoot_.empty() && inside(canonical, repoRoot_)) && !inside(canonical, specFolder))
      fail(n, "source",
           "kernel file '" + source + "' is " + canonical.string() + ", outside the spec's tree (" +
               (repoRoot_.empty() ? std::string() : repoRoot_ + " or ") + specFolder.string() +
               "): a spec names a kernel file below the repository root or its own folder");
    return canonical.string();
  }
  std::error_code ec;
  fail(n, "source",
       "kernel file '" + source + "' not found (looked in " +
           (fs::path(source).is_absolute() ? std::string("its own path, ") : std::string()) +
           (repoRoot_.empty() ? std::string() : repoRoot_ + ", ") +
           fs::absolute(fs::path(file_), ec).parent_path().lexically_normal().string() +
           " and the current folder)");
}

std::pair<Expr, Expr> Loader::range(const YAML::Node& n, const std::string& field) {
  if (!n.IsSequence() || n.size() != 2) fail(n, field, "expected [lo, hi]");
  return {expr(n[0], field), expr(n[1], field)};
}

void Loader::loadParams(const YAML::Node& params, Spec& s) {
  if (!params.IsMap()) fail(params, "params", "expected a mapping NAME: {range|one_of|value: ...}");
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

InitSpec Loader::parseInit(const YAML::Node& n, const std::string& field) {
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

CompareSpec Loader::parseCompare(const YAML::Node& n, const std::string& field) {
  CompareSpec c;
  if (n.IsScalar()) {
    if (n.Scalar() != "exact")
      fail(n, field,
           "unknown comparison '" + n.Scalar() + "' (expected: exact, {ulp: N}, {abs: E, rel: E})");
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

void Loader::loadBuffers(const YAML::Node& bufs, Spec& s) {
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

ArgSpec Loader::loadArg(const YAML::Node& n, const Spec& s, const std::string& field) {
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

namespace {

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Why kernel `name` cannot be in the file at `path`: the name is no identifier anywhere in it
// (comments included, so that a kernel a macro makes is never refused). Names the kernels the
// file declares (the identifier before the '(' after each `kernel`/`__kernel`). Nothing when it
// may be there, or the file cannot be read (the build will say).
std::optional<std::string> kernelMissing(const std::string& path, const std::string& name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> declared;
  bool head = false;  // after `kernel`, before its '('
  std::string last;   // the identifier before the next '('
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (!identChar(c)) {
      if (c == '(' && head) {
        if (!last.empty() && std::find(declared.begin(), declared.end(), last) == declared.end())
          declared.push_back(last);
        head = false;
      } else if (c == ';' || c == '{' || c == '}') {
        head = false;
      }
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && identChar(text[i])) ++i;
    const std::string_view word(text.data() + start, i - start);
    if (word == name) return std::nullopt;
    if (word == "kernel" || word == "__kernel") {
      head = true;
      last.clear();
    } else if (head) {
      last = std::string(word);
    }
  }
  std::string list;
  for (const auto& k : declared) list += (list.empty() ? "" : ", ") + k;
  return "is not in " + path +
         (list.empty() ? std::string(" (it declares no kernel)") : " (its kernels: " + list + ")");
}

}  // namespace

LaunchSpec Loader::loadLaunch(const YAML::Node& n, const Spec& s) {
  LaunchSpec l;
  l.line = lineOf(n);
  if (!n["kernel"]) fail(n, "kernel", "missing");
  l.kernel = scalarString(n["kernel"], "kernel");
  if (auto why = kernelMissing(s.source_path, l.kernel))
    fail(n["kernel"], "kernel", "'" + l.kernel + "' " + *why);
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

ExpectSpec Loader::loadExpect(const YAML::Node& n) {
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

SuppressSpec Loader::loadSuppress(const YAML::Node& n) {
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

}  // namespace clh::spec_detail
