// The rewrite run in its own process, and its answers kept in a cache folder and in the process
// (sanitize/helper.hpp).
#include "sanitize/helper.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "core/sizes.hpp"
#include "core/version.hpp"
#include "sanitize/json.hpp"
#include "sanitize/runtime.hpp"

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

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The cache entry for one rewrite: named by the tool's revision and everything the rewrite reads.
std::filesystem::path cacheEntry(const std::string& folder, const std::string& source_path,
                                 const std::string& file_name, const std::string& kernel,
                                 const std::string& build_options) {
  uint64_t h = hash64(kClharnessRevision);
  h = hash64Append(h, runtimeSource(1, 1, true));
  for (const std::string* part : {&file_name, &kernel, &build_options}) {
    h = hash64Append(h, *part);
    h = hash64Append(h, std::string_view("\0", 1));
  }
  h = hash64Append(h, readFile(source_path));
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.json", static_cast<unsigned long long>(h));
  return std::filesystem::path(folder) / name;
}

Instrumented runHelper(const std::string& source_path, const std::string& file_name,
                       const std::string& kernel, const std::string& build_options,
                       const std::filesystem::path& keep);

// The answers this process was given: by the file's path and text, its name, the kernel and the
// build options.
using RewriteKey = std::tuple<std::string, std::string, std::string, std::string, std::string>;
std::mutex rewritesLock;
std::map<RewriteKey, Instrumented>& rewrites() {
  static std::map<RewriteKey, Instrumented> known;
  return known;
}

// The rewrite from the cache folder or the helper.
Instrumented instrumentAfresh(const std::string& source_path, const std::string& file_name,
                              const std::string& kernel, const std::string& build_options);

}  // namespace

void rememberInstrumented(const std::string& source_path, const std::string& file_name,
                          const std::string& kernel, const std::string& build_options,
                          const Instrumented& inst) {
  std::lock_guard<std::mutex> lock(rewritesLock);
  rewrites()[{source_path, readFile(source_path), file_name, kernel, build_options}] = inst;
}

Instrumented instrumentInHelper(const std::string& source_path, const std::string& file_name,
                                const std::string& kernel, const std::string& build_options) {
  {
    std::lock_guard<std::mutex> lock(rewritesLock);
    if (!rewrites().empty()) {
      const auto it =
          rewrites().find({source_path, readFile(source_path), file_name, kernel, build_options});
      if (it != rewrites().end()) return it->second;
    }
  }
  return instrumentAfresh(source_path, file_name, kernel, build_options);
}

namespace {

Instrumented instrumentAfresh(const std::string& source_path, const std::string& file_name,
                              const std::string& kernel, const std::string& build_options) {
  const char* folder = std::getenv(kRewriteCacheVariable);
  if (folder == nullptr || *folder == '\0')
    return runHelper(source_path, file_name, kernel, build_options, {});
  const auto entry = cacheEntry(folder, source_path, file_name, kernel, build_options);
  std::ifstream in(entry);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (in && !j.is_discarded()) return j.get<Instrumented>();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  return runHelper(source_path, file_name, kernel, build_options, entry);
}

// Runs clharness-rewrite; its answer is also copied to `keep` when that is named and the rewrite
// parsed the file (an error is not kept: the next run tries again).
Instrumented runHelper(const std::string& source_path, const std::string& file_name,
                       const std::string& kernel, const std::string& build_options,
                       const std::filesystem::path& keep) {
  static std::atomic<unsigned> calls{0};  // one file per call: threads of one process rewrite too
  Instrumented out;
  const std::string helper = helperPath();
  if (!std::filesystem::exists(helper)) {
    out.error = "the sanitizer's rewriting helper " + helper + " is not installed" +
                (keep.empty() ? std::string()
                              : " and the rewrite cache has no entry " + keep.string() +
                                    " (fill it with the same command on a host that has it)");
    return out;
  }
  const std::filesystem::path json =
      std::filesystem::temp_directory_path() /
      ("clharness-rewrite-" + std::to_string(::getpid()) + "-" + std::to_string(++calls) + ".json");
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
  out = j.get<Instrumented>();
  if (!keep.empty() && out.error.empty()) {
    const auto part = keep.string() + "." + std::to_string(::getpid());
    std::ofstream(part) << j.dump();
    std::filesystem::rename(part, keep, ignored);  // atomic: two runs at once both write whole
  }
  return out;
}

}  // namespace

}  // namespace clh::sanitize
