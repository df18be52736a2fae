// The sanitizer's runtime for the calls that touch memory themselves (vload/vstore, async copies)
// and for the branches that decide whether a barrier is reached: OpenCL C that runtimeSource
// appends after the core runtime (runtime.cpp), whose __clh_ga/__clh_la it calls.
#pragma once

#include <string>

namespace clh::sanitize {

/// The OpenCL C text: the extended context (`struct __clh_xctx`), `__clh_gvec`/`__clh_lvec`,
/// `__clh_acopy_*`, `__clh_wait` and `__clh_cond` (rewrite.cpp writes the calls).
std::string runtimeCallsSource();

}  // namespace clh::sanitize
