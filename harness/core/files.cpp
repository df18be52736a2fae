// A temporary file beside the target, written, flushed to the disk and checked, then a rename.
#include "core/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace clh {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw std::runtime_error("cannot " + what + " " + path + ": " + std::strerror(err));
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& content) {
  static std::atomic<unsigned> counter{0};
  fs::path target(path);
  std::error_code ec;
  if (fs::is_directory(target, ec))
    fail("write", path, EISDIR);  // before anything is written: a rename would say less
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) fail("create the folder of", path, ec.value());
  }
  std::string tmp = path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("write", path, errno);
  // Every byte written, then flushed to the disk: a full disk shows here (write, fsync or close),
  // and the temporary file goes, so that no file claims to be whole.
  int err = 0;
  for (size_t done = 0; done < content.size() && err == 0;) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      err = errno;
    else
      done += static_cast<size_t>(n);
  }
  if (err == 0 && ::fsync(fd) != 0 && errno != EINVAL) err = errno;  // EINVAL: /dev/null-like
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    fs::remove(tmp, ec);
    fail("write", path, err);
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    const int why = ec.value();
    fs::remove(tmp, ec);
    fail("replace", path, why);
  }
}

}  // namespace clh
