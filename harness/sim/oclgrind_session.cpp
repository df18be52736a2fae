// OclgrindSession: the environment that loads the plugin, and reading its log by offsets.
#include "sim/oclgrind_session.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "sim/oclgrind_watch.hpp"

namespace clh {
namespace fs = std::filesystem;

std::vector<std::string> oclgrindPluginCandidates() {
  std::vector<std::string> out;
#ifdef CLHARNESS_OCLGRIND_PLUGIN_PATH
  out.emplace_back(CLHARNESS_OCLGRIND_PLUGIN_PATH);
#endif
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    const fs::path dir = exe.parent_path();
    out.push_back((dir / kOclgrindPluginFileName).string());
    out.push_back((dir / "oclgrind" / kOclgrindPluginFileName).string());
    out.push_back((dir / ".." / "lib" / kOclgrindPluginFileName).lexically_normal().string());
#ifdef CLHARNESS_OCLGRIND_PLUGIN_INSTALL_DIR
    // An installed tool (cmake --install): PREFIX/bin/clharness, PREFIX/LIBDIR/clharness/plugin.
    out.push_back((dir / ".." / CLHARNESS_OCLGRIND_PLUGIN_INSTALL_DIR / kOclgrindPluginFileName)
                      .lexically_normal()
                      .string());
#endif
  }
  return out;
}

std::string findOclgrindPlugin() {
  for (const std::string& candidate : oclgrindPluginCandidates()) {
    std::error_code error;
    if (fs::is_regular_file(candidate, error)) return candidate;
  }
  return {};
}

OclgrindSession::OclgrindSession(std::string plugin_path, std::string log_path,
                                 OclgrindParseOptions options)
    : plugin_path_(std::move(plugin_path)),
      log_path_(std::move(log_path)),
      options_(std::move(options)),
      skipped_(skippedChecksFromEnvironment()) {
  std::error_code error;
  if (plugin_path_.empty() || !fs::is_regular_file(plugin_path_, error)) {
    throw std::runtime_error("the clharness Oclgrind plugin was not found at '" + plugin_path_ +
                             "' (build the clharness_oclgrind_plugin target)");
  }
  // Create the log now, so that a bad path fails here rather than silently in the plugin.
  const int fd = ::open(log_path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw std::runtime_error("cannot create the Oclgrind log '" + log_path_ +
                             "': " + std::generic_category().message(errno));
  }
  ::close(fd);
  offset_ = static_cast<std::streamoff>(fs::file_size(log_path_, error));
  if (error) offset_ = 0;
}

std::vector<std::pair<std::string, std::string>> OclgrindSession::environment() const {
  auto on = [&](OclgrindCheck check) {
    for (OclgrindCheck c : skipped_)
      if (c == check) return "0";  // Oclgrind switches a check on for exactly "1"
    for (const auto& off : left_off_)
      if (off.first == check) return "0";
    return "1";
  };
  std::vector<std::pair<std::string, std::string>> env = {
      {"OCLGRIND_PLUGINS", plugin_path_},
      {"CLHARNESS_OCLGRIND_LOG", log_path_},
      {"OCLGRIND_DATA_RACES", on(OclgrindCheck::data_races)},
      {"OCLGRIND_UNINITIALIZED", on(OclgrindCheck::uninitialized)},
      {"OCLGRIND_CHECK_API", "1"}};
  if (max_work_group_size_ > 0)
    env.emplace_back("OCLGRIND_MAX_WGSIZE", std::to_string(max_work_group_size_));
  if (uniform_writes_) env.emplace_back("OCLGRIND_UNIFORM_WRITES", "1");
  if (!watch_file_.empty()) env.emplace_back(kOclgrindWatchVariable, watch_file_);
  return env;
}

void OclgrindSession::applyToProcess() const {
  for (const auto& [name, value] : environment()) {
    if (::setenv(name.c_str(), value.c_str(), 1) != 0) {
      throw std::runtime_error("setenv " + name + " failed");
    }
  }
}

std::vector<Finding> OclgrindSession::drain() {
  return drain(options_);
}

std::vector<Finding> OclgrindSession::drain(const OclgrindParseOptions& options) {
  return drainLog(options).allFindings();
}

OclgrindLog OclgrindSession::drainLog(const OclgrindParseOptions& options) {
  std::string chunk;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::ifstream in(log_path_, std::ios::binary);
    if (!in) return {};
    in.seekg(0, std::ios::end);
    const std::streamoff end = in.tellg();
    if (end < offset_) offset_ = 0;  // the file was truncated or replaced: read it afresh
    in.seekg(offset_);
    chunk.resize(static_cast<size_t>(end - offset_));
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.resize(static_cast<size_t>(in.gcount()));
    // Keep a line still being written for the next drain.
    const auto last_newline = chunk.rfind('\n');
    chunk.resize(last_newline == std::string::npos ? 0 : last_newline + 1);
    offset_ += static_cast<std::streamoff>(chunk.size());
  }
  std::istringstream lines(chunk);
  OclgrindLog log = parseOclgrindLogDetailed(lines, options);
  std::lock_guard<std::mutex> lock(mutex_);
  if (log.checks) {
    checks_ = log.checks;
  } else {
    log.checks = checks_;
  }
  return log;
}

void OclgrindSession::recordApiError(const std::string& text) const {
  nlohmann::ordered_json record = {{"v", 1},
                                   {"event", "message"},
                                   {"pid", static_cast<long>(::getpid())},
                                   {"context", nullptr},
                                   {"launch", nullptr},
                                   {"origin", "context_callback"},
                                   {"type", "error"},
                                   {"text", text}};
  const std::string line =
      record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const int fd = ::open(log_path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;  // called from a driver callback: nowhere to report, and no throwing
  const ssize_t written = ::write(fd, line.data(), line.size());
  (void)written;
  ::close(fd);
}

void OclgrindSession::contextNotify(const char* errinfo, const void* private_info, size_t cb,
                                    void* user_data) {
  // Oclgrind 21.10 calls pfn_notify(errinfo, user_data, 0, NULL): the user data arrives as
  // private_info. A conforming driver passes it last.
  const void* session = user_data != nullptr ? user_data : (cb == 0 ? private_info : nullptr);
  if (session == nullptr || errinfo == nullptr) return;
  static_cast<const OclgrindSession*>(session)->recordApiError(errinfo);
}

}  // namespace clh
