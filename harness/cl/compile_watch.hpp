// Tells a driver's crash in its compile step at a launch from a crash in the kernel's own code, by
// what the crashing thread was running: a process that dies while a launch of a new work-group size
// is pending, with no frame of its stack in code loaded since the first launch, died in the driver.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clh {

/// The event a child writes (one JSON line, {"event": ..., "local": [...]}) when it dies in the
/// driver's compile step of a launch.
inline constexpr const char* kLaunchCompileCrashEvent = "launch_compile_crash";

/// Installs, once per process, handlers of the signals a fault ends a process with (SIGSEGV,
/// SIGBUS, SIGABRT, SIGFPE, SIGILL). When one arrives while a launch noted by noteLaunch as new is
/// pending, and neither the faulting instruction nor any return address of the crashing thread
/// lies in code that was loaded after the process's first launch (a kernel's compiled code: PoCL
/// loads one object per work-group size it compiles), the handler writes the event line to `fd`.
/// The signal then takes its default action: the process dies from it as before.
///
/// Why a launch: PoCL compiles a kernel's work-group function when the kernel is first launched
/// with a work-group size, on a worker thread, not in clBuildProgram; its compiler aborting there
/// (PoCL 3.0 on handson_mmul_async) is the driver's failure, while a kernel's wild store on the
/// same thread after the compile is the kernel's. The code loaded for the launch is the line
/// between the two.
void watchLaunchCompiles(int fd);

/// Before a launch of `kernel` (any stable handle) with `local` (empty: NULL): the first such pair
/// of the process marks a launch that may compile, pending until endLaunches(). Does nothing when
/// watchLaunchCompiles was not called.
void noteLaunch(const void* kernel, const std::vector<size_t>& local);

/// After a case's launches have ended: no launch is pending.
void endLaunches();

/// The summary of the finding a child's death so leads to: the driver's, never the kernel's.
std::string launchCompileCrashSummary(const std::string& driver, const std::string& signal,
                                      const std::vector<size_t>& local);
/// Whether a finding's summary is one that launchCompileCrashSummary made.
bool isLaunchCompileCrash(const std::string& summary);

/// Only for tests: whether a fault now, on this thread, would be reported as the driver's
/// compile step (what the handler decides, without a signal).
bool wouldReportCompileCrashForTesting();

}  // namespace clh
