// A thread that ends the process by SIGXCPU at its CPU-time limit (proc/cpu_limit.hpp).
#include "proc/cpu_limit.hpp"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>

#include <thread>

namespace clh {

void holdToCpuLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_CPU, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  const timespec at{static_cast<time_t>(limit.rlim_cur), 0};
  std::thread([at] {
    // The process's CPU time since it began, as RLIMIT_CPU counts it.
    int e = 0;
    while ((e = ::clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME, &at, nullptr)) ==
           EINTR) {
    }
    if (e != 0) return;  // a clock this kernel cannot sleep on: the kernel's own SIGXCPU stands
    ::signal(SIGXCPU, SIG_DFL);
    sigset_t xcpu;
    sigemptyset(&xcpu);
    sigaddset(&xcpu, SIGXCPU);
    ::pthread_sigmask(SIG_UNBLOCK, &xcpu, nullptr);
    ::raise(SIGXCPU);
  }).detach();
}

}  // namespace clh
