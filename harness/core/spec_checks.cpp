// The spec loader's checks across fields: ranges in order, every expression names known
// parameters and evaluates at the smallest sizes (core/spec_loader.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <regex>
#include <set>

#include "core/reference.hpp"
#include "core/sizes.hpp"
#include "core/spec_loader.hpp"

namespace fs = std::filesystem;

namespace clh::spec_detail {

void Loader::checkOrder(ExprEnv& env, const std::pair<Expr, Expr>& r, const std::string& field) {
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

void Loader::validateExpressions(const Spec& s) {
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

namespace {

// A point of [lo, hi] for sample k: the bounds first, then points spread by a hash.
int64_t samplePoint(int64_t lo, int64_t hi, int k, const std::string& name) {
  if (k == 0 || hi <= lo) return lo;
  if (k == 1) return hi;
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  return lo + static_cast<int64_t>(hash64(name + '#' + std::to_string(k), 0x73616d70ull) %
                                   (span == 0 ? 1 : span));
}

// What an expression must evaluate to: a number, an integer, or a count (an integer not
// negative).
enum class Want { number, integer, count };

// The values of one spec's expressions at sample sizes, each error a SpecError naming the line.
class SampleChecker {
 public:
  SampleChecker(const std::string& file, const Spec& s) : file_(file), s_(s), env_(paramNames(s)) {}

  // Checks every expression at sample sizes of the real (`simulator` 0) or simulator ranges.
  void checkSamples(bool simulator, int samples) {
    for (int k = 0; k < samples; ++k) {
      Sizes sizes;
      if (!drawSample(simulator, k, sizes)) continue;
      env_.bind(sizes);
      bool inside = true;
      for (const auto& c : s_.constraints) {
        value(c, "constraints", Want::number, c.line, sizes);
        inside = inside && env_.evalBool(c.text);
      }
      if (inside) checkAt(sizes);
    }
  }

 private:
  static std::string at(const Sizes& sizes) {
    return sizes.empty() ? std::string() : " at " + formatSizes(sizes);
  }

  // Evaluates `e` (line `fallback` when the expression has none) as `want` says.
  double value(const Expr& e, const std::string& field, Want want, int fallback,
               const Sizes& sizes) {
    const int line = e.line > 0 ? e.line : fallback;
    double v = 0;
    try {
      v = want == Want::number ? env_.eval(e.text) : static_cast<double>(env_.evalInt(e.text));
    } catch (const ExprError& err) {
      throw SpecError(file_, line, field + ": " + err.what() + at(sizes));
    }
    if (!std::isfinite(v))
      throw SpecError(file_, line,
                      field + ": '" + e.text + "' is not a finite number" + at(sizes) +
                          " (a division by zero?)");
    if (want == Want::count && v < 0)
      throw SpecError(file_, line,
                      fmt::format("{}: '{}' = {} is negative{}", field, e.text, v, at(sizes)));
    return v;
  }

  // Sample `k` of the parameters into `sizes`; false when a range is empty for the earlier
  // parameters' values (not a sample).
  bool drawSample(bool simulator, int k, Sizes& sizes) {
    for (const auto& p : s_.params) {
      env_.bind(sizes);
      if (p.value) {
        sizes[p.name] = static_cast<int64_t>(
            value(*p.value, "params." + p.name + ".value", Want::integer, p.line, sizes));
      } else if (!p.one_of.empty()) {
        sizes[p.name] = p.one_of[static_cast<size_t>(k) % p.one_of.size()];
      } else if (p.range) {
        const auto point = rangePoint(p, simulator, k, sizes);
        if (!point) return false;
        sizes[p.name] = *point;
      }
    }
    return true;
  }

  // A point of the parameter's range (a multiple of its multiple_of), or none when it is empty.
  std::optional<int64_t> rangePoint(const ParamSpec& p, bool simulator, int k, const Sizes& sizes) {
    const auto& r = (simulator && p.sim_range) ? *p.sim_range : *p.range;
    const std::string field =
        "params." + p.name + (simulator && p.sim_range ? ".simulator" : ".range");
    const auto lo = static_cast<int64_t>(value(r.first, field, Want::integer, p.line, sizes));
    const auto hi = static_cast<int64_t>(value(r.second, field, Want::integer, p.line, sizes));
    int64_t m = 1;
    if (p.multiple_of)
      m = std::max<int64_t>(
          1, static_cast<int64_t>(value(*p.multiple_of, "params." + p.name + ".multiple_of",
                                        Want::integer, p.line, sizes)));
    const int64_t klo = lo >= 0 ? (lo + m - 1) / m : -((-lo) / m),
                  khi = hi >= 0 ? hi / m : -((-hi + m - 1) / m);
    if (klo > khi) return std::nullopt;
    return samplePoint(klo, khi, k, p.name) * m;
  }

  // The buffers' counts and tolerances, the launches' arguments and sizes, flops and bytes.
  void checkAt(const Sizes& sizes) {
    for (const auto& b : s_.buffers) {
      const std::string f = "buffers." + b.name;
      value(b.count, f + ".count", Want::count, b.line, sizes);
      for (const auto& d : b.shape) value(d, f + ".shape", Want::count, b.line, sizes);
      if (b.compare.kind == CompareSpec::Kind::tolerance) {
        value(b.compare.abs, f + ".compare.abs", Want::number, b.line, sizes);
        value(b.compare.rel, f + ".compare.rel", Want::number, b.line, sizes);
      }
    }
    for (const auto& l : s_.launches) {
      for (const auto& a : l.args)
        if (a.kind == ArgSpec::Kind::scalar || a.kind == ArgSpec::Kind::local)
          value(a.value, "args", a.kind == ArgSpec::Kind::local ? Want::count : Want::number,
                a.line > 0 ? a.line : l.line, sizes);
      for (const auto& g : l.global) value(g, "global", Want::count, l.line, sizes);
      for (const auto& g : l.local) value(g, "local", Want::count, l.line, sizes);
      for (const auto& g : l.offset) value(g, "offset", Want::count, l.line, sizes);
    }
    if (s_.flops) value(*s_.flops, "flops", Want::number, 0, sizes);
    if (s_.bytes) value(*s_.bytes, "bytes", Want::number, 0, sizes);
  }

  const std::string& file_;
  const Spec& s_;
  ExprEnv env_;
};

}  // namespace

void Loader::checkValuesAtSampleSizes(const Spec& s) {
  constexpr int kSamples = 24;  // per kind of range (real, simulator)
  SampleChecker checker(file_, s);
  checker.checkSamples(false, kSamples);
  const bool any_sim_range = std::any_of(
      s.params.begin(), s.params.end(), [](const ParamSpec& p) { return p.sim_range.has_value(); });
  if (any_sim_range) checker.checkSamples(true, kSamples);
}

}  // namespace clh::spec_detail
