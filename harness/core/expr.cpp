// muParser behind ExprEnv.
#include "core/expr.hpp"

#include <muParser.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace clh {

namespace {
double fmodOp(double a, double b) {
  return std::fmod(a, b);
}
double floorFn(double a) {
  return std::floor(a);
}
double ceilFn(double a) {
  return std::ceil(a);
}
}  // namespace

struct ExprEnv::Impl {
  // A parsed expression; one that uses no parameter (a tolerance's "0", a constant) keeps its
  // value, so that a case's evaluations skip muParser where they can.
  struct Parsed {
    std::unique_ptr<mu::Parser> parser;
    bool constant = false;
    double value = 0;
  };
  std::vector<std::string> names;
  std::vector<double> values;  // stable storage: muParser keeps pointers into it
  std::unordered_map<std::string, Parsed> parsers;
  // The entry of a text at an address looked up before: a case evaluates the same strings of its
  // spec each time, and comparing a short text costs less than hashing it. The text is compared
  // as well: another string may live at that address later.
  struct Recent {
    const std::string* at = nullptr;
    std::pair<const std::string, Parsed>* entry = nullptr;
  };
  std::array<Recent, 64> recent{};

  Parsed& parsed(const std::string& text) {
    Recent& r = recent[(reinterpret_cast<uintptr_t>(&text) / sizeof(std::string)) % recent.size()];
    if (r.at != &text || r.entry->first != text) r = {&text, &lookUp(text)};
    return r.entry->second;
  }

  std::pair<const std::string, Parsed>& lookUp(const std::string& text) {
    auto it = parsers.find(text);
    if (it != parsers.end()) return *it;
    Parsed made;
    made.parser = parser(text);
    try {
      made.constant = made.parser->GetUsedVar().empty();
      if (made.constant) made.value = made.parser->Eval();
    } catch (const mu::Parser::exception_type&) {
      made.constant = false;  // evaluated (and reported) by eval() each time, as before
    }
    return *parsers.emplace(text, std::move(made)).first;
  }

  std::unique_ptr<mu::Parser> parser(const std::string& text) {
    auto p = std::make_unique<mu::Parser>();
    try {
      p->DefineOprt("%", fmodOp, mu::prMUL_DIV, mu::oaLEFT, true);
      p->DefineFun("floor", floorFn);
      p->DefineFun("ceil", ceilFn);
      for (size_t i = 0; i < names.size(); ++i) p->DefineVar(names[i], &values[i]);
      p->SetExpr(text);
      p->Eval();  // parses now, so errors surface here with the text
    } catch (const mu::Parser::exception_type& e) {
      throw ExprError("bad expression '" + text + "': " + e.GetMsg());
    }
    return p;
  }
};

ExprEnv::ExprEnv(std::vector<std::string> names) : impl_(std::make_unique<Impl>()) {
  impl_->names = std::move(names);
  impl_->values.assign(impl_->names.size(), 0.0);
}
ExprEnv::~ExprEnv() = default;

void ExprEnv::bind(const Sizes& sizes) {
  for (size_t i = 0; i < impl_->names.size(); ++i) {
    auto it = sizes.find(impl_->names[i]);
    impl_->values[i] = it == sizes.end() ? 0.0 : static_cast<double>(it->second);
  }
}

void ExprEnv::set(const std::string& name, double value) {
  for (size_t i = 0; i < impl_->names.size(); ++i)
    if (impl_->names[i] == name) impl_->values[i] = value;
}

double ExprEnv::eval(const std::string& text) {
  Impl::Parsed& parsed = impl_->parsed(text);
  if (parsed.constant) return parsed.value;
  try {
    return parsed.parser->Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExprError("cannot evaluate '" + text + "': " + e.GetMsg());
  }
}

int64_t ExprEnv::evalInt(const std::string& text) {
  double v = eval(text);
  if (!std::isfinite(v)) throw ExprError("'" + text + "' is not a finite number");
  double r = std::trunc(v);
  if (std::fabs(v - std::round(v)) < 1e-9) r = std::round(v);
  if (r < -0x1p63 || r >= 0x1p63)
    throw ExprError("'" + text + "' = " + std::to_string(v) + " does not fit a 64-bit integer");
  return static_cast<int64_t>(r);
}

namespace {
// Gives every unknown name a variable, so usedNames() can list names that are not parameters.
double* scratchVariable(const mu::char_type*, void* user) {
  auto* store = static_cast<std::vector<std::unique_ptr<double>>*>(user);
  store->push_back(std::make_unique<double>(1.0));
  return store->back().get();
}
}  // namespace

std::vector<std::string> ExprEnv::usedNames(const std::string& text) {
  std::vector<std::unique_ptr<double>> store;
  mu::Parser p;
  std::vector<double> values(impl_->names.size(), 1.0);
  try {
    p.DefineOprt("%", fmodOp, mu::prMUL_DIV, mu::oaLEFT, true);
    p.DefineFun("floor", floorFn);
    p.DefineFun("ceil", ceilFn);
    for (size_t i = 0; i < impl_->names.size(); ++i) p.DefineVar(impl_->names[i], &values[i]);
    p.SetVarFactory(scratchVariable, &store);
    p.SetExpr(text);
    std::vector<std::string> out;
    for (const auto& [name, ptr] : p.GetUsedVar()) out.push_back(name);
    return out;
  } catch (const mu::Parser::exception_type& e) {
    throw ExprError("bad expression '" + text + "': " + e.GetMsg());
  }
}

std::string substituteBraces(const std::string& text, ExprEnv& env) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find('{', pos);
    if (open == std::string::npos) {
      out += text.substr(pos);
      break;
    }
    size_t close = text.find('}', open);
    if (close == std::string::npos) throw ExprError("unclosed '{' in '" + text + "'");
    out += text.substr(pos, open - pos);
    out += std::to_string(env.evalInt(text.substr(open + 1, close - open - 1)));
    pos = close + 1;
  }
  return out;
}

}  // namespace clh
