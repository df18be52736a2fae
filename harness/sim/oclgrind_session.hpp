// One process's use of Oclgrind with the clharness plugin: the environment that switches its checks
// on and loads the plugin, and draining the plugin's log into Findings case by case.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/finding.hpp"
#include "sim/check_fallback.hpp"
#include "sim/oclgrind_log.hpp"

namespace clh {

/// The file name the plugin target builds.
inline constexpr const char* kOclgrindPluginFileName = "libclharness_oclgrind_plugin.so";

/// Where the plugin may be, best first: the path this build produced (when the build had the
/// plugin), then next to the running executable, its oclgrind/ subfolder and ../lib/.
std::vector<std::string> oclgrindPluginCandidates();

/// The first of oclgrindPluginCandidates() that exists; empty when none does.
std::string findOclgrindPlugin();

/// Oclgrind with the plugin, for one process (and the child processes it starts after
/// applyToProcess()). Typical use, in main or a test main, before any OpenCL call:
///
///     clh::OclgrindSession session(clh::findOclgrindPlugin(), log_path);
///     session.applyToProcess();
///     ... per case: build, launch on Oclgrind, clFinish, then
///     std::vector<clh::Finding> found = session.drain(options);
class OclgrindSession {
 public:
  /// `plugin_path`: the plugin library; `log_path`: the log (a JSON object a line) the plugin
  /// appends to (created when missing; what it already holds is never reported). Throws
  /// std::runtime_error when the plugin does not exist or the log cannot be created: a broken
  /// environment.
  OclgrindSession(std::string plugin_path, std::string log_path, OclgrindParseOptions options = {});

  /// The variables Oclgrind and the plugin read: OCLGRIND_PLUGINS, CLHARNESS_OCLGRIND_LOG,
  /// OCLGRIND_DATA_RACES=1, OCLGRIND_UNINITIALIZED=1, OCLGRIND_CHECK_API=1 (a check this process
  /// was told to leave off, skippedChecks() or leaveOff(), gets 0), OCLGRIND_MAX_WGSIZE and
  /// OCLGRIND_UNIFORM_WRITES when set. For a child process's environment, or for applyToProcess().
  std::vector<std::pair<std::string, std::string>> environment() const;

  /// setenv()s environment() in this process. Oclgrind reads them when a cl_context is created on
  /// it; call this before the first OpenCL call and before other threads start (setenv is not
  /// thread-safe).
  void applyToProcess() const;

  /// The findings logged since the previous drain (or since construction), with the options given
  /// at construction. Only whole lines are read: a line being written stays for the next drain.
  std::vector<Finding> drain();
  /// The same with other options (the case's source file name, its device).
  std::vector<Finding> drain(const OclgrindParseOptions& options);
  /// The same stretch of log with its launches (kernel, sizes, whether each ended). Its `checks`
  /// are the latest seen by this session when the stretch itself reports none.
  OclgrindLog drainLog(const OclgrindParseOptions& options);

  /// Appends an OpenCL API error to the log as a plugin message would be, so that drain() reports
  /// it as an api_error. Oclgrind gives its API errors ("Oclgrind - OpenCL runtime error detected")
  /// to the context's notify callback, never to plugins: see contextNotify.
  void recordApiError(const std::string& text) const;

  /// A cl_context notify callback (the pfn_notify of clCreateContext, signature
  /// void(const char*, const void*, size_t, void*)) with user_data = this session. Use it for
  /// contexts on Oclgrind only. Oclgrind 21.10 hands the user data over as private_info (with
  /// cb = 0) instead of user_data; both are accepted.
  static void contextNotify(const char* errinfo, const void* private_info, size_t cb,
                            void* user_data);

  /// The checks left off in this process: kSkipChecksVariable of its environment at construction
  /// (a parent's rerun after Oclgrind crashed with them on, see check_fallback.hpp).
  const std::vector<OclgrindCheck>& skippedChecks() const { return skipped_; }
  void setSkippedChecks(std::vector<OclgrindCheck> checks) { skipped_ = std::move(checks); }

  /// Leaves a check off because no case of this process could show what it looks for; `why` says
  /// so, for the report (leftOff). Unlike skippedChecks(), nothing goes unlooked at. Before
  /// applyToProcess().
  void leaveOff(OclgrindCheck check, std::string why) {
    left_off_.emplace_back(check, std::move(why));
  }
  const std::vector<std::pair<OclgrindCheck, std::string>>& leftOff() const { return left_off_; }

  /// Raises Oclgrind's largest work-group (OCLGRIND_MAX_WGSIZE, default 1024) to `items`; 0
  /// leaves Oclgrind's default. Before applyToProcess().
  void setMaxWorkGroupSize(size_t items) { max_work_group_size_ = items; }

  /// Reports write-write races in which every work-item stores the same value
  /// (OCLGRIND_UNIFORM_WRITES=1); Oclgrind leaves them out by default. Before applyToProcess().
  void setUniformWrites(bool on) { uniform_writes_ = on; }

  /// Names the file the plugin reads watch requests from (sim/oclgrind_watch.hpp): environment()
  /// then sets kOclgrindWatchVariable. Before applyToProcess(); empty: no watching.
  void setWatchFile(std::string path) { watch_file_ = std::move(path); }
  const std::string& watchFile() const { return watch_file_; }

  const std::string& pluginPath() const { return plugin_path_; }
  const std::string& logPath() const { return log_path_; }

 private:
  std::string plugin_path_;
  std::string log_path_;
  OclgrindParseOptions options_;
  std::mutex mutex_;
  std::streamoff offset_ = 0;             ///< where the next drain starts reading
  std::optional<OclgrindChecks> checks_;  ///< the latest checks seen, for drains that see none
  std::vector<OclgrindCheck> skipped_;
  std::vector<std::pair<OclgrindCheck, std::string>> left_off_;  ///< with why, for the report
  size_t max_work_group_size_ = 0;
  bool uniform_writes_ = false;
  std::string watch_file_;
};

}  // namespace clh
