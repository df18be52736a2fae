// Which work-group features a kernel's source uses: a kernel that uses none computes the same
// results under every local size, so the launch family may run it with local sizes of its own.
#pragma once

#include <string>
#include <vector>

namespace clh::launch {

/// The work-group features named in an OpenCL C source, comments and string literals ignored:
/// the built-ins whose values depend on the work-group (get_local_id, get_group_id,
/// get_local_size, get_num_groups, get_enqueued_local_size, get_local_linear_id), barriers and
/// fences, work-group and sub-group functions, async copies, __local / local memory and
/// reqd_work_group_size. Each is listed once, in order of first appearance. Empty: the results
/// depend on global ids only.
std::vector<std::string> workGroupFeatures(const std::string& source);

/// The source text with comments, string and character literals replaced by spaces (line
/// breaks kept), so a scan never sees a word inside them.
std::string stripCommentsAndStrings(const std::string& source);

}  // namespace clh::launch
