// The sizes of a sanitized unit and a spec made concrete at one of them (sanitize/case_sizes.hpp).
#include "sanitize/case_sizes.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cctype>

#include "core/case.hpp"
#include "core/expr.hpp"
#include "core/sizes.hpp"
#include "sanitize/runtime.hpp"

namespace clh::sanitize {

namespace {

constexpr int kSearchSteps = 4096;   // sizes tried when looking for the largest that holds
constexpr int kValuesPerParam = 64;  // values of one parameter tried, from its largest down
constexpr int kHalvings = 40;        // times the search is narrowed to fit the memory bound
constexpr int kDrawsPerCase = 50;    // random draws per case wanted (repeats, out of domain)
// the __global shadow: kGlobalShadowUints uints (24 bytes) per 4 bytes of buffers
constexpr uint64_t kShadowPerByte = kGlobalShadowUints;

int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

// The values parameter `p` may take after the earlier `sizes`, largest first, none above `cap`.
std::vector<int64_t> descending(const ParamSpec& p, ExprEnv& env, const Sizes& sizes, int64_t cap) {
  std::vector<int64_t> out;
  env.bind(sizes);
  if (p.value) return {env.evalInt(p.value->text)};
  if (!p.one_of.empty()) {
    for (int64_t v : p.one_of)
      if (v <= cap) out.push_back(v);
    std::sort(out.rbegin(), out.rend());
    return out;
  }
  const int64_t lo = env.evalInt(p.range->first.text);
  const int64_t hi = std::min(cap, env.evalInt(p.range->second.text));
  int64_t m = p.multiple_of ? env.evalInt(p.multiple_of->text) : 1;
  if (m <= 0) m = 1;
  for (int64_t k = floorDiv(hi, m); k >= ceilDiv(lo, m) && out.size() < kValuesPerParam; --k)
    out.push_back(k * m);
  return out;
}

// The search for the largest sizes (in parameter order, each parameter as large as it can be
// given the earlier ones) that lie in the domain and fit the memory bound.
struct LargestSearch {
  const Spec& spec;
  ExprEnv env;
  uint64_t budget;
  std::map<std::string, int64_t> caps;  // each parameter's ceiling (narrowed to fit)
  int steps = 0;
  bool too_big = false;  // a candidate in the domain did not fit
  Sizes too_big_sizes;

  LargestSearch(const Spec& s, uint64_t b) : spec(s), env(paramNames(s)), budget(b) {}

  bool fits(const Sizes& sizes) {
    uint64_t bytes = 0;
    try {
      bytes = bufferBytes(spec, sizes);
    } catch (const ExprError&) {
      return false;
    }
    if (bytes * (1 + kShadowPerByte) <= budget) return true;
    if (!too_big) too_big_sizes = sizes;
    too_big = true;
    return false;
  }

