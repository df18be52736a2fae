// The room a grading batch needs on the disk of its results folder, where the grading processes
// write their scratch folders (PoCL's kernel cache) and the results.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace clh::grade {

/// 64 MiB: PoCL's cache of a kernel is a few MiB, the result files are small.
inline constexpr uint64_t kGradeDiskRoomBytes = uint64_t{64} << 20;

/// Why grading into `folder` cannot be trusted now: its disk has less than `need` bytes free (a
/// kernel cache that cannot be written reads as the student's build error, or a tool's), or its
/// room cannot be read. Nothing when there is room.
std::optional<std::string> diskRoomProblem(const std::string& folder,
                                           uint64_t need = kGradeDiskRoomBytes);

}  // namespace clh::grade
