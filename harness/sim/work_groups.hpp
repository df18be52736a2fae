// The work-group shapes the simulator runs where a launch leaves the local size to the driver:
// Oclgrind alone would run 1x1 groups, in which no race between the work-items of a group can show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clh {

/// Shapes a driver could pick for `global` (each divides it, none is all ones while another
/// fits): the largest group filling the first dimension first, a balanced one for 2-D and 3-D
/// (16x16-like), the largest multiple of `preferred_multiple` (CL_KERNEL_PREFERRED_WORK_GROUP_
/// SIZE_MULTIPLE), and one odd shape. `kernel_max` is CL_KERNEL_WORK_GROUP_SIZE, `max_dims` the
/// device's CL_DEVICE_MAX_WORK_ITEM_SIZES. Only {1,...} when nothing larger divides the global size
/// (a prime global size over the limit, or a single work-item).
std::vector<std::vector<size_t>> driverLikeLocalSizes(const std::vector<size_t>& global,
                                                      size_t kernel_max, size_t preferred_multiple,
                                                      const std::vector<size_t>& max_dims = {});

/// A shape of at least two work-groups in each dimension whose global size allows it (is larger
/// than one), for races between work-groups: in each dimension the largest divisor of the global
/// size up to half of it, within `kernel_max` work-items in all and `max_dims`; 1 in a dimension
/// of global size 1 or a prime (then each of its work-items is a group of its own there).
std::vector<size_t> severalGroupsLocalSize(const std::vector<size_t>& global, size_t kernel_max,
                                           const std::vector<size_t>& max_dims = {});

/// Whether `local` makes at least two work-groups in every dimension whose global size allows it.
bool spansSeveralGroups(const std::vector<size_t>& global, const std::vector<size_t>& local);

/// The one of `shapes` a case runs: a function of `key` (the case's sizes and seed), so a replay of
/// the case runs the same shape and the cases of a unit see several.
const std::vector<size_t>& pickLocalSize(const std::vector<std::vector<size_t>>& shapes,
                                         uint64_t key);

/// "16x16", "3", ...
std::string formatShape(const std::vector<size_t>& shape);

}  // namespace clh
