// Shrinking a scan's grid to the simulator's budget (scan/grid.hpp).
#include "scan/grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "core/text.hpp"

namespace clh::scan {

namespace {

std::string shape(const std::vector<size_t>& v) {
  std::string s = commaList(v);
  for (char& c : s)
    if (c == ',') c = 'x';
  return s;
}

// The global size of `groups` work-groups of `local` work-items in one dimension, the last of them
// `rest` work-items when the given grid's last was smaller (rest 0: all full).
size_t globalOf(size_t groups, size_t local, size_t rest) {
  return rest ? (groups - 1) * local + std::min(rest, local) : groups * local;
}

}  // namespace

size_t gridItems(const std::vector<size_t>& global) {
  return std::accumulate(global.begin(), global.end(), size_t{1}, std::multiplies<>());
}

std::vector<size_t> groupCounts(const std::vector<size_t>& global,
                                const std::vector<size_t>& local) {
  std::vector<size_t> groups(global.size());
  for (size_t d = 0; d < global.size(); ++d)
    groups[d] = global[d] / local[d] + (global[d] % local[d] ? 1 : 0);
  return groups;
}

GridChoice fewerGroups(const std::vector<size_t>& global, const std::vector<size_t>& local,
                       size_t most) {
  GridChoice c{global, local, ""};
  const std::vector<size_t> groups = groupCounts(global, local);
  if (most == 0) return c;
  std::vector<size_t> kept = groups;
  for (size_t d = 0; d < global.size(); ++d) {
    if (groups[d] <= most) continue;
    kept[d] = most;
    c.global[d] = globalOf(most, local[d], global[d] % local[d]);
  }
  if (c.global == global) return c;
  c.note = fmt::format(
      "the grid {} ({} work-groups of {}) ran past the time limit (--timeout): ran {} instead "
      "({} work-group{}, at most {} in each dimension); the findings are for that grid",
      shape(global), shape(groups), shape(local), shape(c.global), shape(kept),
      gridItems(kept) == 1 ? "" : "s", most);
  return c;
}

GridChoice shrinkGrid(const std::vector<size_t>& global, const std::vector<size_t>& local,
                      size_t max_items) {
  GridChoice c{global, local, ""};
  if (max_items == 0 || gridItems(global) <= max_items) return c;
  const size_t n = global.size();
  // Per dimension: the work-groups, the fewest kept, and the work-items of a smaller last one.
  const std::vector<size_t> original = groupCounts(global, local);
  std::vector<size_t> groups = original, floor(n), rest(n);
  for (size_t d = 0; d < n; ++d) {
    floor[d] = groups[d] >= 2 ? 2 : 1;
    rest[d] = global[d] % local[d];
  }
  auto rebuild = [&] {
    for (size_t d = 0; d < n; ++d) c.global[d] = globalOf(groups[d], c.local[d], rest[d]);
  };
  // The work-group itself, with the fewest groups kept, over the budget: halve its largest size.
  auto floorItems = [&] {
    size_t items = 1;
    for (size_t d = 0; d < n; ++d) items *= floor[d] * c.local[d];
    return items;
  };
  while (floorItems() > max_items) {
    size_t d = 0;
    for (size_t k = 1; k < n; ++k)
      if (c.local[k] > c.local[d]) d = k;
    if (c.local[d] == 1) break;
    c.local[d] = (c.local[d] + 1) / 2;
  }
  rebuild();
  while (gridItems(c.global) > max_items) {
    // One group fewer where that drops the smallest share of the given groups (the last
    // dimension of equal shares).
    size_t best = n;
    double bestShare = 0;
    for (size_t d = 0; d < n; ++d) {
      if (groups[d] <= floor[d]) continue;
      const double share =
          static_cast<double>(original[d] - groups[d] + 1) / static_cast<double>(original[d]);
      if (best == n || share <= bestShare) best = d, bestShare = share;
    }
    if (best == n) break;
    --groups[best];
    rebuild();
  }
  const bool smallerGroups = c.local != local;
  c.note = fmt::format(
      "the grid given, {} in work-groups of {} ({} work-groups), is over scan's budget of {} "
      "work-items on the simulator (--max-items): ran {} in work-groups of {} ({} work-groups){}; "
      "the findings are for that grid",
      shape(global), shape(local), shape(original), max_items, shape(c.global), shape(c.local),
      shape(groups),
      smallerGroups ? "; the work-group itself was made smaller, so get_local_size() differs" : "");
  return c;
}

}  // namespace clh::scan
