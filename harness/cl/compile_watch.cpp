// The compile-crash watch: the code mappings of the process at its first launch, the launches
// that may compile, and the fault handler that reads the crashing thread's stack against them.
#include "cl/compile_watch.hpp"

#include <execinfo.h>
#include <fmt/format.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace clh {

namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
constexpr size_t kMaxRanges = 4096;  // code mappings kept; a process with more is not judged
constexpr int kMaxFrames = 128;
constexpr std::string_view kSummaryStart = "the driver's compile step crashed at a launch: ";

struct Range {
  uintptr_t begin, end;
};

// Written before `ready` is set, read-only after: the handler reads them without a lock.
std::array<Range, kMaxRanges> g_base;
size_t g_base_count = 0;
std::atomic<bool> g_ready{false};    // the base mappings were taken
std::atomic<bool> g_pending{false};  // a launch that may compile has not ended
int g_fd = -1;
char g_line[160];  // the event line of the pending launch, made before the launch
size_t g_line_len = 0;

std::mutex g_mutex;  // the launches seen (noteLaunch runs on the caller's threads)
std::set<std::pair<const void*, std::vector<size_t>>>& launchesSeen() {
  static std::set<std::pair<const void*, std::vector<size_t>>> seen;
  return seen;
}

// Every executable mapping of the process now, sorted: the driver, its compiler and the harness.
void takeBaseMappings() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  size_t n = 0;
  bool all = true;
  while (std::getline(maps, line)) {
    const size_t dash = line.find('-'), space = line.find(' ');
    if (dash == std::string::npos || space == std::string::npos || space + 3 >= line.size())
      continue;
    if (line[space + 3] != 'x') continue;  // "r-xp": the permissions' third letter
    if (n == kMaxRanges) {
      all = false;
      break;
    }
    g_base[n++] = {std::stoull(line.substr(0, dash), nullptr, 16),
                   std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16)};
  }
  std::sort(g_base.begin(), g_base.begin() + n,
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  g_base_count = n;
  g_ready = all && n > 0;  // not all mappings known: nothing is judged the driver's
}

bool inBase(uintptr_t address) {
  const Range* begin = g_base.data();
  const Range* r = std::upper_bound(begin, begin + g_base_count, address,
                                    [](uintptr_t a, const Range& x) { return a < x.begin; });
  return r != begin && address < (r - 1)->end;
}

uintptr_t faultingInstruction(void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

// True when the given instruction (0: none) and every return address of this thread lie in the
// base mappings: no code loaded since the first launch (a kernel's) is running.
bool onlyBaseCodeRunning(uintptr_t instruction) {
  if (!g_ready.load()) return false;
  if (instruction != 0 && !inBase(instruction)) return false;
  void* frames[kMaxFrames];
  const int n = backtrace(frames, kMaxFrames);
  for (int i = 0; i < n; ++i)
    if (!inBase(reinterpret_cast<uintptr_t>(frames[i]))) return false;
  return true;
}

void onFault(int sig, siginfo_t* info, void* context) {
  const int saved = errno;
  if (g_pending.load() && g_fd >= 0 && onlyBaseCodeRunning(faultingInstruction(context))) {
    ssize_t written = ::write(g_fd, g_line, g_line_len);
    (void)written;  // nothing to do about a failed write in a dying process
  }
  errno = saved;
  // SA_RESETHAND put the default action back: a fault happens again when the instruction runs
  // again, a signal sent by raise() or kill() (abort's) is sent once more, pending until return.
  if (info == nullptr || info->si_code <= 0) raise(sig);
}

}  // namespace

void watchLaunchCompiles(int fd) {
  static std::once_flag once;
  std::call_once(once, [] {
    void* warm[4];
    backtrace(warm, 4);  // its first call loads the unwinder: not in a signal handler
    struct sigaction sa {};
    sa.sa_sigaction = onFault;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
    for (int sig : kFaultSignals) ::sigaction(sig, &sa, nullptr);
  });
  g_fd = fd;
}

void noteLaunch(const void* kernel, const std::vector<size_t>& local) {
  if (g_fd < 0) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_ready.load() && g_base_count == 0) takeBaseMappings();
  if (!launchesSeen().emplace(kernel, local).second) return;
  const std::string line = fmt::format("{{\"event\":\"{}\",\"local\":[{}]}}\n",
                                       kLaunchCompileCrashEvent, fmt::join(local, ","));
  g_pending = false;
  g_line_len = std::min(line.size(), sizeof g_line);
  std::memcpy(g_line, line.data(), g_line_len);
  g_pending = true;
}

void endLaunches() {
  g_pending = false;
}

std::string launchCompileCrashSummary(const std::string& driver, const std::string& signal,
                                      const std::vector<size_t>& local) {
  return fmt::format(
      "{}{} died ({}) compiling the kernel for its first launch with local size {}, before any "
      "code of the kernel's had been loaded: the driver's failure, not the kernel's",
      kSummaryStart, driver, signal,
      local.empty() ? "NULL" : fmt::format("{}", fmt::join(local, "x")));
}

bool isLaunchCompileCrash(const std::string& summary) {
  return summary.rfind(kSummaryStart, 0) == 0;
}

bool wouldReportCompileCrashForTesting() {
  return g_pending.load() && onlyBaseCodeRunning(0);
}

}  // namespace clh
