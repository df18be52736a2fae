// The shape generator for a spec's own launch. Shapes meant to run vary the local size only where
// the kernel's results do not depend on it, and move the offset only by shrinking the global size
// by as much, so the global ids stay inside what the spec's buffers were sized for.
#include "launch/spec_shapes.hpp"

#include <algorithm>
#include <numeric>

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

rc::Gen<SpecShape> genSpecShape(const SpecLaunch& s) {
  auto kinds = specShapeKinds(s);
  if (kinds.empty()) kinds.push_back("spec");
  return rc::gen::exec([s, kinds]() -> SpecShape {
    SpecShape sh;
    sh.kind = *rc::gen::elementOf(kinds);
    sh.variant = s.variants.size() > 1 ? pick(0, s.variants.size() - 1) : 0;
    const unsigned n = s.workDim();
    const std::vector<size_t>& G = s.global;
    const std::vector<size_t> L = contractLocal(s);
    const bool uniform =
        s.variants.empty() || !launch::nonUniformAllowed(s.device, s.variants[sh.variant].program);
    launch::LaunchConfig& c = sh.config;
    c.work_dim = n;
    c.global = G;
    if (!L.empty()) c.local = L;
    if (!s.offset.empty()) c.offset = s.offset;
    sh.local_arg_bytes = s.local_arg_bytes;
    const std::vector<size_t> ones(n, 1);

    // A local size that keeps the kernel's contract for the spec's global size.
    auto keptLocal = [&]() -> std::optional<std::vector<size_t>> {
      if (s.any_local && coin()) return dividingLocal(s, G);
      if (L.empty()) return std::nullopt;
      return L;
    };
    // Shapes meant to fail: the spec's global size (two rules broken, either code accepted) or
    // whole groups of the bad local size (only the rule under test broken).
    auto failingGlobal = [&](const std::vector<size_t>& local) {
      return coin() ? G : roundUp(G, local);
    };

    if (sh.kind == "spec") {
      sh.checkable = true;
    } else if (sh.kind == "valid") {
      c.local = dividingLocal(s, G);
      sh.checkable = true;
    } else if (sh.kind == "null_local" || sh.kind == "reqd_null_local") {
      c.local.reset();
      sh.checkable = true;
    } else if (sh.kind == "not_dividing") {
      const std::vector<size_t> base = s.any_local ? dividingLocal(s, G) : (L.empty() ? ones : L);
      // (a) a global size cut short of whole groups: every id stays inside the spec's range.
      std::vector<unsigned> shrinkable;
      for (unsigned i = 0; i < n; ++i)
        if (base[i] >= 2 && G[i] >= 2 && G[i] % base[i] == 0) shrinkable.push_back(i);
      // (b) a local size that does not divide the spec's global size: only where the kernel keeps
      // its contract under it, or where the rules say it cannot run.
      const bool local_ok = s.any_local || uniform;
      bool done = false;
      if (!shrinkable.empty() && (!local_ok || coin())) {
        const unsigned i = shrinkable[pick(0, shrinkable.size() - 1)];
        c.local = base;
        c.global[i] = G[i] - pick(1, std::min(base[i] - 1, G[i] - 1));
        done = true;
      } else if (local_ok) {
        const unsigned first = static_cast<unsigned>(pick(0, n - 1));
        for (unsigned k = 0; k < n && !done; ++k) {
          const unsigned i = (first + k) % n;
          size_t others = 1;
          for (unsigned j = 0; j < n; ++j)
            if (j != i) others *= base[j];
          const size_t bound = std::min(itemMax(s, i), groupCap(s) / std::max<size_t>(others, 1));
          for (int tries = 0; tries < 32 && !done && bound >= 2; ++tries) {
            size_t v = pick(2, std::min(bound, std::max<size_t>(2 * G[i] + 1, 2)));
            if (G[i] % v == 0) continue;
            std::vector<size_t> l = base;
            l[i] = v;
            c.local = l;
            sh.checkable = s.any_local;  // with non-uniform groups it runs over the whole range
            done = true;
          }
        }
      }
      if (!done) {
        sh.kind = "spec";  // nothing can be cut here (every group and global size is 1)
        sh.checkable = true;
      }
    } else if (sh.kind == "over_device_max") {
      std::vector<size_t> l = ones;
      const size_t dmax = s.device.max_work_group_size;
      if (n >= 2 && itemMax(s, 1) >= 2) {
        l[0] = std::min(itemMax(s, 0), dmax);
        l[1] = dmax / l[0] + pick(1, 2);
      } else {
        l[0] = dmax + pick(1, 64);
      }
      c.local = l;
      c.global = failingGlobal(l);
    } else if (sh.kind == "over_kernel_max") {
      std::vector<size_t> l = ones;
      l[0] =
          pick(s.kernel.work_group_size + 1, std::min(s.device.max_work_group_size, itemMax(s, 0)));
      c.local = l;
      c.global = failingGlobal(l);
    } else if (sh.kind == "over_item_size") {
      std::vector<size_t> l = ones;
      const unsigned i = static_cast<unsigned>(pick(0, n - 1));
      l[i] = itemMax(s, i) + pick(1, 64);
      c.local = l;
      c.global = failingGlobal(l);
    } else if (sh.kind == "zero_local") {
      std::vector<size_t> l = s.any_local ? dividingLocal(s, G) : (L.empty() ? ones : L);
      l[pick(0, n - 1)] = 0;
      c.local = l;
      sh.checkable = true;  // running as with a NULL local size keeps the contract here
    } else if (sh.kind == "zero_global") {
      c.local = keptLocal();
      c.global[pick(0, n - 1)] = 0;
    } else if (sh.kind == "offset") {
      std::vector<size_t> o(n, 0), g = G;
      if (s.any_local) {
        for (unsigned i = 0; i < n; ++i) o[i] = G[i] ? pick(0, G[i] - 1) : 0;
        for (unsigned i = 0; i < n; ++i) g[i] = G[i] - o[i];
        c.local = coin() ? std::nullopt : std::optional(dividingLocal(s, g));
      } else {
        for (unsigned i = 0; i < n; ++i)
          if (!L.empty() && L[i] && G[i] >= L[i]) o[i] = L[i] * pick(0, G[i] / L[i] - 1);
        for (unsigned i = 0; i < n; ++i) g[i] = G[i] - o[i];
      }
      std::vector<size_t> off = s.offset.empty() ? std::vector<size_t>(n, 0) : s.offset;
      for (unsigned i = 0; i < n; ++i) off[i] += o[i];
      c.offset = off;
      c.global = g;
    } else if (sh.kind == "local_mem_over" || sh.kind == "local_mem_limit") {
      const size_t j = pick(0, s.local_arg_bytes.size() - 1);
      const size_t elem = std::max<size_t>(s.local_arg_elem[j], 1);
      const size_t args = sum(s.local_arg_bytes);
      const size_t own = s.kernel.local_mem_size > args ? s.kernel.local_mem_size - args : 0;
      const size_t others = args - s.local_arg_bytes[j];
      const size_t device = s.device.local_mem_size;
      const size_t room = device > own + others ? device - own - others : 0;
      size_t bytes;
      if (sh.kind == "local_mem_over") {
        // Over the device's local memory alone, or only together with the kernel's own.
        const size_t delta = elem * pick(1, 1024);
        bytes = coin() ? device + delta : room + delta;
      } else {
        // Up to what the device has left, to the element.
        const size_t spare = pick(0, 8);
        bytes = room / elem > spare ? (room / elem - spare) * elem : 0;
        bytes = std::max(bytes, s.local_arg_bytes[j]);
      }
      sh.local_arg_bytes[j] = (bytes + elem - 1) / elem * elem;
      sh.checkable = true;  // more __local memory than the kernel uses changes nothing it computes
    } else if (sh.kind == "reqd_mismatch") {
      std::vector<size_t> l = L.empty() ? ones : L;
      const unsigned i = static_cast<unsigned>(pick(0, n - 1));
      l[i] = l[i] > 1 && coin() ? l[i] / 2 : l[i] * 2;
      c.local = l;
      c.global = failingGlobal(l);
    }
    c.dynamic_local_bytes = sum(sh.local_arg_bytes);
    return sh;
  });
}

}  // namespace clh::launch
