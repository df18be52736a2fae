// The runtime of the routed calls and of barrier divergence, in OpenCL C (runtime_calls.hpp).
#include "sanitize/runtime_calls.hpp"

#include <fmt/format.h>

#include "sanitize/runtime.hpp"

namespace clh::sanitize {

namespace {

// The context the kernel's prologue declares: the core's first (so that the core's pointer, which
// every instrumented function is given, is a pointer to this too), then this file's own state:
// the records and the group's three vote words for the branches that decide a barrier.
constexpr const char* kExtended = R"CL(
struct __clh_xctx {
  struct __clh_ctx c;
  __global uint* rec;
  __local uint* votes;
  uint nvotes;
};
#define __CLH_X(c) ((struct __clh_xctx*)(c))
uint __clh_flat_lid(void) {
  return get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}
uint __clh_group_items(void) { return get_local_size(0) * get_local_size(1) * get_local_size(2); }
void __clh_xinit(struct __clh_ctx* c, __global uint* rec, __local uint* votes) {
  struct __clh_xctx* x = __CLH_X(c);
  x->rec = rec; x->votes = votes; x->nvotes = 0;
  if (votes && __clh_flat_lid() == 0) { votes[0] = 0; votes[1] = 0; votes[2] = 0; }
}
)CL";

// vloadN/vstoreN (and the half forms) on a __global or __local pointer: the call is rewritten to
// read or write N elements at `p + off * stride` through these, each element checked by the core
// (bounds, shadow) as an access of its own; one out of bounds sends the whole vector to the dummy.
constexpr const char* kVectors = R"CL(
__global void* __clh_gvec(struct __clh_ctx* c, uint site, int hint, uint kind, ulong off,
                          __global void* p, ulong elem, uint n, uint stride) {
  __global uchar* base = (__global uchar*)p + off * stride * elem;
  __global void* bad = 0;
  for (uint k = 0; k < n; ++k) {
    __global void* e = (__global void*)(base + k * elem);
    __global void* q = __clh_ga(c, site, hint, kind, e, elem);
    if (q != e && !bad) bad = q;
  }
  return bad ? bad : (__global void*)base;
}
__local void* __clh_lvec(struct __clh_ctx* c, uint site, int hint, uint kind, ulong off,
                         __local void* p, ulong elem, uint n, uint stride) {
  __local uchar* base = (__local uchar*)p + off * stride * elem;
  __local void* bad = 0;
  for (uint k = 0; k < n; ++k) {
    __local void* e = (__local void*)(base + k * elem);
    __local void* q = __clh_la(c, site, hint, kind, e, elem);
    if (q != e && !bad) bad = q;
  }
  return bad ? bad : (__local void*)base;
}
)CL";