  bool search(size_t i, Sizes& sizes) {
    if (++steps > kSearchSteps) return false;
    if (i == spec.params.size()) return inDomain(spec, env, sizes, false, nullptr) && fits(sizes);
    const ParamSpec& p = spec.params[i];
    const auto cap = caps.find(p.name);
    std::vector<int64_t> values;
    try {
      values = descending(p, env, sizes, cap == caps.end() ? INT64_MAX : cap->second);
    } catch (const ExprError&) {
      return false;
    }
    for (int64_t v : values) {
      sizes[p.name] = v;
      if (search(i + 1, sizes)) return true;
      if (steps > kSearchSteps) break;
    }
    sizes.erase(p.name);
    return false;
  }
};

// The largest sizes, narrowed (each ranged parameter halved) until they fit; nullopt with a note
// when none was found.
std::optional<Sizes> largestSizes(const Spec& spec, uint64_t budget,
                                  std::vector<std::string>& notes) {
  LargestSearch s(spec, budget);
  for (int round = 0; round <= kHalvings; ++round) {
    Sizes sizes;
    s.steps = 0;
    const bool wasTooBig = s.too_big;
    s.too_big = false;
    if (s.search(0, sizes)) {
      if (wasTooBig || round > 0)
        notes.push_back(fmt::format(
            "the largest sizes of the spec's ranges need more than the {} MiB a sanitized case may "
            "use (buffers and their shadow, {}x their size) and were not run; the largest that "
            "fit were",
            budget >> 20, 1 + kShadowPerByte));
      return sizes;
    }
    if (!s.too_big) break;
    for (const auto& p : spec.params)
      if (p.range && s.too_big_sizes.count(p.name))
        s.caps[p.name] = std::max<int64_t>(0, s.too_big_sizes.at(p.name) / 2);
  }
  notes.push_back(
      "no largest case was found in the spec's domain (its constraints, or the memory bound): "
      "random draws only");
  return std::nullopt;
}

}  // namespace

uint64_t memoryBudget(const DeviceInfo& dev) {
  const uint64_t cap = uint64_t{2} << 30;
  return dev.global_mem_size ? std::min(cap, dev.global_mem_size / 4) : cap;
}

uint64_t bufferBytes(const Spec& spec, const Sizes& sizes) {
  ExprEnv env(paramNames(spec));
  const ResolvedCase rc = resolveCase(spec, env, sizes);
  uint64_t bytes = 0;
  for (size_t i = 0; i < spec.buffers.size(); ++i)
    bytes += static_cast<uint64_t>(rc.counts[i]) * sizeOf(spec.buffers[i].type);
  return bytes;
}

ChosenSizes chooseSanitizedSizes(const Spec& spec, const DeviceInfo& dev, uint64_t seed,
                                 int count) {
  ChosenSizes out;
  const uint64_t budget = memoryBudget(dev);
  if (count <= 0) return out;
  if (auto largest = largestSizes(spec, budget, out.notes)) out.sizes.push_back(*largest);
  ExprEnv env(paramNames(spec));
  const auto gen = sizesGen(spec, false);
  rc::Random random(hash64("sanitize-sizes:" + spec.name, seed));
  int tooBig = 0;
  std::lock_guard<std::mutex> drawing(generatorLock());
  for (int draw = 0; draw < kDrawsPerCase * count && static_cast<int>(out.sizes.size()) < count;
       ++draw) {
    Sizes s;
    try {
      s = gen(random.split(), rc::kNominalSize).value();
      if (!inDomain(spec, env, s, false, nullptr)) continue;
      if (bufferBytes(spec, s) * (1 + kShadowPerByte) > budget) {
        ++tooBig;
        continue;
      }
    } catch (const ExprError&) {
      continue;
    }
    if (std::find(out.sizes.begin(), out.sizes.end(), s) == out.sizes.end()) out.sizes.push_back(s);
  }
  if (tooBig)
    out.notes.push_back(fmt::format(
        "{} random draw(s) needed more than the {} MiB a sanitized case may use and were not run",
        tooBig, budget >> 20));
  return out;
}

namespace {

// `text` with each identifier that names a parameter replaced by its value.
std::string substituteNames(const std::string& text, const Sizes& sizes) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!std::isalpha(c) && c != '_') {
      out += text[i++];
      continue;
    }
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
      ++j;
    const std::string word = text.substr(i, j - i);
    const auto it = sizes.find(word);
    out += it == sizes.end() ? word : "(" + std::to_string(it->second) + ")";
    i = j;
  }
  return out;
}

void substitute(Expr& e, const Sizes& sizes) {
  e.text = substituteNames(e.text, sizes);
}

}  // namespace

Spec concreteSpec(const Spec& spec, const Sizes& sizes) {
  Spec out = spec;
  ExprEnv env(paramNames(spec));
  env.bind(sizes);
  out.build_options = substituteBraces(spec.build_options, env);
  for (auto& b : out.buffers) {
    substitute(b.count, sizes);
    for (auto& d : b.shape) substitute(d, sizes);
    substitute(b.compare.abs, sizes);
    substitute(b.compare.rel, sizes);
  }
  for (auto& l : out.launches) {
    for (auto& a : l.args) substitute(a.value, sizes);
    for (auto* dims : {&l.global, &l.local, &l.offset})
      for (auto& d : *dims) substitute(d, sizes);
  }
  if (out.flops) substitute(*out.flops, sizes);
  if (out.bytes) substitute(*out.bytes, sizes);
  return out;
}

}  // namespace clh::sanitize
