// A unit's budget of programs: the domain's ends reserved from a seeded pre-draw, then first come.
#include "core/program_budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

#include "core/sizes.hpp"

namespace clh {

namespace {

// Draws of the spec's generator that look for the lowest and highest option values. The generator
// favours its ranges' bounds (one draw in eight for each), so a few hundred draws meet them.
constexpr int kEndDraws = 256;

std::vector<std::string> braceExpressions(const std::string& text) {
  std::vector<std::string> out;
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    const size_t close = text.find('}', open);
    if (close == std::string::npos) break;  // substituteBraces says what is wrong with it
    out.push_back(text.substr(open + 1, close - open - 1));
  }
  return out;
}

// Each launch's local size at `sizes` (its global size where the driver chooses), in order.
std::vector<int64_t> launchLocalSizes(const Spec& spec, ExprEnv& env) {
  std::vector<int64_t> out;
  for (const LaunchSpec& launch : spec.launches)
    for (const Expr& e : launch.local.empty() ? launch.global : launch.local)
      out.push_back(env.evalInt(e.text));
  return out;
}

}  // namespace

bool programsMeetSeveralLocalSizes(const Spec& spec) {
  if (braceExpressions(spec.build_options).empty()) return false;
  ExprEnv env(paramNames(spec));
  std::map<std::string, std::vector<int64_t>> local_of;
  const auto gen = sizesGen(spec, false);
  rc::Random random(hash64("local-sizes:" + spec.name));
  std::lock_guard<std::mutex> drawing(generatorLock());
  for (int draw = 0; draw < kEndDraws; ++draw) {
    try {
      const Sizes s = gen(random.split(), rc::kNominalSize).value();
      if (!inDomain(spec, env, s, false, nullptr)) continue;
      env.bind(s);
      std::vector<int64_t> local = launchLocalSizes(spec, env);
      const auto [it, first] = local_of.emplace(substituteBraces(spec.build_options, env), local);
      if (!first && it->second != local) return true;
    } catch (const ExprError&) {  // sizes the expressions cannot evaluate: not a case
    }
  }
  return false;
}

ProgramBudget::ProgramBudget(const Spec& spec, bool simulator, uint64_t seed, int most)
    : spec_(spec),
      env_(paramNames(spec)),
      expressions_(braceExpressions(spec.build_options)),
      most_(most),
      limited_(most > 0 && !expressions_.empty()) {
  if (limited_) reserveEnds(simulator, seed);
}

std::vector<int64_t> ProgramBudget::optionValues(const Sizes& sizes) {
  env_.bind(sizes);
  std::vector<int64_t> values;
  for (const auto& e : expressions_) values.push_back(env_.evalInt(e));
  return values;
}

void ProgramBudget::reserveEnds(bool simulator, uint64_t seed) {
  const auto gen = sizesGen(spec_, simulator);
  rc::Random random(hash64("build-programs:" + spec_.name, seed));
  std::optional<Sizes> lowest, highest;
  std::vector<int64_t> low, high;
  std::lock_guard<std::mutex> drawing(generatorLock());
  for (int draw = 0; draw < kEndDraws; ++draw) {
    try {
      const Sizes s = gen(random.split(), rc::kNominalSize).value();
      if (!inDomain(spec_, env_, s, simulator, nullptr)) continue;
      const std::vector<int64_t> v = optionValues(s);
      if (!lowest || v < low) {
        lowest = s;
        low = v;
      }
      if (!highest || v > high) {
        highest = s;
        high = v;
      }
    } catch (const ExprError&) {  // sizes the expressions cannot evaluate: not a case
    }
  }
  for (const auto* s : {&lowest, &highest}) {
    if (!*s || static_cast<int>(admitted_.size()) >= most_) continue;
    env_.bind(**s);
    std::string text = substituteBraces(spec_.build_options, env_);
    if (std::find(admitted_.begin(), admitted_.end(), text) == admitted_.end())
      admitted_.push_back(std::move(text));
  }
}

bool ProgramBudget::admit(const Sizes& sizes) {
  if (!limited_) return true;
  env_.bind(sizes);
  std::string text = substituteBraces(spec_.build_options, env_);
  const bool known = std::find(admitted_.begin(), admitted_.end(), text) != admitted_.end();
  if (!known && static_cast<int>(admitted_.size()) >= most_) {
    ++refused_;
    return false;
  }
  if (!known) admitted_.push_back(text);
  if (std::find(built_.begin(), built_.end(), text) == built_.end())
    built_.push_back(std::move(text));
  return true;
}

std::string ProgramBudget::note() const {
  if (refused_ == 0) return {};
  std::string texts;
  for (const auto& t : built_) texts += (texts.empty() ? "'" : ", '") + t + "'";
  return fmt::format(
      "sizes that are build options came from {} program{} ({}), at most {} a unit with the "
      "lowest and highest options of the domain reserved; {} drawn case{} needing another "
      "program did not run (`--build-programs 0` builds every one)",
      built_.size(), built_.size() == 1 ? "" : "s", texts, most_, refused_,
      refused_ == 1 ? "" : "s");
}

}  // namespace clh
