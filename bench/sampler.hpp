// A main-thread CPU sampler for bench_overhead (CLH_BENCH_PROFILE=FILE): where the main thread
// spins.
#pragma once

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace clh::bench {

// Every 1 ms of the main thread's CPU time (its own CPU clock, so waiting costs no samples) a
// SIGPROF on that thread records its stack; dump() writes the stacks by count, each frame as its
// object, offset in it and nearest dynamic symbol (an offset maps to a static function with the
// object's own symbol table, e.g. `addr2line -f -e OBJECT OFFSET`).
class Sampler {
 public:
  static void start() {
    void* warm[4];
    backtrace(warm, 4);  // loads the unwinder outside the handler
    struct sigaction sa {};
    sa.sa_handler = &Sampler::onSignal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGPROF, &sa, nullptr);
    sigevent ev{};
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGPROF;
    ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
    timer_t timer;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &timer) != 0) return;
    itimerspec every{{0, 1000000}, {0, 1000000}};
    timer_settime(timer, 0, &every, nullptr);
  }
  // The stacks by count (most first) and each frame's inclusive count.
  static void dump(const char* path) {
    signal(SIGPROF, SIG_IGN);
    const int n = std::min(count_.load(), kMax);
    std::map<std::vector<void*>, int> stacks;
    std::map<void*, int> inclusive;
    for (int i = 0; i < n; ++i) {
      std::vector<void*> s(frames_[i], frames_[i] + depth_[i]);
      ++stacks[s];
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
      for (void* f : s) ++inclusive[f];
    }
    FILE* out = std::fopen(path, "w");
    if (!out) return;
    std::fprintf(out, "%d samples of 1 ms of main-thread CPU (%d dropped)\n\n", n,
                 std::max(0, count_.load() - kMax));
    std::vector<std::pair<int, void*>> flat;
    for (const auto& [f, c] : inclusive) flat.emplace_back(c, f);
    std::sort(flat.rbegin(), flat.rend());
    std::fprintf(out, "frames by inclusive samples:\n");
    for (size_t i = 0; i < flat.size() && i < 60; ++i)
      std::fprintf(out, "%6d  %s\n", flat[i].first, name(flat[i].second).c_str());
    std::vector<std::pair<int, const std::vector<void*>*>> top;
    for (const auto& [s, c] : stacks) top.emplace_back(c, &s);
    std::sort(top.begin(), top.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < top.size() && i < 25; ++i) {
      std::fprintf(out, "\n%d samples:\n", top[i].first);
      for (void* f : *top[i].second) std::fprintf(out, "    %s\n", name(f).c_str());
    }
    std::fclose(out);
  }

 private:
  static constexpr int kMax = 60000, kDepth = 20;
  static void onSignal(int) {
    const int i = count_.fetch_add(1, std::memory_order_relaxed);
    if (i < kMax) depth_[i] = backtrace(frames_[i], kDepth);
  }
  static std::string name(void* f) {
    Dl_info info{};
    char s[512];
    if (!dladdr(f, &info) || !info.dli_fname) {
      std::snprintf(s, sizeof s, "%p", f);
      return s;
    }
    const char* obj = std::strrchr(info.dli_fname, '/');
    std::snprintf(s, sizeof s, "%s+0x%zx %s", obj ? obj + 1 : info.dli_fname,
                  static_cast<size_t>(static_cast<char*>(f) - static_cast<char*>(info.dli_fbase)),
                  info.dli_sname ? info.dli_sname : "?");
    return s;
  }
  static inline void* frames_[kMax][kDepth];
  static inline int depth_[kMax];
  static inline std::atomic<int> count_{0};
};

}  // namespace clh::bench
