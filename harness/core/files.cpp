// A temporary file beside the target, then a rename.
#include "core/files.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace clh {

void writeFileAtomically(const std::string& path, const std::string& content) {
  static std::atomic<unsigned> counter{0};
  fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path());
  std::string tmp = path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << content;
    f.flush();
    if (!f) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error("cannot write " + tmp);
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }
}

}  // namespace clh
