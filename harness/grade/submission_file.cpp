// A submission read with open(O_NOFOLLOW | O_NONBLOCK) and fstat: links, devices, pipes and
// oversized files are refused with a reason instead of being followed or read.
#include "grade/submission_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace clh::grade {

namespace {

std::string tooLarge(size_t max_bytes) {
  return fmt::format(
      "the file is larger than {} KiB, the most a submission may be: a kernel file that large is "
      "not graded",
      max_bytes / 1024);
}

}  // namespace

SubmissionBytes readSubmissionFile(const std::string& path, size_t max_bytes) {
  SubmissionBytes out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    struct stat target {};
    if (err == ELOOP && ::stat(path.c_str(), &target) == 0 && S_ISDIR(target.st_mode)) {
      out.refused =
          "the folder is a symbolic link: submissions are searched for in the folders given, never "
          "through a link (its files were not graded)";
    } else if (err == ELOOP) {
      out.refused =
          "the file is a symbolic link: a submission is read as a regular file of its own, never "
          "through a link";
    } else {
      out.refused = fmt::format("the file could not be read ({})", std::strerror(err));
    }
    return out;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    out.refused =
        "the file is not a regular file (a device, a pipe, a socket or a folder): a submission "
        "is a regular file";
  } else if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    out.refused = tooLarge(max_bytes);
  } else {
    // Read at most one byte more than allowed: a file that grew meanwhile is refused too.
    std::string text(max_bytes + 1, '\0');
    size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        out.refused = fmt::format("the file could not be read ({})", std::strerror(errno));
        break;
      }
      if (n == 0) break;
      got += static_cast<size_t>(n);
    }
    if (out.refused.empty()) {
      if (got > max_bytes) {
        out.refused = tooLarge(max_bytes);
      } else {
        text.resize(got);
        out.text = std::move(text);
      }
    }
  }
  ::close(fd);
  return out;
}

}  // namespace clh::grade
