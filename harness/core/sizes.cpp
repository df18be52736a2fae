// Size generation with rapidcheck.
#include "core/sizes.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace clh {

namespace {

constexpr int kFullSize = 100;  // rapidcheck's largest size: ranges resized to it are not scaled

// The parameter's range on a device or a simulator (its `simulator:` range where it has one);
// nullptr for a parameter with no range (one_of, value).
const std::pair<Expr, Expr>* rangeOn(const ParamSpec& p, bool simulator) {
  if (simulator && p.sim_range) return &*p.sim_range;
  return p.range ? &*p.range : nullptr;
}

int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// Values in [lo, hi] that tend to break kernels: the bounds, 1, 2, primes near powers of two.
std::vector<int64_t> awkwardValues(int64_t lo, int64_t hi) {
  static const int64_t kCandidates[] = {1,  2,   3,   5,   7,   13,  17,   31,   33,   63,   65,
                                        97, 127, 129, 251, 257, 509, 1021, 1025, 2039, 4093, 4097};
  std::vector<int64_t> out{lo, hi};
  if (lo + 1 <= hi) out.push_back(lo + 1);
  if (hi - 1 >= lo) out.push_back(hi - 1);
  for (int64_t c : kCandidates)
    if (c >= lo && c <= hi) out.push_back(c);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// An integer in [lo, hi]: half the cases uniform, the others the lower bound, its successor, the
// upper bound, or an awkward value. However it was chosen, the value shrinks toward `lo`
// (rapidcheck's own branch choices would not: a shrunk choice draws a fresh value instead of a
// smaller one). The choice ignores rapidcheck's size parameter, so small early sizes still reach
// the top.
rc::Gen<int64_t> biasedRange(int64_t lo, int64_t hi) {
  return rc::Gen<int64_t>([lo, hi](const rc::Random& random, int) {
    rc::Random r = random;
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    int64_t k;
    switch (r.next() % 8) {
      case 4:
        k = std::min(lo + 1, hi);
        break;
      case 5:
        k = lo;
        break;
      case 6:
        k = hi;
        break;
      case 7: {
        auto awkward = awkwardValues(lo, hi);
        k = awkward[r.next() % awkward.size()];
        break;
      }
      default:
        k = lo + static_cast<int64_t>(span ? r.next() % span : r.next());
    }
    return rc::shrinkable::shrinkRecur(k, [lo](int64_t v) { return rc::shrink::towards(v, lo); });
  });
}

}  // namespace

std::vector<std::string> paramNames(const Spec& spec) {
  std::vector<std::string> names;
  for (const auto& p : spec.params) names.push_back(p.name);
  return names;
}

std::mutex& generatorLock() {
  static std::mutex lock;
  return lock;
}

rc::Gen<Sizes> sizesGen(const Spec& spec, bool simulator) {
  auto env = std::make_shared<ExprEnv>(paramNames(spec));
  const Spec* s = &spec;  // the spec outlives every generator made from it
  return rc::gen::exec([s, env, simulator]() {
    Sizes sizes;
    for (const auto& p : s->params) {
      env->bind(sizes);
      if (p.value) {
        sizes[p.name] = env->evalInt(p.value->text);
      } else if (!p.one_of.empty()) {
        // An index, not gen::elementOf: an index shrinks toward the first value, elementOf does
        // not.
        sizes[p.name] =
            p.one_of[*rc::gen::resize(kFullSize, rc::gen::inRange<size_t>(0, p.one_of.size()))];
      } else {
        const auto& r = *rangeOn(p, simulator);
        int64_t lo = env->evalInt(r.first.text), hi = env->evalInt(r.second.text);
        int64_t m = p.multiple_of ? env->evalInt(p.multiple_of->text) : 1;
        if (m <= 0) m = 1;
        int64_t klo = ceilDiv(lo, m), khi = floorDiv(hi, m);
        if (klo > khi) {  // empty domain for these earlier values: the caller discards
          sizes[p.name] = lo;
          continue;
        }
        int64_t k = *biasedRange(klo, khi);
        sizes[p.name] = k * m;
      }
    }
    return sizes;
  });
}

void completeDerived(const Spec& spec, ExprEnv& env, Sizes& sizes) {
  for (const auto& p : spec.params) {
    if (!p.value) continue;
    env.bind(sizes);
    sizes[p.name] = env.evalInt(p.value->text);
  }
}

bool inDomain(const Spec& spec, ExprEnv& env, const Sizes& sizes, bool simulator,
              std::string* why) {
  auto say = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  env.bind(sizes);
  for (const auto& p : spec.params) {
    auto it = sizes.find(p.name);
    if (it == sizes.end()) return say("no value for " + p.name);
    int64_t v = it->second;
    if (!p.one_of.empty() && std::find(p.one_of.begin(), p.one_of.end(), v) == p.one_of.end())
      return say(p.name + "=" + std::to_string(v) + " is not one of its values");
    if (p.range) {
      const auto& r = *rangeOn(p, simulator);
      int64_t lo = env.evalInt(r.first.text), hi = env.evalInt(r.second.text);
      if (v < lo || v > hi)
        return say(p.name + "=" + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "]");
      if (p.multiple_of) {
        int64_t m = env.evalInt(p.multiple_of->text);
        if (m > 0 && v % m != 0)
          return say(p.name + "=" + std::to_string(v) + " is not a multiple of " +
                     p.multiple_of->text);
      }
    }
  }
  for (const auto& c : spec.constraints)
    if (!env.evalBool(c.text)) return say("constraint '" + c.text + "' does not hold");
  return true;
}

Sizes parseSizes(const std::string& text) {
  Sizes out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("--sizes: '" + item + "' is not NAME=VALUE");
    std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    try {
      size_t used = 0;
      int64_t v = std::stoll(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
      out[name] = v;
    } catch (const std::exception&) {
      throw std::invalid_argument("--sizes: '" + value + "' (for " + name + ") is not an integer");
    }
  }
  return out;
}

std::string formatSizes(const Sizes& sizes) {
  std::string out;
  appendSizes(out, sizes);
  return out;
}

namespace {

// formatSizes' text ("L=64,N=16"), handed to `put` piece by piece.
template <class Put>
void sizePieces(const Sizes& sizes, Put&& put) {
  bool first = true;
  for (const auto& [k, v] : sizes) {
    if (!first) put(std::string_view(","));
    first = false;
    put(std::string_view(k));
    put(std::string_view("="));
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;  // no locale, no printf
    put(std::string_view(digits, static_cast<size_t>(end - digits)));
  }
}

}  // namespace

void appendSizes(std::string& out, const Sizes& sizes) {
  sizePieces(sizes, [&](std::string_view piece) { out += piece; });
}

uint64_t hash64AppendSizes(uint64_t hash, const Sizes& sizes) {
  sizePieces(sizes, [&](std::string_view piece) { hash = hash64Append(hash, piece); });
  return hash;
}

uint64_t hash64(const std::string& text, uint64_t seed) {
  return hash64Append(1469598103934665603ull ^ (seed * 0x9E3779B97F4A7C15ull), text);
}

uint64_t hash64Append(uint64_t h, std::string_view text) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

namespace {

// The parameter's single value on a simulator, when its domain there is one value and the
// parameters its bounds or formula use are fixed already.
std::optional<int64_t> fixedOnSimulator(const ParamSpec& p, ExprEnv& env,
                                        const std::set<std::string>& fixed) {
  auto known = [&](const Expr& e) {
    for (const auto& name : env.usedNames(e.text))
      if (!fixed.count(name)) return false;
    return true;
  };
  if (p.value) return known(*p.value) ? std::optional(env.evalInt(p.value->text)) : std::nullopt;
  if (!p.one_of.empty())
    return p.one_of.size() == 1 ? std::optional(p.one_of.front()) : std::nullopt;
  const auto* r = rangeOn(p, true);
  if (!r || !known(r->first) || !known(r->second)) return std::nullopt;
  const int64_t lo = env.evalInt(r->first.text);
  return lo == env.evalInt(r->second.text) ? std::optional(lo) : std::nullopt;
}

}  // namespace

bool oneWorkItemOnSimulator(const Spec& spec) try {
  ExprEnv env(paramNames(spec));
  std::set<std::string> fixed;
  for (const ParamSpec& p : spec.params)
    if (const auto v = fixedOnSimulator(p, env, fixed)) {
      env.set(p.name, static_cast<double>(*v));
      fixed.insert(p.name);
    }
  if (spec.launches.empty()) return false;
  for (const LaunchSpec& launch : spec.launches) {
    if (launch.global.empty()) return false;
    for (const Expr& g : launch.global) {
      for (const auto& name : env.usedNames(g.text))
        if (!fixed.count(name)) return false;
      if (env.evalInt(g.text) != 1) return false;
    }
  }
  return true;
} catch (const ExprError&) {
  return false;  // a bound or size that is no integer: not provably one work-item
}

double flopsOfLargestSimulatorCase(const Spec& spec) {
  if (!spec.flops) return 0;
  try {
    ExprEnv env(paramNames(spec));
    for (const ParamSpec& p : spec.params) {
      double v = 0;
      if (p.value)
        v = env.eval(p.value->text);
      else if (!p.one_of.empty())
        v = static_cast<double>(*std::max_element(p.one_of.begin(), p.one_of.end()));
      else if (const auto* r = rangeOn(p, true))
        v = env.eval(r->second.text);
      env.set(p.name, v);
    }
    const double flops = env.eval(spec.flops->text);
    return std::isfinite(flops) && flops > 0 ? flops : 0;
  } catch (const ExprError&) {
    return 0;
  }
}

}  // namespace clh
