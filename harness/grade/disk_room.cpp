// The free space of the results folder's disk, by statvfs (grade/disk_room.hpp).
#include "grade/disk_room.hpp"

#include <fmt/format.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

namespace clh::grade {

std::optional<std::string> diskRoomProblem(const std::string& folder, uint64_t need) {
  struct statvfs st {};
  if (::statvfs(folder.c_str(), &st) != 0)
    return "cannot read the free space of " + folder + ": " + std::strerror(errno);
  const uint64_t free = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  if (free >= need) return std::nullopt;
  return fmt::format(
      "the disk of {} has {} KiB free, less than the {} MiB grading needs there (the grading "
      "processes' kernel caches and the results): a build that cannot write its cache would be "
      "charged to the student. Free some space, or grade into another --out",
      folder, free / 1024, need >> 20);
}

}  // namespace clh::grade
