// Driver-like work-group shapes for launches with a NULL local size on the simulator.
#include "sim/work_groups.hpp"

#include <algorithm>
#include <cmath>

namespace clh {

namespace {

size_t capOf(const std::vector<size_t>& max_dims, size_t d, size_t cap) {
  if (d < max_dims.size() && max_dims[d] > 0) cap = std::min(cap, max_dims[d]);
  return std::max<size_t>(cap, 1);
}

// The largest divisor of n within cap for which keep(divisor) holds; 1 when none.
template <typename Keep>
size_t largestDivisor(size_t n, size_t cap, Keep keep) {
  for (size_t l = std::min(cap, n); l >= 1; --l)
    if (n % l == 0 && keep(l)) return l;
  return 1;
}

size_t items(const std::vector<size_t>& shape) {
  size_t n = 1;
  for (size_t x : shape) n *= x;
  return n;
}

}  // namespace

std::vector<std::vector<size_t>> driverLikeLocalSizes(const std::vector<size_t>& global,
                                                      size_t kernel_max, size_t preferred_multiple,
                                                      const std::vector<size_t>& max_dims) {
  const size_t limit = std::max<size_t>(kernel_max, 1);
  const size_t d = global.size();
  std::vector<std::vector<size_t>> out;
  auto add = [&](std::vector<size_t> shape) {
    if (shape.size() != d || items(shape) > limit) return;
    for (size_t i = 0; i < d; ++i)
      if (shape[i] == 0 || global[i] % shape[i] != 0) return;
    if (std::find(out.begin(), out.end(), shape) == out.end()) out.push_back(std::move(shape));
  };
  auto any = [](size_t) { return true; };

  // The largest group, first dimension first (a driver filling rows).
  {
    std::vector<size_t> shape;
    size_t room = limit;
    for (size_t i = 0; i < d; ++i) {
      shape.push_back(largestDivisor(global[i], capOf(max_dims, i, room), any));
      room /= shape.back();
    }
    add(shape);
  }
  // Balanced: each dimension within the d-th root of min(limit, 256), e.g. 16x16.
  const size_t balancedLimit = std::min<size_t>(limit, 256);
  const auto root = static_cast<size_t>(std::floor(
      std::pow(static_cast<double>(balancedLimit), 1.0 / static_cast<double>(d)) + 1e-9));
  if (d > 1) {
    std::vector<size_t> shape;
    for (size_t i = 0; i < d; ++i)
      shape.push_back(largestDivisor(global[i], capOf(max_dims, i, root), any));
    add(shape);
  }
  // The largest multiple of the preferred multiple in the first dimension.
  if (preferred_multiple > 1) {
    std::vector<size_t> shape(d, 1);
    shape[0] = largestDivisor(global[0], capOf(max_dims, 0, balancedLimit),
                              [&](size_t l) { return l % preferred_multiple == 0; });
    add(shape);
  }
  // One odd shape: the largest odd divisors within the balanced caps.
  {
    std::vector<size_t> shape;
    for (size_t i = 0; i < d; ++i)
      shape.push_back(largestDivisor(global[i], capOf(max_dims, i, d > 1 ? root : balancedLimit),
                                     [](size_t l) { return l % 2 == 1; }));
    add(shape);
  }
  // Shapes of one work-item only where nothing larger exists.
  std::erase_if(out, [&](const std::vector<size_t>& s) { return items(s) == 1; });
  if (out.empty()) out.push_back(std::vector<size_t>(d, 1));
  return out;
}

std::vector<size_t> severalGroupsLocalSize(const std::vector<size_t>& global, size_t kernel_max,
                                           const std::vector<size_t>& max_dims) {
  std::vector<size_t> shape;
  size_t room = std::max<size_t>(kernel_max, 1);
  for (size_t i = 0; i < global.size(); ++i) {
    const size_t half = std::max<size_t>(global[i] / 2, 1);
    shape.push_back(largestDivisor(global[i], capOf(max_dims, i, std::min(room, half)),
                                   [](size_t) { return true; }));
    room /= shape.back();
  }
  return shape;
}

bool spansSeveralGroups(const std::vector<size_t>& global, const std::vector<size_t>& local) {
  for (size_t i = 0; i < global.size(); ++i)
    if (global[i] > 1 && (i >= local.size() || local[i] == 0 || global[i] / local[i] < 2))
      return false;
  return true;
}

const std::vector<size_t>& pickLocalSize(const std::vector<std::vector<size_t>>& shapes,
                                         uint64_t key) {
  // splitmix64, so that neighbouring keys spread over the shapes.
  uint64_t z = key + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return shapes.at(z % shapes.size());
}

std::string formatShape(const std::vector<size_t>& shape) {
  std::string s;
  for (size_t x : shape) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

}  // namespace clh
