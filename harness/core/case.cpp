// Case resolution and seeded input data.
#include "core/case.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

#include "core/sizes.hpp"

namespace clh {

namespace {

// SplitMix64: a small, fast, well-distributed generator; its output is the same on every platform.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

// Draws of `init` (uniform) into out[0..n) with a generator positioned at its element `first`:
// element i of a buffer is the (i+1)-th number of SplitMix64 from the seed, whichever part of the
// buffer a call fills.
template <class T>
void fillUniform(T* out, size_t n, const InitSpec& init, uint64_t seed, size_t first) {
  SplitMix64 rng{seed + first * 0x9E3779B97F4A7C15ull};
  if constexpr (std::is_floating_point_v<T>) {
    const double lo = init.a, width = init.b - init.a;
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<T>(lo + width * rng.unit());
  } else {
    auto lo = static_cast<int64_t>(std::ceil(init.a)),
         hi = static_cast<int64_t>(std::floor(init.b));
    uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    for (size_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(lo + static_cast<int64_t>(span ? rng.next() % span : rng.next()));
  }
}

template <class T>
void fillUniformSliced(std::span<T> out, const InitSpec& init, uint64_t seed, unsigned slices) {
  if (slices < 2 || out.size() < slices) return fillUniform(out.data(), out.size(), init, seed, 0);
  const size_t per = (out.size() + slices - 1) / slices;
  std::vector<std::thread> helpers;
  for (size_t first = per; first < out.size(); first += per) {
    const size_t n = std::min(per, out.size() - first);
    helpers.emplace_back([=, &init] { fillUniform(out.data() + first, n, init, seed, first); });
  }
  fillUniform(out.data(), per, init, seed, 0);
  for (auto& t : helpers) t.join();
}

template <class T>
void fillTyped(std::span<T> out, const InitSpec& init, uint64_t seed, unsigned slices) {
  switch (init.kind) {
    case InitSpec::Kind::zero:
      for (auto& v : out) v = T(0);
      break;
    case InitSpec::Kind::constant:
      for (auto& v : out) v = static_cast<T>(init.a);
      break;
    case InitSpec::Kind::iota:
      for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<T>(i);
      break;
    case InitSpec::Kind::uniform:
      fillUniformSliced(out, init, seed, slices);
      break;
    case InitSpec::Kind::poison:
    case InitSpec::Kind::bytes:  // fillBuffer copies them
    case InitSpec::Kind::none:   // never written to the device
      break;
  }
}

// `field` names the field for the error only (a buffer's is built then: every case resolves).
size_t checkedSize(ExprEnv& env, const Expr& e, const char* field, const std::string& buffer = {}) {
  int64_t v = env.evalInt(e.text);
  if (v < 0)
    throw ExprError((buffer.empty() ? std::string(field) : "buffers." + buffer + "." + field) +
                    ": '" + e.text + "' = " + std::to_string(v) + " is negative");
  return static_cast<size_t>(v);
}

}  // namespace

ResolvedCase resolveCase(const Spec& spec, ExprEnv& env, const Sizes& sizes) {
  ResolvedCase rc;
  rc.sizes = sizes;
  env.bind(sizes);
  rc.build_options = substituteBraces(spec.build_options, env);
  rc.counts.reserve(spec.buffers.size());
  rc.shapes.reserve(spec.buffers.size());
  rc.tolerances.reserve(spec.buffers.size());
  rc.launches.reserve(spec.launches.size());
  for (const auto& b : spec.buffers) {
    rc.counts.push_back(checkedSize(env, b.count, "count", b.name));
    std::vector<int64_t> shape;
    for (const auto& d : b.shape) shape.push_back(env.evalInt(d.text));
    rc.shapes.push_back(std::move(shape));
    Tolerance t;
    t.kind = b.compare.kind;
    t.ulp = b.compare.ulp;
    t.abs = env.eval(b.compare.abs.text);
    t.rel = env.eval(b.compare.rel.text);
    rc.tolerances.push_back(t);
  }
  for (const auto& l : spec.launches) {
    ResolvedLaunch rl;
    rl.kernel = l.kernel;
    rl.args.reserve(l.args.size());
    for (const auto& a : l.args) {
      ResolvedArg ra;
      ra.kind = a.kind;
      ra.type = a.type;
      if (a.kind == ArgSpec::Kind::buffer) {
        for (size_t i = 0; i < spec.buffers.size(); ++i)
          if (spec.buffers[i].name == a.buffer) ra.buffer = i;
      } else if (a.kind == ArgSpec::Kind::scalar) {
        ra.value = env.eval(a.value.text);
        if (!a.name.empty()) rc.scalars[a.name] = ra.value;
      } else if (a.kind == ArgSpec::Kind::local) {
        ra.local_bytes = checkedSize(env, a.value, "args.local") * sizeOf(a.type);
      } else if (a.kind == ArgSpec::Kind::bytes) {
        ra.bytes = a.bytes;
      } else if (a.kind == ArgSpec::Kind::image) {
        ra.bytes = a.bytes;
        ra.image_size = a.image_size;
      }
      rl.args.push_back(std::move(ra));
    }
    for (const auto& g : l.global) rl.global.push_back(checkedSize(env, g, "global"));
    for (const auto& g : l.local) rl.local.push_back(checkedSize(env, g, "local"));
    for (const auto& g : l.offset) rl.offset.push_back(checkedSize(env, g, "offset"));
    rc.launches.push_back(std::move(rl));
  }
  if (spec.flops) rc.flops = env.eval(spec.flops->text);
  if (spec.bytes) rc.bytes = env.eval(spec.bytes->text);
  return rc;
}

// A large buffer's random inputs are drawn on several threads, a slice each: the same numbers as
// one thread draws, in a fraction of the time where cores are spare (at 2^20 elements the draws
// were most of a case's time).
void fillBuffer(HostBuffer& buf, const InitSpec& init, uint64_t seed) {
  constexpr size_t kSliceElements = size_t{1} << 17;
  constexpr size_t kMaxThreads = 8;
  const size_t slices = buf.count() / kSliceElements;
  if (slices < 2) return fillBufferSliced(buf, init, seed, 1);
  // Asked once: glibc reads the online CPUs from /sys on every call (microseconds a case).
  static const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  fillBufferSliced(buf, init, seed, static_cast<unsigned>(std::min({cores, kMaxThreads, slices})));
}

void fillBufferSliced(HostBuffer& buf, const InitSpec& init, uint64_t seed, unsigned slices) {
  if (init.kind == InitSpec::Kind::bytes) {
    std::memset(buf.data(), 0, buf.bytes());
    std::memcpy(buf.data(), init.bytes.data(), std::min(buf.bytes(), init.bytes.size()));
    return;
  }
  visitElemType(buf.type(),
                [&]<class T>(TypeTag<T>) { fillTyped(buf.as<T>(), init, seed, slices); });
}

uint64_t dataSeed(uint64_t runSeed, const std::string& spec, const Sizes& sizes,
                  const std::string& buffer) {
  return hash64(spec + "|" + formatSizes(sizes) + "|" + buffer, runSeed);
}

std::map<std::string, HostBuffer> makeInitialBuffers(const Spec& spec, const ResolvedCase& rc,
                                                     uint64_t runSeed) {
  std::map<std::string, HostBuffer> out;
  // dataSeed's hash of "spec|sizes|buffer", its common prefix hashed once.
  std::string prefix = spec.name;
  prefix += '|';
  appendSizes(prefix, rc.sizes);
  prefix += '|';
  const uint64_t prefixHash = hash64(prefix, runSeed);
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    const auto& b = spec.buffers[i];
    HostBuffer hb(b.type, rc.counts[i]);
    if (b.role == Role::out)
      poison(hb);
    else
      fillBuffer(hb, b.init, hash64Append(prefixHash, b.name));
    out.emplace_hint(out.end(), b.name, std::move(hb));
  }
  return out;
}

}  // namespace clh
