// Size expressions ("N*N", "floor(N/TS)", "M <= 1024") evaluated over a case's parameters with
// muParser. Each distinct expression text is parsed once and then evaluated many times.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/hostbuffer.hpp"

namespace clh {

/// An expression that does not parse, or names an unknown parameter.
class ExprError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Evaluates expressions over a fixed set of parameter names. Not thread-safe.
class ExprEnv {
 public:
  explicit ExprEnv(std::vector<std::string> names);
  ~ExprEnv();
  ExprEnv(const ExprEnv&) = delete;
  ExprEnv& operator=(const ExprEnv&) = delete;

  /// Sets every parameter from `sizes`; names missing from `sizes` become 0.
  void bind(const Sizes& sizes);
  void set(const std::string& name, double value);

  double eval(const std::string& text);
  /// eval() rounded toward zero, after checking the value is finite and integral within 1e-9.
  int64_t evalInt(const std::string& text);
  bool evalBool(const std::string& text) { return eval(text) != 0.0; }

  /// The parameter names an expression uses (throws ExprError when it does not parse).
  std::vector<std::string> usedNames(const std::string& text);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Replaces each "{EXPR}" in `text` by the expression's integer value ("-DTS={TS}" -> "-DTS=8").
std::string substituteBraces(const std::string& text, ExprEnv& env);

}  // namespace clh
