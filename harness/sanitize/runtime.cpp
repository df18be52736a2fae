// The sanitizer's runtime in OpenCL C: bounds, the __local and __global shadows (races,
// uninitialized reads) and the per-site records, prepended to the instrumented program
// (runtime.hpp gives the layout).
#include "sanitize/runtime.hpp"

#include <fmt/format.h>

#include "sanitize/runtime_calls.hpp"

namespace clh::sanitize {

namespace {

// The context every instrumented access is given, and its setup. `on` is 0 in the file's other
// kernels. The __local shadow: kShadowUints words per 4 bytes of __local memory, then the dummy.
// `epoch` counts the work-item's barriers with the local fence, `gepoch` those with the global
// fence; `gin`: races on __global memory within the group are looked at (64-bit atomics, and a
// group whose work-items the shadow's 16 bits tell apart).
constexpr const char* kContext = R"CL(
struct __clh_ctx {
  int on, ng, nl, nla, gin;
  uint epoch, gepoch, lid, group;
  __global ulong* sizes;
  __global uint* rec;
  __local uint* lsh;
  ulong lwords, ldyn;
  __global uint* gsh;
  ulong gwords, ro;
  __global uchar* gdummy;
  __local uchar* ldummy;
  ulong gbase[__CLH_NG], gsize[__CLH_NG], goff[__CLH_NG];
  ulong lbase[__CLH_NL], lsize[__CLH_NL], loff[__CLH_NL];
};
void __clh_init(struct __clh_ctx* c, __global ulong* sizes, __global uint* rec, __local uint* lsh,
                __global uchar* dummy, __global uint* gsh, int ng, int nla) {
  c->on = 1; c->ng = ng; c->nl = nla; c->nla = nla; c->epoch = 0; c->gepoch = 0;
  c->lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  c->group = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
  c->sizes = sizes; c->rec = rec; c->gdummy = dummy;
  c->lsh = ((ulong)lsh & 7ul) ? lsh + 1 : lsh;  // the state words are 64-bit: 8-byte aligned
  ulong words = 0;
  c->ro = sizes[ng + nla + 2];  // buffers the kernel never writes: no shadow, bounds only
  for (int k = 0; k < ng; ++k) {
    c->gsize[k] = sizes[k]; c->goff[k] = words;
    if (k >= 64 || !((c->ro >> k) & 1ul)) words += (sizes[k] + 3) / 4;
  }
  c->gsh = ((ulong)gsh & 7ul) ? gsh + 1 : gsh;  // the state words within a group are 64-bit
  c->gwords = sizes[ng + nla + 1];
  c->gin = __CLH_LSHADOW && get_local_size(0) * get_local_size(1) * get_local_size(2) <= __CLH_MAXITEMS;
  words = 0;
  for (int k = 0; k < nla; ++k) {
    c->lsize[k] = sizes[ng + k]; c->loff[k] = words; words += (c->lsize[k] + 3) / 4;
  }
  c->ldyn = words;
  c->lwords = sizes[ng + nla];
  c->ldummy = (__local uchar*)(lsh + 4 * c->lwords);
}
void __clh_begin(struct __clh_ctx* c) {
  uint n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  for (ulong w = c->lid; w < 4 * c->lwords; w += n) c->lsh[w] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
}
void __clh_local(struct __clh_ctx* c, int k, __local void* p, ulong bytes, ulong at) {
  c->lbase[k] = (ulong)p; c->lsize[k] = bytes; c->loff[k] = c->ldyn + at;
  if (c->nl < k + 1) c->nl = k + 1;
}
void __clh_barrier_f(struct __clh_ctx* c, cl_mem_fence_flags f) {
  barrier(f);
  if (f & CLK_LOCAL_MEM_FENCE) c->epoch++;
  if (f & CLK_GLOBAL_MEM_FENCE) c->gepoch++;
}
#define __clh_barrier(f) __clh_barrier_f(__clh_c, (f))
#define __clh_work_group_barrier(f, ...) __clh_barrier_f(__clh_c, (f))
)CL";

// The records: the first finding of each kind at a site is kept whole, the others counted.
constexpr const char* kRecords = R"CL(
void __clh_oob(struct __clh_ctx* c, uint site, uint object, long index) {
  __global uint* r = c->rec + site * __CLH_RW;
  atomic_or(r + 0, 1u);
  atomic_inc(r + 1);
  if (atomic_cmpxchg(r + 2, 0u, 1u) == 0u) {
    r[3] = object; r[4] = (uint)((ulong)index); r[5] = (uint)((ulong)index >> 32);
    r[6] = get_global_id(0); r[7] = get_global_id(1); r[8] = get_global_id(2);
  }
}
void __clh_race(struct __clh_ctx* c, uint site, uint other, uint them, uint type) {
  __global uint* r = c->rec + site * __CLH_RW;
  atomic_or(r + 0, 2u);
  atomic_inc(r + 9);
  if (atomic_cmpxchg(r + 10, 0u, 1u) == 0u) {
    r[11] = other; r[12] = c->lid; r[13] = them; r[14] = type; r[15] = c->group;
  }
}
void __clh_uninit(struct __clh_ctx* c, uint site, uint object, ulong byte) {
  __global uint* r = c->rec + site * __CLH_RW;
  atomic_or(r + 0, 4u);
  atomic_inc(r + 16);
  if (atomic_cmpxchg(r + 17, 0u, 1u) == 0u) {
    r[18] = object; r[19] = (uint)byte;
    r[20] = get_global_id(0); r[21] = get_global_id(1); r[22] = get_global_id(2); r[23] = c->group;
  }
}
)CL";

