// Files for the end-to-end tests: a scratch folder of a test's own, and a file read whole.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace clh::test {

/// A file's bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// An empty folder under the test temp folder, named NAME-PID (so two runs never share it),
/// removed with its contents when the test ends.
struct Scratch {
  std::filesystem::path dir;
  explicit Scratch(const std::string& name) {
    dir = std::filesystem::path(::testing::TempDir()) / (name + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

}  // namespace clh::test
