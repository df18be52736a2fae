// Process helpers for the reliability tests: start the tool without a shell, list a process's
// descendants from /proc, and tell whether a process is gone (a zombie counts as gone).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace clh::test {

/// Starts `clharness ARGS...` with stdout and stderr into `log`; returns its pid.
inline pid_t startTool(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> all = {CLHARNESS_TOOL};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

/// The exit code of `pid` (waited for), or 128 + the signal that ended it.
inline int waitTool(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct ProcInfo {
  pid_t ppid = 0;
  char state = '?';
};

inline bool readProc(pid_t pid, ProcInfo& info) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return false;
  const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return false;
  std::istringstream rest(text.substr(close + 2));
  rest >> info.state >> info.ppid;
  return true;
}

inline std::string cmdline(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (auto& c : s)
    if (c == '\0') c = ' ';
  return s;
}

/// Every live descendant of `root` (children, their children, ...).
inline std::vector<pid_t> descendants(pid_t root) {
  std::map<pid_t, pid_t> parent;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    ProcInfo info;
    if (readProc(std::stoi(name), info) && info.state != 'Z') parent[std::stoi(name)] = info.ppid;
  }
  std::vector<pid_t> out;
  std::set<pid_t> mine = {root};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [pid, pp] : parent)
      if (mine.count(pp) && !mine.count(pid)) {
        mine.insert(pid);
        out.push_back(pid);
        grew = true;
      }
  }
  return out;
}

/// Gone: no such process, or a zombie nobody has reaped yet.
inline bool gone(pid_t pid) {
  ProcInfo info;
  return !readProc(pid, info) || info.state == 'Z';
}

/// Polls `ok` every 50 ms for up to `seconds`; true as soon as it holds.
inline bool waitFor(const std::function<bool()>& ok, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (ok()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return ok();
}

inline std::string readAll(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace clh::test
