// The child's CPU-time limit kept to the second it names, whoever in the process catches SIGXCPU.
#pragma once

namespace clh {

/// When this process has a CPU-time limit (RLIMIT_CPU's soft limit), ends it by SIGXCPU as its CPU
/// time reaches it, whatever handles SIGXCPU by then. A compiler loaded in the process claims the
/// signal (LLVM's, as one on which to remove its temporary files) and returns from it; the kernel
/// sends the next only a CPU-second later, so a child limited to N seconds ran N + 1, and the later
/// stages of a scan, which share one budget (scan/command.cpp), lost that second each. A thread
/// sleeps on the process's CPU clock until then; nothing is started without a limit.
void holdToCpuLimit();

}  // namespace clh