// async_work_group_copy and its strided form: the group copies element i in work-item
// i % (group size), each element read and written through the core (so the source's reads count
// for races across work-groups, the __local words written count as written, and an element out of
// bounds is not copied); a copy of no elements gives the call a real event. wait_group_events
// waits for it, then is a barrier of the group (it is met by every work-item, as the copy is):
// what the copy wrote is read after it without a race.
constexpr const char* kCopies = R"CL(
void __clh_copy_bytes(__local uchar* l, __global uchar* g, ulong elem, int to_local) {
  if ((elem & 3) == 0) {
    __local uint* lw = (__local uint*)l; __global uint* gw = (__global uint*)g;
    for (ulong b = 0; b < elem / 4; ++b) { if (to_local) lw[b] = gw[b]; else gw[b] = lw[b]; }
  } else {
    for (ulong b = 0; b < elem; ++b) { if (to_local) l[b] = g[b]; else g[b] = l[b]; }
  }
}
event_t __clh_acopy_lgs(struct __clh_ctx* c, uint sd, uint ss, int hd, int hs, ulong elem,
                        __local void* d, const __global void* s, ulong n, ulong stride, event_t e) {
  for (ulong i = __clh_flat_lid(); i < n; i += __clh_group_items()) {
    __local uchar* to = (__local uchar*)__clh_la(c, sd, hd, 2, (__local uchar*)d + i * elem, elem);
    __global uchar* from = (__global uchar*)__clh_ga(c, ss, hs, 1, (__global uchar*)s + i * stride * elem, elem);
    __clh_copy_bytes(to, from, elem, 1);
  }
  return async_work_group_copy((__local uchar*)d, (const __global uchar*)s, 0, e);
}
event_t __clh_acopy_gls(struct __clh_ctx* c, uint sd, uint ss, int hd, int hs, ulong elem,
                        __global void* d, const __local void* s, ulong n, ulong stride, event_t e) {
  for (ulong i = __clh_flat_lid(); i < n; i += __clh_group_items()) {
    __global uchar* to = (__global uchar*)__clh_ga(c, sd, hd, 2, (__global uchar*)d + i * stride * elem, elem);
    __local uchar* from = (__local uchar*)__clh_la(c, ss, hs, 1, (__local uchar*)s + i * elem, elem);
    __clh_copy_bytes(from, to, elem, 0);
  }
  return async_work_group_copy((__global uchar*)d, (const __local uchar*)s, 0, e);
}
event_t __clh_acopy_lg(struct __clh_ctx* c, uint sd, uint ss, int hd, int hs, ulong elem,
                       __local void* d, const __global void* s, ulong n, event_t e) {
  return __clh_acopy_lgs(c, sd, ss, hd, hs, elem, d, s, n, 1, e);
}
event_t __clh_acopy_gl(struct __clh_ctx* c, uint sd, uint ss, int hd, int hs, ulong elem,
                       __global void* d, const __local void* s, ulong n, event_t e) {
  return __clh_acopy_gls(c, sd, ss, hd, hs, elem, d, s, n, 1, e);
}
void __clh_wait(struct __clh_ctx* c, int n, event_t* events) {
  wait_group_events(n, events);
  __clh_barrier_f(c, CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
)CL";

// (No branch before the barrier in here, not even one every work-item takes alike: PoCL 3.1 then
// ran the barrier's caller wrongly. Every kernel of the file that reaches a barrier has the votes.)
// A branch that decides whether a barrier is reached (an `if` or a loop around one, an `if` around
// a `return`, `break` or `continue` that skips one): every work-item votes its condition into the
// group's vote word for this evaluation, then a barrier (the group is together there: every branch
// above it that decides a barrier went the same way for the whole group), then each reads the
// count. All or none: the condition as it was. Some: divergence, recorded by work-item 0 at the
// branch's site, and the whole group takes side `chosen` (the one that skips the barrier), so that
// the device goes on instead of hanging or running a barrier that some work-items never meet.
// Three vote words in turn: the one of evaluation e-1 is cleared after evaluation e's barrier,
// when every work-item has read it, and is next voted in after evaluation e+1's.
constexpr const char* kBranches = R"CL(
void __clh_diverged(struct __clh_xctx* x, uint site, uint yes, uint items, int chosen) {
  __global uint* r = x->rec + site * __CLH_RW;
  atomic_or(r + __CLH_MASK, 8u);
  atomic_inc(r + __CLH_DIV_COUNT);
  if (atomic_cmpxchg(r + __CLH_DIV_CLAIM, 0u, 1u) == 0u) {
    r[__CLH_DIV_TRUE] = yes; r[__CLH_DIV_ITEMS] = items; r[__CLH_DIV_CHOSEN] = (uint)chosen;
    r[__CLH_DIV_GROUP] = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
  }
}
int __clh_cond(struct __clh_ctx* c, uint site, int value, int chosen) {
  struct __clh_xctx* x = __CLH_X(c);
  uint e = x->nvotes % 3;
  x->nvotes = e == 2 ? 0 : e + 1;
  if (value) atomic_inc(x->votes + e);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint yes = x->votes[e], items = __clh_group_items(), first = __clh_flat_lid() == 0;
  if (first) x->votes[(e + 2) % 3] = 0;
  if (yes == 0 || yes == items) return value;
  if (first && c->on) __clh_diverged(x, site, yes, items, chosen);
  return chosen;
}
)CL";

}  // namespace

std::string runtimeCallsSource() {
  return fmt::format(
             "#define __CLH_MASK {}\n#define __CLH_DIV_COUNT {}\n#define __CLH_DIV_CLAIM {}\n"
             "#define __CLH_DIV_TRUE {}\n#define __CLH_DIV_ITEMS {}\n#define __CLH_DIV_GROUP {}\n"
             "#define __CLH_DIV_CHOSEN {}\n",
             static_cast<int>(kMask), static_cast<int>(kDivCount), static_cast<int>(kDivClaim),
             static_cast<int>(kDivTrue), static_cast<int>(kDivItems), static_cast<int>(kDivGroup),
             static_cast<int>(kDivChosen)) +
         kExtended + kVectors + kCopies + kBranches;
}

}  // namespace clh::sanitize
