// The spec loader's checks across fields: ranges in order, every expression names known
// parameters and evaluates at the smallest sizes (core/spec_loader.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "core/reference.hpp"
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

}  // namespace clh::spec_detail
