// The rewrite run in its own process (sanitize/helper.hpp).
#include "sanitize/helper.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "sanitize/json.hpp"

extern char** environ;

namespace clh::sanitize {

namespace {

// clharness-rewrite beside the running executable, else where the build tree put it.
std::string helperPath() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = self.parent_path() / "clharness-rewrite";
    if (std::filesystem::exists(beside)) return beside.string();
  }
  return CLH_REWRITE_HELPER;
}

}  // namespace

Instrumented instrumentInHelper(const std::string& source_path, const std::string& file_name,
                                const std::string& kernel, const std::string& build_options) {
  Instrumented out;
  const std::string helper = helperPath();
  const std::filesystem::path json = std::filesystem::temp_directory_path() /
                                     ("clharness-rewrite-" + std::to_string(::getpid()) + ".json");
  std::vector<std::string> args = {helper, source_path,   file_name,
                                   kernel, build_options, json.string()};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int status = 0;
  if (::posix_spawn(&pid, helper.c_str(), nullptr, nullptr, argv.data(), environ) != 0 ||
      ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    out.error = "the sanitizer's rewriting helper " + helper + " did not run to its end";
    return out;
  }
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  std::error_code ignored;
  std::filesystem::remove(json, ignored);
  if (j.is_discarded()) {
    out.error = "the sanitizer's rewriting helper " + helper + " gave no answer";
    return out;
  }
  return j.get<Instrumented>();
}

}  // namespace clh::sanitize
