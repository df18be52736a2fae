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
  resolveCaseInto(spec, env, sizes, rc);
  return rc;
}

// Every field is assigned, the containers refilled rather than rebuilt: the vectors, strings and
// map nodes of the case before keep their storage.
void resolveCaseInto(const Spec& spec, ExprEnv& env, const Sizes& sizes, ResolvedCase& rc) {
  rc.sizes = sizes;
  env.bind(sizes);
  if (spec.build_options.find('{') == std::string::npos)
    rc.build_options.assign(spec.build_options);
  else
    rc.build_options = substituteBraces(spec.build_options, env);
  const size_t nb = spec.buffers.size();
  rc.counts.resize(nb);
  rc.shapes.resize(nb);
  rc.tolerances.resize(nb);
  for (size_t i = 0; i < nb; ++i) {
    const auto& b = spec.buffers[i];
    rc.counts[i] = checkedSize(env, b.count, "count", b.name);
    rc.shapes[i].clear();
    for (const auto& d : b.shape) rc.shapes[i].push_back(env.evalInt(d.text));
    Tolerance& t = rc.tolerances[i] = Tolerance{};
    t.kind = b.compare.kind;
    t.ulp = b.compare.ulp;
    t.abs = env.eval(b.compare.abs.text);
    t.rel = env.eval(b.compare.rel.text);
  }
  rc.scalars.clear();
  rc.launches.resize(spec.launches.size());
  for (size_t li = 0; li < spec.launches.size(); ++li) {
    const auto& l = spec.launches[li];
    ResolvedLaunch& rl = rc.launches[li];
    rl.kernel.assign(l.kernel);
    rl.args.resize(l.args.size());
    for (size_t ai = 0; ai < l.args.size(); ++ai) {
      const auto& a = l.args[ai];
      ResolvedArg& ra = rl.args[ai];
      ra = ResolvedArg{};  // a buffer's or a scalar's holds no storage to keep
      ra.kind = a.kind;
      ra.type = a.type;
      if (a.kind == ArgSpec::Kind::buffer) {
        for (size_t i = 0; i < nb; ++i)
          if (spec.buffers[i].name == a.buffer) ra.buffer = i;
      } else if (a.kind == ArgSpec::Kind::scalar) {
        ra.value = env.eval(a.value.text);
        if (!a.name.empty()) rc.scalars[a.name] = ra.value;
      } else if (a.kind == ArgSpec::Kind::local) {
        ra.local_bytes = checkedSize(env, a.value, "args.local") * sizeOf(a.type);
      } else if (a.kind == ArgSpec::Kind::bytes) {
        ra.bytes.assign(a.bytes.begin(), a.bytes.end());
      } else if (a.kind == ArgSpec::Kind::image) {
        ra.bytes.assign(a.bytes.begin(), a.bytes.end());
        ra.image_size.assign(a.image_size.begin(), a.image_size.end());
      }
    }
    auto sized = [&](std::vector<size_t>& out, const std::vector<Expr>& from, const char* field) {
      out.clear();
      for (const auto& e : from) out.push_back(checkedSize(env, e, field));
    };
    sized(rl.global, l.global, "global");
    sized(rl.local, l.local, "local");
    sized(rl.offset, l.offset, "offset");
  }
  rc.flops.reset();
  rc.bytes.reset();
  if (spec.flops) rc.flops = env.eval(spec.flops->text);
  if (spec.bytes) rc.bytes = env.eval(spec.bytes->text);
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

namespace {

// dataSeed's hash of "spec|sizes|" (a case's buffers share it), piece by piece: no text is made.
uint64_t dataSeedPrefix(uint64_t runSeed, const std::string& spec, const Sizes& sizes) {
  const uint64_t h = hash64AppendSizes(hash64Append(hash64(spec, runSeed), "|"), sizes);
  return hash64Append(h, "|");
}

}  // namespace

uint64_t dataSeed(uint64_t runSeed, const std::string& spec, const Sizes& sizes,
                  const std::string& buffer) {
  return hash64Append(dataSeedPrefix(runSeed, spec, sizes), buffer);
}

std::map<std::string, HostBuffer> makeInitialBuffers(const Spec& spec, const ResolvedCase& rc,
                                                     uint64_t runSeed) {
  std::map<std::string, HostBuffer> out;
  makeInitialBuffersInto(spec, rc, runSeed, out);
  return out;
}

HostBuffer& hostBufferIn(std::map<std::string, HostBuffer>& buffers, const std::string& name,
                         ElemType type, size_t count) {
  auto it = buffers.find(name);
  if (it == buffers.end()) return buffers.emplace(name, HostBuffer(type, count)).first->second;
  if (it->second.type() != type || it->second.count() != count)
    it->second = HostBuffer(type, count);
  return it->second;
}

// A buffer of `out` with the name, type and count asked for is filled again where it is; another
// is made anew, and one no buffer of the spec names is dropped.
void makeInitialBuffersInto(const Spec& spec, const ResolvedCase& rc, uint64_t runSeed,
                            std::map<std::string, HostBuffer>& out) {
  const uint64_t prefixHash = dataSeedPrefix(runSeed, spec.name, rc.sizes);  // dataSeed's, once
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    const auto& b = spec.buffers[i];
    HostBuffer& hb = hostBufferIn(out, b.name, b.type, rc.counts[i]);
    if (b.role == Role::out)
      poison(hb);
    else
      fillBuffer(hb, b.init, hash64Append(prefixHash, b.name));
  }
  if (out.size() == spec.buffers.size()) return;
  for (auto it = out.begin(); it != out.end();) {
    const bool named = std::any_of(spec.buffers.begin(), spec.buffers.end(),
                                   [&](const BufferSpec& b) { return b.name == it->first; });
    it = named ? std::next(it) : out.erase(it);
  }
}

}  // namespace clh
