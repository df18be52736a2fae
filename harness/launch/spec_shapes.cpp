// The shape generator for a spec's own launch. Shapes meant to run vary the local size only where
// the kernel's results do not depend on it, and move the offset only by shrinking the global size
// by as much, so the global ids stay inside what the spec's buffers were sized for.
#include "launch/spec_shapes.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string_view>
#include <utility>

#include "launch/shapes.hpp"

namespace clh::launch {

namespace {

bool coin() {
  return *rc::gen::arbitrary<bool>();
}

size_t itemMax(const SpecLaunch& s, unsigned i) {
  return i < s.device.max_work_item_sizes.size() ? s.device.max_work_item_sizes[i] : 1;
}

// The most work-items a group may have: the device's maximum, and the kernel's when known.
size_t groupCap(const SpecLaunch& s) {
  size_t cap = s.device.max_work_group_size;
  if (s.kernel.work_group_size) cap = std::min(cap, s.kernel.work_group_size);
  return std::max<size_t>(cap, 1);
}

size_t sum(const std::vector<size_t>& v) {
  return std::accumulate(v.begin(), v.end(), size_t{0});
}

// A local size dividing `g` in every dimension and within every limit, drawn as people write them
// (the largest fitting divisor, a power of two) or as bugs like them (any divisor).
std::vector<size_t> dividingLocal(const SpecLaunch& s, const std::vector<size_t>& g) {
  const unsigned n = static_cast<unsigned>(g.size());
  std::vector<size_t> local(n, 1);
  size_t used = 1;
  const unsigned first = static_cast<unsigned>(pick(0, n - 1));  // no dimension always goes first
  for (unsigned k = 0; k < n; ++k) {
    const unsigned i = (first + k) % n;
    const size_t bound = std::min(itemMax(s, i), groupCap(s) / used);
    std::vector<size_t> divisors;
    for (size_t d = 1; d <= std::min(g[i], bound); ++d)
      if (g[i] % d == 0) divisors.push_back(d);
    if (divisors.empty()) divisors.push_back(1);
    size_t v = divisors[pick(0, divisors.size() - 1)];
    switch (pick(0, 2)) {
      case 0:
        v = divisors.back();
        break;
      case 1:
        for (size_t d : divisors)
          if ((d & (d - 1)) == 0) v = d;
        break;
      default:
        break;
    }
    local[i] = v;
    used *= v;
  }
  return local;
}

// The global size rounded up to whole groups of `local` (at least one group per dimension).
std::vector<size_t> roundUp(const std::vector<size_t>& g, const std::vector<size_t>& local) {
  std::vector<size_t> out(g.size());
  for (size_t i = 0; i < g.size(); ++i)
    out[i] = local[i] ? std::max(local[i], (g[i] + local[i] - 1) / local[i] * local[i]) : g[i];
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

std::vector<size_t> contractLocal(const SpecLaunch& s) {
  if (s.kernel.hasRequiredSize())
    return {s.kernel.compile_work_group_size.begin(),
            s.kernel.compile_work_group_size.begin() + std::min<size_t>(s.workDim(), 3)};
  return s.local;
}

const std::vector<std::string>& kernelFamilies() {
  static const std::vector<std::string> families = {
      "spec",   "valid",          "null_local",      "not_dividing",  "over_kernel_max",
      "offset", "local_mem_over", "local_mem_limit", "reqd_mismatch", "reqd_null_local"};
  return families;
}

bool isKernelFamily(const std::string& kind) {
  const auto& families = kernelFamilies();
  return std::find(families.begin(), families.end(), kind) != families.end();
}

std::vector<std::string> specShapeKinds(const SpecLaunch& s) {
  const bool reqd = s.kernel.hasRequiredSize();
  std::vector<std::string> kinds = {"spec"};
  if (s.any_local) {
    kinds.push_back("valid");
    if (!reqd) kinds.push_back("null_local");
  }
  kinds.insert(kinds.end(), {"not_dividing", "over_device_max", "over_item_size"});
  if (s.kernel.work_group_size && s.kernel.work_group_size < s.device.max_work_group_size &&
      s.kernel.work_group_size < itemMax(s, 0) && !reqd)
    kinds.push_back("over_kernel_max");
  if (s.zero_local && (s.any_local || reqd)) kinds.push_back("zero_local");
  kinds.insert(kinds.end(), {"zero_global", "offset"});
  if (!s.local_arg_bytes.empty()) kinds.insert(kinds.end(), {"local_mem_over", "local_mem_limit"});
  if (reqd) kinds.insert(kinds.end(), {"reqd_mismatch", "reqd_null_local"});
  if (!s.kinds.empty())
    std::erase_if(kinds, [&](const std::string& k) { return !contains(s.kinds, k); });
  return kinds;
}

std::vector<std::pair<std::string, std::string>> omittedKinds(const SpecLaunch& s) {
  const bool reqd = s.kernel.hasRequiredSize();
  const auto kinds = specShapeKinds(s);
  std::vector<std::pair<std::string, std::string>> out;
  auto why = [&](const std::string& kind, const std::string& reason) {
    if (!contains(kinds, kind)) out.emplace_back(kind, reason);
  };
  const std::string contract =
      "the kernel uses work-group features and the spec launches it with its own local size: a "
      "size the runtime picks breaks the kernel's contract, not the driver's";
  for (const char* k : {"valid", "null_local"})
    why(k, reqd && std::string(k) == "null_local" ? "the kernel declares reqd_work_group_size "
                                                    "(see reqd_null_local)"
                                                  : contract);
  if (!s.zero_local)
    why("zero_local", "crash-prone (PoCL 3.1 dies on it): run only where a crash costs a child");
  else
    why("zero_local", contract);
  why("over_kernel_max", "CL_KERNEL_WORK_GROUP_SIZE (" + std::to_string(s.kernel.work_group_size) +
                             ") is not below the device's limits" +
                             (reqd ? " or the kernel declares reqd_work_group_size" : ""));
  why("local_mem_over", "the launch has no __local argument");
  why("local_mem_limit", "the launch has no __local argument");
  why("reqd_mismatch", "the kernel declares no reqd_work_group_size");
  why("reqd_null_local", "the kernel declares no reqd_work_group_size");
  for (const char* k :
       {"spec", "not_dividing", "over_device_max", "over_item_size", "zero_global", "offset"})
    why(k, "not asked for");
  if (!s.kinds.empty())
    for (auto& [kind, reason] : out)
      if (!contains(s.kinds, kind)) reason = "not asked for";
  return out;
}

std::string SpecShape::toString(const SpecLaunch& launch) const {
  std::string s = kind;
  if (variant > 0 && variant < launch.variants.size())
    s += " [" + launch.variants[variant].name + "]";
  s += " " + config.toString();
  if (local_arg_bytes != launch.local_arg_bytes && !local_arg_bytes.empty()) {
    std::string list;
    for (size_t b : local_arg_bytes) list += (list.empty() ? "" : ",") + std::to_string(b);
    s += " (__local args {" + list + "}B)";
  }
  return s;
}

namespace {

// One shape of the spec's launch being drawn: the launch starts as the spec's own, and a method
// per family makes it one of that family. The draws keep their order: a seed replays a shape.
class SpecShapeDraw {
 public:
  SpecShapeDraw(const SpecLaunch& s, std::string kind)
      : s_(s), n_(s.workDim()), G_(s.global), L_(contractLocal(s)), ones_(n_, 1) {
    sh_.kind = std::move(kind);
    sh_.variant = s.variants.size() > 1 ? pick(0, s.variants.size() - 1) : 0;
    uniform_ =
        s.variants.empty() || !launch::nonUniformAllowed(s.device, s.variants[sh_.variant].program);
    launch::LaunchConfig& c = sh_.config;
    c.work_dim = n_;
    c.global = G_;
    if (!L_.empty()) c.local = L_;
    if (!s.offset.empty()) c.offset = s.offset;
    sh_.local_arg_bytes = s.local_arg_bytes;
  }

  SpecShape draw() {
    for (const auto& [kind, make] : kFamilies)
      if (kind == sh_.kind) {
        (this->*make)();
        break;
      }
    sh_.config.dynamic_local_bytes = sum(sh_.local_arg_bytes);
    return std::move(sh_);
  }

 private:
  // A local size that keeps the kernel's contract for the spec's global size.
  std::optional<std::vector<size_t>> keptLocal() {
    if (s_.any_local && coin()) return dividingLocal(s_, G_);
    if (L_.empty()) return std::nullopt;
    return L_;
  }
  // Shapes meant to fail: the spec's global size (two rules broken, either code accepted) or
  // whole groups of the bad local size (only the rule under test broken).
  void failingWith(const std::vector<size_t>& local) {
    sh_.config.local = local;
    sh_.config.global = coin() ? G_ : roundUp(G_, local);
  }
  // The local size the spec's launch could have: drawn where any fits, else the contract's.
  std::vector<size_t> contractOrDrawn() {
    return s_.any_local ? dividingLocal(s_, G_) : (L_.empty() ? ones_ : L_);
  }

  void spec() { sh_.checkable = true; }
  void valid() {
    sh_.config.local = dividingLocal(s_, G_);
    sh_.checkable = true;
  }
  void nullLocal() {
    sh_.config.local.reset();
    sh_.checkable = true;
  }
  void notDividing() {
    const std::vector<size_t> base = contractOrDrawn();
    // (a) a global size cut short of whole groups: every id stays inside the spec's range.
    std::vector<unsigned> shrinkable;
    for (unsigned i = 0; i < n_; ++i)
      if (base[i] >= 2 && G_[i] >= 2 && G_[i] % base[i] == 0) shrinkable.push_back(i);
    // (b) a local size that does not divide the spec's global size: only where the kernel keeps
    // its contract under it, or where the rules say it cannot run.
    const bool local_ok = s_.any_local || uniform_;
    bool done = false;
    if (!shrinkable.empty() && (!local_ok || coin())) {
      const unsigned i = shrinkable[pick(0, shrinkable.size() - 1)];
      sh_.config.local = base;
      sh_.config.global[i] = G_[i] - pick(1, std::min(base[i] - 1, G_[i] - 1));
      done = true;
    } else if (local_ok) {
      done = localNotDividing(base);
    }
    if (!done) {
      sh_.kind = "spec";  // nothing can be cut here (every group and global size is 1)
      sh_.checkable = true;
    }
  }
  // (b) of notDividing: false when no dimension has room for such a local size.
  bool localNotDividing(const std::vector<size_t>& base) {
    const unsigned first = static_cast<unsigned>(pick(0, n_ - 1));
    for (unsigned k = 0; k < n_; ++k) {
      const unsigned i = (first + k) % n_;
      size_t others = 1;
      for (unsigned j = 0; j < n_; ++j)
        if (j != i) others *= base[j];
      const size_t bound = std::min(itemMax(s_, i), groupCap(s_) / std::max<size_t>(others, 1));
      for (int tries = 0; tries < 32 && bound >= 2; ++tries) {
        size_t v = pick(2, std::min(bound, std::max<size_t>(2 * G_[i] + 1, 2)));
        if (G_[i] % v == 0) continue;
        std::vector<size_t> l = base;
        l[i] = v;
        sh_.config.local = l;
        sh_.checkable = s_.any_local;  // with non-uniform groups it runs over the whole range
        return true;
      }
    }
    return false;
  }
  void overDeviceMax() {
    std::vector<size_t> l = ones_;
    const size_t dmax = s_.device.max_work_group_size;
    if (n_ >= 2 && itemMax(s_, 1) >= 2) {
      l[0] = std::min(itemMax(s_, 0), dmax);
      l[1] = dmax / l[0] + pick(1, 2);
    } else {
      l[0] = dmax + pick(1, 64);
    }
    failingWith(l);
  }
  void overKernelMax() {
    std::vector<size_t> l = ones_;
    l[0] = pick(s_.kernel.work_group_size + 1,
                std::min(s_.device.max_work_group_size, itemMax(s_, 0)));
    failingWith(l);
  }
  void overItemSize() {
    std::vector<size_t> l = ones_;
    const unsigned i = static_cast<unsigned>(pick(0, n_ - 1));
    l[i] = itemMax(s_, i) + pick(1, 64);
    failingWith(l);
  }
  void zeroLocal() {
    std::vector<size_t> l = contractOrDrawn();
    l[pick(0, n_ - 1)] = 0;
    sh_.config.local = l;
    sh_.checkable = true;  // running as with a NULL local size keeps the contract here
  }
  void zeroGlobal() {
    sh_.config.local = keptLocal();
    sh_.config.global[pick(0, n_ - 1)] = 0;
  }
  void offset() {
    std::vector<size_t> o(n_, 0), g = G_;
    if (s_.any_local) {
      for (unsigned i = 0; i < n_; ++i) o[i] = G_[i] ? pick(0, G_[i] - 1) : 0;
      for (unsigned i = 0; i < n_; ++i) g[i] = G_[i] - o[i];
      sh_.config.local = coin() ? std::nullopt : std::optional(dividingLocal(s_, g));
    } else {
      for (unsigned i = 0; i < n_; ++i)
        if (!L_.empty() && L_[i] && G_[i] >= L_[i]) o[i] = L_[i] * pick(0, G_[i] / L_[i] - 1);
      for (unsigned i = 0; i < n_; ++i) g[i] = G_[i] - o[i];
    }
    std::vector<size_t> off = s_.offset.empty() ? std::vector<size_t>(n_, 0) : s_.offset;
    for (unsigned i = 0; i < n_; ++i) off[i] += o[i];
    sh_.config.offset = off;
    sh_.config.global = g;
  }
  void localMemory() {
    const size_t j = pick(0, s_.local_arg_bytes.size() - 1);
    const size_t elem = std::max<size_t>(s_.local_arg_elem[j], 1);
    const size_t args = sum(s_.local_arg_bytes);
    const size_t own = s_.kernel.local_mem_size > args ? s_.kernel.local_mem_size - args : 0;
    const size_t others = args - s_.local_arg_bytes[j];
    const size_t device = s_.device.local_mem_size;
    const size_t room = device > own + others ? device - own - others : 0;
    size_t bytes;
    if (sh_.kind == "local_mem_over") {
      // Over the device's local memory alone, or only together with the kernel's own.
      const size_t delta = elem * pick(1, 1024);
      bytes = coin() ? device + delta : room + delta;
    } else {
      // Up to what the device has left, to the element.
      const size_t spare = pick(0, 8);
      bytes = room / elem > spare ? (room / elem - spare) * elem : 0;
      bytes = std::max(bytes, s_.local_arg_bytes[j]);
    }
    sh_.local_arg_bytes[j] = (bytes + elem - 1) / elem * elem;
    sh_.checkable = true;  // more __local memory than the kernel uses changes nothing it computes
  }
  void reqdMismatch() {
    std::vector<size_t> l = L_.empty() ? ones_ : L_;
    const unsigned i = static_cast<unsigned>(pick(0, n_ - 1));
    l[i] = l[i] > 1 && coin() ? l[i] / 2 : l[i] * 2;
    failingWith(l);
  }

  static constexpr std::pair<std::string_view, void (SpecShapeDraw::*)()> kFamilies[] = {
      {"spec", &SpecShapeDraw::spec},
      {"valid", &SpecShapeDraw::valid},
      {"null_local", &SpecShapeDraw::nullLocal},
      {"reqd_null_local", &SpecShapeDraw::nullLocal},
      {"not_dividing", &SpecShapeDraw::notDividing},
      {"over_device_max", &SpecShapeDraw::overDeviceMax},
      {"over_kernel_max", &SpecShapeDraw::overKernelMax},
      {"over_item_size", &SpecShapeDraw::overItemSize},
      {"zero_local", &SpecShapeDraw::zeroLocal},
      {"zero_global", &SpecShapeDraw::zeroGlobal},
      {"offset", &SpecShapeDraw::offset},
      {"local_mem_over", &SpecShapeDraw::localMemory},
      {"local_mem_limit", &SpecShapeDraw::localMemory},
      {"reqd_mismatch", &SpecShapeDraw::reqdMismatch},
  };

  const SpecLaunch& s_;
  const unsigned n_;
  const std::vector<size_t>& G_;  // the spec's global size
  const std::vector<size_t> L_;   // the local size of the kernel's contract (may be empty)
  const std::vector<size_t> ones_;
  bool uniform_ = true;
  SpecShape sh_;
};

}  // namespace

rc::Gen<SpecShape> genSpecShape(const SpecLaunch& s) {
  auto kinds = specShapeKinds(s);
  if (kinds.empty()) kinds.push_back("spec");
  return rc::gen::exec(
      [s, kinds]() -> SpecShape { return SpecShapeDraw(s, *rc::gen::elementOf(kinds)).draw(); });
}

}  // namespace clh::launch
