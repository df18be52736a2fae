// The sandbox a child can run in (ChildOptions::sandbox): its own user, mount, PID, IPC and network
// namespaces, a file system of named paths only, no new privileges, Landlock and seccomp.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clh {

/// What a sandboxed child sees of the machine besides the system's libraries. Paths are absolute;
/// each appears at its own path inside, a folder with what is under it.
///
/// Always there: /usr (with /bin, /sbin, /lib* as the machine has them), the loader's cache,
/// /etc/OpenCL and the release files a driver's compiler reads, /sys read-only, a /proc of its
/// own PID namespace, a /dev of its own (null, zero, full, random, urandom, tty, a private
/// /dev/shm, and every GPU node: nvidia*, nvidia-caps, dri, kfd) and the program itself.
/// Nothing else: no home, no /tmp, no /run, no other file of the machine.
struct SandboxSpec {
  std::vector<std::string> read_only;  ///< bound read-only (the job's inputs, the driver list)
  std::vector<std::string> writable;   ///< bound read-write (its scratch folder): nothing else is
  /// Files shown read-only at another path: {the file shown, the path it appears at}. A grading
  /// process that never runs the reference solution sees its own submission where the reference
  /// solution's file would be (its spec names that path), never the reference's text.
  std::vector<std::pair<std::string, std::string>> shown_as;
  /// The only files it may execute besides the program itself (Landlock), e.g. a driver's linker:
  /// PoCL 3.1 runs /usr/bin/ld for every work-group function it compiles, at kernel launches.
  std::vector<std::string> executables;
};

/// A sandbox made ready in the parent (every path, the seccomp program), used by the child between
/// fork and exec, where only async-signal-safe calls are allowed.
class SandboxPlan;
struct SandboxPlanDeleter {
  void operator()(SandboxPlan* p) const;
};
using SandboxPlanPtr = std::unique_ptr<SandboxPlan, SandboxPlanDeleter>;

/// Makes the plan of `spec` for the program `program`. Throws std::runtime_error when the
/// seccomp filter cannot be made (libseccomp).
SandboxPlanPtr planSandbox(const SandboxSpec& spec, const std::string& program);

/// The child's side, after fork: enters the namespaces, makes the file system, and runs `argv`
/// with `envp` (null: this process's) in `cwd` ("": none) as the namespaces' second process
/// under a small first one, which passes its end on as this process's own (an exit code, or
/// death by the same signal). Returns only when a step failed: its errno, and `*step` names it.
int execSandboxed(const SandboxPlan& plan, char* const* argv, char* const* envp, const char* cwd,
                  int err_fd, const char** step);

/// "" when this machine lets this process make the sandbox (a child tries every step short of
/// the exec), else why not ("unshare: Operation not permitted", ...).
std::string sandboxUnavailable();

/// The errno a sandboxed process gets from a call the seccomp filter refuses.
inline constexpr int kSandboxRefusal = 1;  // EPERM

}  // namespace clh
