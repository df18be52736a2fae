// The grid a scan runs when the one given is over the simulator's budget: the same work-group
// shape, fewer work-groups (the boundary ones kept), said in words for the report.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clh::scan {

/// The grid scan runs, and why it differs from the one given ("" when it does not).
struct GridChoice {
  std::vector<size_t> global, local;
  std::string note;
};

/// The grid to run instead of `global` in work-groups of `local` when it has more than
/// `max_items` work-items (0: no budget). Each dimension keeps its work-group size and loses
/// work-groups one at a time, where that drops the smallest share of its groups, down to 2 in a
/// dimension that had 2 or more (the first and the last, a boundary group, stay) — so a fault
/// between far-apart groups of a grid just over the budget stays in it. A last work-group smaller
/// than the others (a global size the local size does not divide) stays the last one. Only when
/// those groups alone are over the budget is the work-group made smaller, halving its largest
/// dimension. `local` must have as many sizes as `global`, none 0.
GridChoice shrinkGrid(const std::vector<size_t>& global, const std::vector<size_t>& local,
                      size_t max_items);

/// The grid with at most `most` work-groups in each dimension (0: no cap), the work-group size
/// kept and a smaller last work-group kept last, for a grid that ran past the time limit.
GridChoice fewerGroups(const std::vector<size_t>& global, const std::vector<size_t>& local,
                       size_t most);

/// The number of work-groups in each dimension (a smaller last one counted).
std::vector<size_t> groupCounts(const std::vector<size_t>& global,
                                const std::vector<size_t>& local);

/// The number of work-items of a grid.
size_t gridItems(const std::vector<size_t>& global);

}  // namespace clh::scan