// The interval state of a shadow word, one 64-bit word changed by atom_cmpxchg (the work-items of a
// group run at once on a GPU): the interval (epoch+1, 31 bits), the last writer and the reader
// (lid+1, 16 bits each; 0xFFFF: several readers) in it, and whether the word was ever written.
constexpr const char* kState = R"CL(
#if __CLH_LSHADOW
ulong __clh_state(ulong old, ulong epoch, uint me, uint kind, uint* wr0, uint* rd0) {
  uint wr = (uint)(old >> 16) & 0xFFFFu, rd = (uint)old & 0xFFFFu;
  if (((old >> 32) & 0x7FFFFFFFul) != epoch) { wr = 0; rd = 0; }
  *wr0 = wr; *rd0 = rd;
  if (kind & 1u) { if (!rd) rd = me; else if (rd != me) rd = 0xFFFFu; }
  if (kind & 2u) wr = me;
  ulong set = (old >> 63) | ((kind & 2u) ? 1ul : 0ul);
  return (set << 63) | (epoch << 32) | ((ulong)wr << 16) | (ulong)rd;
}
// The state word at `st` (__local or __global: OpenCL C 1.2 has no generic pointer, so a macro)
// moved from `old` by one access; `old` ends as the state the access found, `wr` and `rd` as its
// writer and reader.
#define __CLH_SET_STATE(st, old, epoch, me, kind, wr, rd)                    \
  for (;;) {                                                                 \
    ulong neu_ = __clh_state(old, epoch, me, kind, &wr, &rd);                \
    if (neu_ == old) break;                                                  \
    ulong seen_ = atom_cmpxchg(st, old, neu_);                               \
    if (seen_ == old) break;                                                 \
    old = seen_;                                                             \
  }
#endif
)CL";

