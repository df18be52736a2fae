// posix_spawn with a chosen environment and working directory, polled with a deadline.
#include "grade/sandbox.hpp"

#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

#include "cl/devices.hpp"
#include "sim/tool_failure.hpp"

namespace clh::grade {

std::vector<std::string> childEnvironment(const char* const* parent_env, const std::string& scratch,
                                          const std::vector<std::string>& defaults,
                                          const std::string& icd_folder) {
  static const char* const kPrefixes[] = {"OCL_ICD_", "OPENCL_", "POCL_", "OCLGRIND_", "CUDA_",
                                          "NVIDIA_",  "__GL_",   "HSA_",  "ROC",       "GPU_",
                                          "AMD_",     "ZE_",     "NEO"};
  std::vector<std::string> out;
  std::string icd;
  for (const char* const* e = parent_env; e && *e; ++e) {
    const std::string var = *e;
    const std::string name = var.substr(0, var.find('='));
    // The simulator's build switch is the tool's own setting (for measuring), not the grader's.
    bool keep = name == "LD_LIBRARY_PATH" || name == kSimulatorBuildVariable;
    for (const char* p : kPrefixes) keep = keep || name.rfind(p, 0) == 0;
    if (name == "OCL_ICD_VENDORS") {
      icd = var.substr(var.find('=') + 1);
      if (!icd_folder.empty()) continue;  // replaced below
    }
    if (keep) out.push_back(var);
  }
  for (const auto& d : defaults) {
    const std::string name = d.substr(0, d.find('=') + 1);
    if (std::none_of(out.begin(), out.end(),
                     [&](const std::string& v) { return v.rfind(name, 0) == 0; }))
      out.push_back(d);
  }
  out.push_back("PATH=/usr/local/bin:/usr/bin:/bin");
  out.push_back("HOME=" + scratch);
  out.push_back("TMPDIR=" + scratch);
  out.push_back("XDG_CACHE_HOME=" + scratch + "/.cache");
  out.push_back("LC_ALL=C");
  if (!icd_folder.empty()) {
    out.push_back("OCL_ICD_VENDORS=" + icd_folder);
    out.push_back(std::string(kIcdFolderVariable) + "=" + icd_folder);  // used as it is
  } else if (!icd.empty()) {
    out.push_back("CLHARNESS_ICD_DIR=" + icd);
  }
  return out;
}

std::vector<std::string> gradingDriverDefaults(bool times_speed) {
  if (times_speed) return {};
  return {"POCL_WORK_GROUP_SPECIALIZATION=0"};
}

SandboxEnd runSandboxed(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                        const std::string& cwd, double timeout_s,
                        const std::function<bool(double)>& stop) {
  SandboxEnd out;
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    out.error = std::string("cannot start ") + argv[0] + ": " + strerror(rc);
    return out;
  }
  out.started = true;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(timeout_s);
  auto pause = std::chrono::milliseconds(1);
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) {
      out.error = std::string("waitpid: ") + strerror(errno);
      return out;
    }
    const auto now = std::chrono::steady_clock::now();
    if ((timeout_s > 0 && now > deadline) ||
        (stop && stop(std::chrono::duration<double>(now - start).count()))) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      out.timed_out = true;
      return out;
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(20)) pause *= 2;
  }
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  kill(-pid, SIGKILL);  // anything the child left behind in its group
  return out;
}

}  // namespace clh::grade
