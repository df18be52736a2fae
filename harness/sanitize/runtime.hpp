// The sanitizer's runtime: OpenCL C prepended to the instrumented program, and the layout of the
// records it leaves for the host (decoded in findings.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace clh::sanitize {

/// Words (uint) of one site's record in the record buffer: bounded by the program's sites.
inline constexpr size_t kRecordWords = 30;
/// The record's words (runtime.cpp writes them, findings.cpp reads them).
enum Record : size_t {
  kMask = 0,        ///< bit 1 out of bounds, 2 race, 4 uninitialized, 8 divergence
  kOobCount = 1,    ///< out-of-bounds accesses at the site
  kOobClaim = 2,    ///< the first one's details follow
  kOobObject = 3,   ///< the buffer's table index; local objects | 0x10000
  kOobIndexLo = 4,  ///< its element index (signed 64 bits)
  kOobIndexHi = 5,
  kOobItem = 6,        ///< its global id, 3 words
  kRaceCount = 9,      ///< racing accesses seen at the site
  kRaceClaim = 10,     ///< the first one's details follow
  kRaceOther = 11,     ///< the other access's site
  kRaceMe = 12,        ///< this access's work-item (local flat id)
  kRaceThem = 13,      ///< the other work-item (0xFFFF: several readers), or group + 1 (4-6)
  kRaceType = 14,      ///< __local: 1 write-write, 2 read then write, 3 write then read;
                       ///< across work-groups (__global): 4, 5, 6 the same; __global within a
                       ///< work-group (no global fence between): 7, 8, 9 the same
  kRaceGroup = 15,     ///< the work-group (flat)
  kUninitCount = 16,   ///< reads of __local words no work-item of the group wrote
  kUninitClaim = 17,   ///< the first one's details follow
  kUninitObject = 18,  ///< the local object
  kUninitByte = 19,    ///< the byte offset in it
  kUninitItem = 20,    ///< its global id, 3 words
  kUninitGroup = 23,
  // A branch that decides whether a barrier is reached, taken differently by the work-items of one
  // group (runtime_calls.cpp; the record of the branch's site, decoded in divergence.cpp).
  kDivCount = 24,   ///< evaluations of the branch on which a work-group disagreed
  kDivClaim = 25,   ///< the first one's details follow
  kDivTrue = 26,    ///< work-items that found the condition true
  kDivItems = 27,   ///< work-items of the group
  kDivGroup = 28,   ///< the work-group (flat)
  kDivChosen = 29,  ///< the side the sanitizer had the whole group take (0 or 1)
};
/// uints of __local shadow per 4 bytes of the kernel's __local memory (epoch, items, sites, set).
inline constexpr size_t kShadowUints = 4;
/// uints of __global shadow per 4 bytes of the kernel's __global buffers: writer and reader
/// group, a writer's and a reader's work-item and site, and the 64-bit state within the group
/// (global-fence interval, writer and reader work-item); the runtime moves the shadow up to
/// 8-byte alignment, so the buffer has 2 uints more.
inline constexpr size_t kGlobalShadowUints = 6;
/// The most bytes of __global shadow a launch gets; past it, races on __global memory (across
/// work-groups and within one) are not looked at (a note says so).
inline constexpr uint64_t kMaxGlobalShadowBytes = uint64_t{1} << 30;
/// Bytes after the shadow where an out-of-bounds __local access is sent instead (less 4 where
/// the runtime moves the shadow up to 8-byte alignment: NVIDIA aligns a `uint*` to 4 only).
inline constexpr size_t kLocalDummyBytes = 256;
/// Bytes of the __global buffer where an out-of-bounds __global access is sent instead.
inline constexpr size_t kGlobalDummyBytes = 4096;
/// Work-items of a group the __local shadow can tell apart (16 bits each, two values reserved).
inline constexpr size_t kMaxGroupItems = 65534;

/// The runtime for a kernel with `globals` __global buffer parameters and `locals` pieces of
/// __local memory (its OpenCL C text); `uninitialized`: reads of __local words no work-item wrote
/// are reported (off when the kernel fills __local memory in ways the runtime does not follow).
std::string runtimeSource(size_t globals, size_t locals, bool uninitialized);

}  // namespace clh::sanitize
