// Async-signal-safe cleanup: fixed tables filled before a signal can need them, read by a handler
// that only calls kill, unlink and rmdir.
#include "core/exit_cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace clh {

namespace {

constexpr int kMaxPaths = 72;
constexpr int kMaxGroups = 512;
constexpr size_t kPathLen = 4096;

// Paths in removal order (a folder after its files); a slot is published by `path_count`.
char g_paths[kMaxPaths][kPathLen];
std::atomic<int> g_path_count{0};
int g_dirs = 0;
std::atomic<pid_t> g_groups[kMaxGroups];
std::mutex g_mutex;  // writers only; the handler reads published slots

void removePaths() {
  const int n = g_path_count.load();
  for (int i = 0; i < n; ++i)
    if (unlink(g_paths[i]) != 0) rmdir(g_paths[i]);
}

void onSignal(int sig) {
  for (auto& g : g_groups) {
    const pid_t pgid = g.load();
    if (pgid > 0) kill(-pgid, SIGKILL);
  }
  removePaths();
  signal(sig, SIG_DFL);
  raise(sig);
}

void installOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old;
      // A signal the process was started ignoring (nohup, a shell's background job) stays so.
      if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      sigaction(sig, &sa, nullptr);
    }
  });
}

bool addPath(const std::string& p) {
  const int n = g_path_count.load();
  if (n >= kMaxPaths || p.size() >= kPathLen) return false;
  std::memcpy(g_paths[n], p.c_str(), p.size() + 1);
  g_path_count.store(n + 1);
  return true;
}

}  // namespace

void removeOnSignal(const std::vector<std::string>& files, const std::string& dir) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_dirs >= 8 || g_path_count.load() + static_cast<int>(files.size()) + 1 > kMaxPaths) return;
  ++g_dirs;
  for (const auto& f : files) addPath(f);
  addPath(dir);
  installOnce();
}

void removeRegisteredPaths() {
  removePaths();
}

void killOnSignal(pid_t pgid) {
  installOnce();
  for (auto& g : g_groups) {
    pid_t empty = 0;
    if (g.compare_exchange_strong(empty, pgid)) return;
  }
}

void forgetChildGroup(pid_t pgid) {
  for (auto& g : g_groups) {
    pid_t want = pgid;
    if (g.compare_exchange_strong(want, 0)) return;
  }
}

}  // namespace clh