// A __global access is checked against the buffer it names (hint), else the buffer holding its
// address; out of bounds, it goes to the dummy instead; then the __global shadow of each 4-byte
// word it covers (kGlobalShadowUints words): writer group+1 and reader group+1 (~0 for several),
// a writer's and a reader's tag (lid << 16 | site), and the state within the group (kState, its
// interval counting barriers with the global fence).
// Across groups: the group's word set with an atomic when it changes (work-groups run at once),
// then the other group's word read: each side's compare-and-swap orders its own mark before its
// read of the other's (a locked instruction on PoCL's CPUs; a fence on a GPU).
// Within the group (where this access met no other group): the state changed only when it
// changes, the tags written only then; a conflict is reported only while the word's group words
// still name no other group (a race across work-groups is the one to report then).
constexpr const char* kGlobal = R"CL(
#if __CLH_LSHADOW
void __clh_gwithin(struct __clh_ctx* c, uint site, uint kind, volatile __global uint* s, uint tag) {
  volatile __global ulong* st = (volatile __global ulong*)(s + 4);
  uint me = c->lid + 1, g = c->group + 1, wr, rd, type = 0, other = 0, them = 0;
  ulong epoch = (ulong)(c->gepoch + 1) & 0x7FFFFFFFul, old = *st;
  __CLH_SET_STATE(st, old, epoch, me, kind, wr, rd);
  if (kind & 1u) {
    if (wr && wr != me) { type = 9; other = s[2]; them = wr - 1; }
    if (!rd) s[3] = tag;
  }
  if (kind & 2u) {
    if (wr && wr != me) { type = 7; other = s[2]; them = wr - 1; }
    else if (rd && rd != me) { type = 8; other = s[3]; them = rd == 0xFFFFu ? 0xFFFFu : rd - 1; }
    if (wr != me) s[2] = tag;
  }
  if (!type) return;
  uint w0 = s[0], r0 = s[1];
  if ((w0 == 0u || w0 == g) && (r0 == 0u || r0 == g)) __clh_race(c, site, other & 0xFFFFu, them, type);
}
#endif
void __clh_gshadow(struct __clh_ctx* c, uint site, uint kind, ulong w, int whole) {
  volatile __global uint* s = c->gsh + __CLH_GSU * w;
  uint me = c->group + 1, tag = (c->lid << 16) | site, across = 0;
  if (kind & 2u) {
    uint old = s[0];
    if (old != me) {
      old = atomic_cmpxchg(s, 0u, me);
      if (old == 0u) s[2] = tag;
      else if (old != me) { __clh_race(c, site, s[2] & 0xFFFFu, old, 4); atomic_xchg(s, 0xFFFFFFFFu); across = 1; }
      mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    uint r = s[1];
    if (r != 0u && r != me) { __clh_race(c, site, s[3] & 0xFFFFu, r, 5); across = 1; }
  }
  if (kind & 1u) {
    uint old = s[1];
    if (old != me && old != 0xFFFFFFFFu) {
      old = atomic_cmpxchg(s + 1, 0u, me);
      if (old == 0u) s[3] = tag;
      else if (old != me && old != 0xFFFFFFFFu) atomic_xchg(s + 1, 0xFFFFFFFFu);
      mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    uint wr = s[0];
    if (wr != 0u && wr != me) { __clh_race(c, site, s[2] & 0xFFFFu, wr, 6); across = 1; }
  }
#if __CLH_LSHADOW
  if (!across && whole && c->gin) __clh_gwithin(c, site, kind, s, tag);
#endif
}
__global void* __clh_ga(struct __clh_ctx* c, uint site, int hint, uint kind, __global void* p, ulong bytes) {
  if (!c->on) return p;
  ulong a = (ulong)p;
  int b = hint;
  if (b < 0) {
    for (int k = 0; k < c->ng && b < 0; ++k)
      if (a >= c->gbase[k] && a + bytes <= c->gbase[k] + c->gsize[k]) b = k;
    if (b < 0) {
      ulong best = 0;
      for (int k = 0; k < c->ng; ++k)
        if (c->gbase[k] != 0 && c->gbase[k] <= a && c->gbase[k] >= best) { best = c->gbase[k]; b = k; }
      if (b < 0) b = 0;
    }
  }
  if (c->ng == 0 || !(a >= c->gbase[b] && a + bytes <= c->gbase[b] + c->gsize[b])) {
    long off = c->ng ? (long)(a - c->gbase[b]) : 0;
    __clh_oob(c, site, (uint)b, off >= 0 ? off / (long)bytes : -((-off + (long)bytes - 1) / (long)bytes));
    return (__global void*)c->gdummy;
  }
  if (kind == 4u || c->gwords == 0 || (b < 64 && ((c->ro >> b) & 1ul))) return p;
  ulong first = (a - c->gbase[b]) / 4, last = (a + bytes - 1 - c->gbase[b]) / 4;
  // narrower than a word (char, short): not within the group (two items may share a word)
  int whole = ((a - c->gbase[b]) & 3ul) == 0 && (bytes & 3ul) == 0;
  for (ulong w = first; w <= last; ++w)
    if (c->goff[b] + w < c->gwords) __clh_gshadow(c, site, kind, c->goff[b] + w, whole);
  return p;
}
)CL";

// A __local access the same as a __global one (bounds), then the __local shadow of each word:
// (the state of kState, counting barriers with the local fence; the last writer's or the second
// reader's tag; the first reader's tag).
constexpr const char* kLocal = R"CL(
#if __CLH_LSHADOW
void __clh_shadow(struct __clh_ctx* c, uint site, uint kind, int k, ulong w, ulong byte) {
  volatile __local ulong* st = (volatile __local ulong*)(c->lsh + 4 * w);
  volatile __local uint* s = (volatile __local uint*)(c->lsh + 4 * w);
  uint me = c->lid + 1, wr, rd, tag = (c->lid << 16) | site;
  ulong epoch = (ulong)(c->epoch + 1) & 0x7FFFFFFFul, old = *st;
  __CLH_SET_STATE(st, old, epoch, me, kind, wr, rd);
  if (kind & 1u) {
    if (__CLH_UNINIT && !(old >> 63)) __clh_uninit(c, site, (uint)k, byte);
    if (wr && wr != me) __clh_race(c, site, s[2] & 0xFFFFu, wr - 1, 3);
    if (!rd) s[3] = tag;
    else if (!wr && rd != me && rd != 0xFFFFu) s[2] = tag;  // the second reader, while no writer
  }
  if (kind & 2u) {
    uint first = s[3], second = s[2];  // a reader other than this work-item, to name
    uint other = (first >> 16) != c->lid ? first & 0xFFFFu : second & 0xFFFFu;
    if (wr && wr != me) __clh_race(c, site, s[2] & 0xFFFFu, wr - 1, 1);
    else if (rd && rd != me) __clh_race(c, site, other, rd == 0xFFFFu ? 0xFFFFu : rd - 1, 2);
    s[2] = tag;
  }
}
#else
void __clh_shadow(struct __clh_ctx* c, uint site, uint kind, int k, ulong w, ulong byte) {}
#endif
__local void* __clh_la(struct __clh_ctx* c, uint site, int hint, uint kind, __local void* p, ulong bytes) {
  if (!c->on) return p;
  ulong a = (ulong)p;
  int b = hint;
  if (b < 0) {
    for (int k = 0; k < c->nl; ++k)
      if (a >= c->lbase[k] && a + bytes <= c->lbase[k] + c->lsize[k]) { b = k; break; }
    if (b < 0) {
      ulong best = 0;
      for (int k = 0; k < c->nl; ++k)
        if (c->lbase[k] <= a && c->lbase[k] >= best) { best = c->lbase[k]; b = k; }
      if (b < 0) b = 0;
    }
  }
  if (c->nl == 0 || !(a >= c->lbase[b] && a + bytes <= c->lbase[b] + c->lsize[b])) {
    long off = c->nl ? (long)(a - c->lbase[b]) : 0;
    __clh_oob(c, site, 0x10000u | (uint)b, off >= 0 ? off / (long)bytes : -((-off + (long)bytes - 1) / (long)bytes));
    return (__local void*)c->ldummy;
  }
  if (kind == 4u) return p;
  ulong first = (a - c->lbase[b]) / 4, last = (a + bytes - 1 - c->lbase[b]) / 4;
  for (ulong w = first; w <= last; ++w)
    if (c->loff[b] + w < c->lwords) __clh_shadow(c, site, kind, b, c->loff[b] + w, a - c->lbase[b]);
  return p;
}
)CL";

}  // namespace

std::string runtimeSource(size_t globals, size_t locals, bool uninitialized) {
  return fmt::format(
             "#if defined(cl_khr_int64_base_atomics)\n#pragma OPENCL EXTENSION "
             "cl_khr_int64_base_atomics : enable\n#define __CLH_LSHADOW 1\n#else\n#define "
             "__CLH_LSHADOW 0\n#endif\n#define __CLH_NG {}\n#define __CLH_NL {}\n#define __CLH_RW "
             "{}\n#define __CLH_UNINIT {}\n#define __CLH_GSU {}\n#define __CLH_MAXITEMS {}\n",
             globals == 0 ? 1 : globals, locals == 0 ? 1 : locals, kRecordWords,
             uninitialized ? 1 : 0, kGlobalShadowUints, kMaxGroupItems) +
         kContext + kRecords + kState + kGlobal + kLocal + runtimeCallsSource();
}

}  // namespace clh::sanitize
