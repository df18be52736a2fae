// The YAML spec loader's class (private to core/spec*.cpp): load() in spec.cpp, the field readers
// in spec_fields.cpp, the checks across fields in spec_checks.cpp.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/expr.hpp"
#include "core/spec.hpp"

namespace clh::spec_detail {

// A YAML node's 1-based line; 1 for a node with no place (an empty document).
inline int lineOf(const YAML::Node& n) {
  return n.Mark().line >= 0 ? n.Mark().line + 1 : 1;
}

class Loader {
 public:
  Loader(std::string file, std::string repoRoot)
      : file_(std::move(file)), repoRoot_(std::move(repoRoot)) {}

  Spec load();

 private:
  // The file as a YAML mapping; a SpecError when it cannot be read or is not one.
  YAML::Node readDocument();
  // name, origin, description, source and reference.
  void loadIdentity(const YAML::Node& doc, Spec& s);
  // One launch (kernel/args/global) or a list of them (launches).
  void loadLaunches(const YAML::Node& doc, Spec& s);
  // What the spec says of its runs: expect, read, suppress, cases, flops, bytes, labels.
  void loadRunFields(const YAML::Node& doc, Spec& s);

  [[noreturn]] void fail(const YAML::Node& n, const std::string& field, const std::string& what);

  void checkKeys(const YAML::Node& map, std::initializer_list<const char*> allowed,
                 const std::string& where);

  std::string scalarString(const YAML::Node& n, const std::string& field);
  std::string requireString(const YAML::Node& map, const char* key);
  std::string optString(const YAML::Node& map, const char* key);
  void requireSeq(const YAML::Node& n, const std::string& field);
  Expr expr(const YAML::Node& n, const std::string& field);
  std::vector<Expr> exprList(const YAML::Node& n, const std::string& field);
  int64_t integer(const YAML::Node& n, const std::string& field);
  int positiveInt(const YAML::Node& n, const std::string& field);

  std::string resolveSource(const YAML::Node& n, const std::string& source);

  std::pair<Expr, Expr> range(const YAML::Node& n, const std::string& field);

  void loadParams(const YAML::Node& params, Spec& s);

  InitSpec parseInit(const YAML::Node& n, const std::string& field);

  CompareSpec parseCompare(const YAML::Node& n, const std::string& field);

  void loadBuffers(const YAML::Node& bufs, Spec& s);

  ArgSpec loadArg(const YAML::Node& n, const Spec& s, const std::string& field);

  LaunchSpec loadLaunch(const YAML::Node& n, const Spec& s);

  ExpectSpec loadExpect(const YAML::Node& n);

  SuppressSpec loadSuppress(const YAML::Node& n);

  // A range [lo, hi] whose ends are both constants must have lo <= hi (one that depends on
  // earlier parameters is checked per case: its empty domains are discarded).
  void checkOrder(ExprEnv& env, const std::pair<Expr, Expr>& r, const std::string& field);

  // Every expression must parse and use only known names; params only earlier params.
  void validateExpressions(const Spec& s);

  // Every expression evaluates, and every count and launch size is not negative, at sample sizes
  // in the spec's domain (each range's bounds and points between, real and simulator ranges): a
  // division by zero or a negative count is the spec's error, named with its line here rather
  // than found as cases that never run ("pass (0 cases)").
  void checkValuesAtSampleSizes(const Spec& s);

  std::string file_;
  std::string repoRoot_;
};

}  // namespace clh::spec_detail
