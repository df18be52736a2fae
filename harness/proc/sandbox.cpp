// The sandbox of a child: its plan made in the parent (the file system's mounts, the seccomp
// program, the Landlock executables) and its making between fork and exec, with raw system calls.
#include "proc/sandbox.hpp"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/mount.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace clh {

// One step of the new file system, every path already under /oldroot (the machine's) or /newroot.
struct MountStep {
  enum Kind { bind_ro, bind_rw, bind_dev, symlink, tmpfs, proc } kind;
  std::string src, dst;  // src: a bind's source, a link's target, a tmpfs's options
  bool dir = true;       // a bind of a folder (else of a file or a device node)
};

namespace {

// The system's part of every sandbox: libraries and programs, the loader's cache, the driver list
// and the release files PoCL's compiler reads (measured with strace on PoCL 3.1 and Oclgrind).
const char* const kSystemPaths[] = {"/usr",
                                    "/bin",
                                    "/sbin",
                                    "/lib",
                                    "/lib32",
                                    "/lib64",
                                    "/libx32",
                                    "/etc/ld.so.cache",
                                    "/etc/ld.so.conf",
                                    "/etc/ld.so.conf.d",
                                    "/etc/OpenCL",
                                    "/etc/alternatives",
                                    "/etc/debian_version",
                                    "/etc/os-release",
                                    "/etc/lsb-release",
                                    "/etc/redhat-release"};
// Device nodes everyone needs, and the prefixes of GPU nodes (NVIDIA, DRM, AMD's KFD).
const char* const kDevNodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
const char* const kGpuPrefixes[] = {"nvidia", "dri", "kfd"};

}  // namespace

class SandboxPlan {
 public:
  std::string uid_map, gid_map;
  std::vector<MountStep> steps;
  std::vector<std::string> executables;  // Landlock: the only files exec may run
  std::vector<sock_filter> filter;
  bool probe = false;  // stop before the exec (sandboxUnavailable)
};

void SandboxPlanDeleter::operator()(SandboxPlan* p) const {
  delete p;
}

namespace {

// Adds `path` as the machine has it: a link as a link, a file or folder bound; nothing when it is
// not there.
void addPath(SandboxPlan& plan, const std::string& path, MountStep::Kind kind) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  if (S_ISLNK(st.st_mode)) {
    char target[4096];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0) return;
    plan.steps.push_back({MountStep::symlink, std::string(target, static_cast<size_t>(n)),
                          "/newroot" + path, false});
    return;
  }
  plan.steps.push_back({kind, "/oldroot" + path, "/newroot" + path, S_ISDIR(st.st_mode)});
}

// /dev: a tmpfs of its own with the common nodes and every GPU node bound from the machine's.
void addDev(SandboxPlan& plan) {
  plan.steps.push_back({MountStep::tmpfs, "mode=0755,size=64k", "/newroot/dev", true});
  std::vector<std::string> nodes(std::begin(kDevNodes), std::end(kDevNodes));
  if (DIR* d = ::opendir("/dev")) {
    while (const dirent* e = ::readdir(d))
      for (const char* p : kGpuPrefixes)
        if (std::string(e->d_name).rfind(p, 0) == 0) nodes.push_back(e->d_name);
    ::closedir(d);
  }
  for (const auto& n : nodes) {
    struct stat st {};
    if (::stat(("/dev/" + n).c_str(), &st) != 0) continue;
    plan.steps.push_back(
        {MountStep::bind_dev, "/oldroot/dev/" + n, "/newroot/dev/" + n, S_ISDIR(st.st_mode)});
  }
  plan.steps.push_back({MountStep::tmpfs, "mode=1777,size=64m", "/newroot/dev/shm", true});
  plan.steps.push_back({MountStep::symlink, "/proc/self/fd", "/newroot/dev/fd", false});
  const char* const std_names[] = {"stdin", "stdout", "stderr"};
  for (int i = 0; i < 3; ++i)
    plan.steps.push_back({MountStep::symlink, "/proc/self/fd/" + std::to_string(i),
                          std::string("/newroot/dev/") + std_names[i], false});
}

// The ELF interpreter a program names (PT_INTERP), "" when none or not a 64-bit ELF file.
std::string elfInterpreter(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr eh{};
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
      eh.e_ident[EI_CLASS] != ELFCLASS64)
    return {};
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(eh.e_phoff + static_cast<uint64_t>(i) * eh.e_phentsize));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return {};
    if (ph.p_type != PT_INTERP || ph.p_filesz == 0 || ph.p_filesz > 4096) continue;
    std::string s(ph.p_filesz, '\0');
    in.seekg(static_cast<std::streamoff>(ph.p_offset));
    in.read(s.data(), static_cast<std::streamsize>(s.size()));
    return s.c_str();  // up to its NUL
  }
  return {};
}

// Refuses (EPERM) `call` when its argument `arg` satisfies `cmp` with `value` (libseccomp).
void refuse(scmp_filter_ctx ctx, int call, unsigned count = 0, scmp_arg_cmp cmp = {}) {
  const int rc = count ? seccomp_rule_add(ctx, SCMP_ACT_ERRNO(kSandboxRefusal), call, 1, cmp)
                       : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(kSandboxRefusal), call, 0);
  if (rc != 0 && rc != -EDOM)  // -EDOM: a call this architecture lacks
    throw std::runtime_error("seccomp_rule_add: " + std::string(strerror(-rc)));
}

// The seccomp program: what no OpenCL driver needs is refused with EPERM (never a kill: a driver
// that probes a call goes on). Sockets of every family but AF_UNIX; tracing and reading other
// processes; mounts and namespaces; keys, BPF, perf events, modules, kexec, reboot, swap; io_uring
// (whose operations seccomp cannot see); TIOCSTI. clone3 answers ENOSYS (its flags are behind a
// pointer), so that the C library falls back to clone, whose namespace flags are refused.
std::vector<sock_filter> seccompProgram() {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) throw std::runtime_error("seccomp_init failed");
  struct Free {
    scmp_filter_ctx c;
    ~Free() { seccomp_release(c); }
  } release{ctx};
  refuse(ctx, SCMP_SYS(socket), 1,
         scmp_arg_cmp{0, SCMP_CMP_NE, AF_UNIX, 0});  // argument 0: the family
  for (int call : {SCMP_SYS(ptrace),
                   SCMP_SYS(process_vm_readv),
                   SCMP_SYS(process_vm_writev),
                   SCMP_SYS(pidfd_getfd),
                   SCMP_SYS(kcmp),
                   SCMP_SYS(mount),
                   SCMP_SYS(umount2),
                   SCMP_SYS(pivot_root),
                   SCMP_SYS(chroot),
                   SCMP_SYS(move_mount),
                   SCMP_SYS(open_tree),
                   SCMP_SYS(fsopen),
                   SCMP_SYS(fsconfig),
                   SCMP_SYS(fsmount),
                   SCMP_SYS(fspick),
                   SCMP_SYS(mount_setattr),
                   SCMP_SYS(unshare),
                   SCMP_SYS(setns),
                   SCMP_SYS(keyctl),
                   SCMP_SYS(add_key),
                   SCMP_SYS(request_key),
                   SCMP_SYS(bpf),
                   SCMP_SYS(perf_event_open),
                   SCMP_SYS(kexec_load),
                   SCMP_SYS(kexec_file_load),
                   SCMP_SYS(init_module),
                   SCMP_SYS(finit_module),
                   SCMP_SYS(delete_module),
                   SCMP_SYS(reboot),
                   SCMP_SYS(swapon),
                   SCMP_SYS(swapoff),
                   SCMP_SYS(syslog),
                   SCMP_SYS(acct),
                   SCMP_SYS(quotactl),
                   SCMP_SYS(iopl),
                   SCMP_SYS(ioperm),
                   SCMP_SYS(userfaultfd),
                   SCMP_SYS(io_uring_setup),
                   SCMP_SYS(io_uring_enter),
                   SCMP_SYS(io_uring_register),
                   SCMP_SYS(open_by_handle_at),
                   SCMP_SYS(name_to_handle_at),
                   SCMP_SYS(lookup_dcookie),
                   SCMP_SYS(vhangup)})
    refuse(ctx, call);
  const unsigned long newNamespaces = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET |
                                      CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
  for (unsigned long flag = 1; flag; flag <<= 1)
    if (newNamespaces & flag)
      refuse(ctx, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
  if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) != 0)
    throw std::runtime_error("seccomp_rule_add: clone3");
  refuse(ctx, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
  // libseccomp 2.5 exports to a file descriptor only: a memory file, read back.
  const int fd = ::memfd_create("clharness-seccomp", MFD_CLOEXEC);
  if (fd < 0) throw std::runtime_error("memfd_create: " + std::string(strerror(errno)));
  const int rc = seccomp_export_bpf(ctx, fd);
  const off_t size = ::lseek(fd, 0, SEEK_END);
  std::vector<sock_filter> prog(size > 0 ? static_cast<size_t>(size) / sizeof(sock_filter) : 0);
  const bool read = size > 0 && ::pread(fd, prog.data(), static_cast<size_t>(size), 0) == size;
  ::close(fd);
  if (rc != 0 || !read) throw std::runtime_error("seccomp_export_bpf failed");
  return prog;
}

const std::vector<sock_filter>& cachedSeccompProgram() {
  static const std::vector<sock_filter> prog = seccompProgram();
  return prog;
}

}  // namespace

// ---- the child's side: async-signal-safe calls only, on what the plan holds
// ----------------------

namespace {

// Each returns 0, or an errno with `*step` naming what failed.
int fail(const char** step, const char* what) {
  const int e = errno ? errno : EINVAL;
  *step = what;
  return e;
}

int writeText(const char* path, const char* text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const size_t n = strlen(text);
  const int e = ::write(fd, text, n) == static_cast<ssize_t>(n) ? 0 : errno;
  ::close(fd);
  return e;
}

// The folders above `path`, then `path` itself: a folder, an empty file to bind a file on, or
// nothing (a link's place).
enum class Node { folder, file, none };
int makeNode(const char* path, Node node) {
  char buf[4096];
  const size_t n = strlen(path);
  if (n >= sizeof buf) return ENAMETOOLONG;
  memcpy(buf, path, n + 1);
  for (size_t i = 1; i < n; ++i) {
    if (buf[i] != '/') continue;
    buf[i] = '\0';
    if (::mkdir(buf, 0755) != 0 && errno != EEXIST) return errno;
    buf[i] = '/';
  }
  if (node == Node::none) return 0;
  if (node == Node::folder) return ::mkdir(buf, 0755) == 0 || errno == EEXIST ? 0 : errno;
  const int fd = ::open(buf, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return errno == EEXIST ? 0 : errno;
  ::close(fd);
  return 0;
}

// Sets mount attributes on `dst` and every mount under it (Linux 5.12); an older kernel: on `dst`
// alone, keeping the flags the mount has (those of a mount from outside are locked).
int setMountAttributes(const char* dst, uint64_t attrs) {
  mount_attr attr{};
  attr.attr_set = attrs;
  if (::syscall(SYS_mount_setattr, AT_FDCWD, dst, AT_RECURSIVE, &attr, sizeof attr) == 0) return 0;
  if (errno != ENOSYS) return errno;
  unsigned long flags = MS_BIND | MS_REMOUNT;
  if (attrs & MOUNT_ATTR_RDONLY) flags |= MS_RDONLY;
  if (attrs & MOUNT_ATTR_NOSUID) flags |= MS_NOSUID;
  if (attrs & MOUNT_ATTR_NODEV) flags |= MS_NODEV;
  struct statfs sf {};
  if (::statfs(dst, &sf) == 0) {
    if (sf.f_flags & ST_NOEXEC) flags |= MS_NOEXEC;
    if (sf.f_flags & ST_NODEV) flags |= MS_NODEV;
    if (sf.f_flags & ST_NOSUID) flags |= MS_NOSUID;
    if (sf.f_flags & ST_NOATIME) flags |= MS_NOATIME;
    if (sf.f_flags & ST_RELATIME) flags |= MS_RELATIME;
  }
  return ::mount(nullptr, dst, nullptr, flags, nullptr) == 0 ? 0 : errno;
}

int doStep(const MountStep& s, const char** step) {
  const char* dst = s.dst.c_str();
  const Node node = s.kind == MountStep::symlink ? Node::none : s.dir ? Node::folder : Node::file;
  if (const int e = makeNode(dst, node)) {
    *step = "mkdir";
    return e;
  }
  switch (s.kind) {
    case MountStep::symlink:
      if (::symlink(s.src.c_str(), dst) != 0 && errno != EEXIST) return fail(step, "symlink");
      return 0;
    case MountStep::tmpfs:
      if (::mount("tmpfs", dst, "tmpfs", MS_NOSUID | MS_NODEV, s.src.c_str()) != 0)
        return fail(step, "mount tmpfs");
      return 0;
    case MountStep::proc:
      if (::mount("proc", dst, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
        return fail(step, "mount proc");
      return 0;
    default:
      break;
  }
  if (::mount(s.src.c_str(), dst, nullptr, MS_BIND | MS_REC, nullptr) != 0)
    return fail(step, "bind mount");
  const uint64_t attrs = s.kind == MountStep::bind_ro   ? MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID
                         : s.kind == MountStep::bind_rw ? MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
                                                        : 0;
  if (attrs)
    if (const int e = setMountAttributes(dst, attrs)) {
      *step = "read-only remount";
      return e;
    }
  return 0;
}

// The new root: a tmpfs on /tmp becomes the root with the machine's under /oldroot, the plan's
// paths are bound under /newroot, which then becomes the root, read-only; the machine's is gone.
int makeFileSystem(const SandboxPlan& plan, const char** step) {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return fail(step, "make / private");
  if (::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0)
    return fail(step, "mount the new root");
  if (::chdir("/tmp") != 0 || ::mkdir("newroot", 0755) != 0 || ::mkdir("oldroot", 0755) != 0)
    return fail(step, "mkdir the new root");
  if (::mount("newroot", "newroot", nullptr, MS_BIND | MS_REC, nullptr) != 0)
    return fail(step, "bind the new root");
  if (::syscall(SYS_pivot_root, ".", "oldroot") != 0 || ::chdir("/") != 0)
    return fail(step, "pivot_root");
  for (const auto& s : plan.steps)
    if (const int e = doStep(s, step)) return e;
  if (::chdir("/newroot") != 0 || ::syscall(SYS_pivot_root, ".", ".") != 0)
    return fail(step, "pivot_root");
  if (::umount2(".", MNT_DETACH) != 0 || ::chdir("/") != 0)
    return fail(step, "umount the old root");
  if (::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
              nullptr) != 0)
    return fail(step, "read-only root");
  return 0;
}

// Exec is allowed only on the plan's files (Landlock). Its ABI 1 (Linux 5.13 to 5.18) refuses
// every rename into another folder, which PoCL's kernel cache does (EXDEV): the sandbox then has
// no exec limit, as on a kernel without Landlock; from ABI 2 such renames are allowed everywhere.
int limitExec(const SandboxPlan& plan, const char** step) {
  const long abi =
      ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 2) return 0;
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_REFER;
  const int rs = static_cast<int>(
      ::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr.handled_access_fs, 0));
  if (rs < 0) return fail(step, "landlock");
  auto allow = [rs](const char* path, uint64_t access) {
    const int fd = ::open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0L;  // not there: nothing to allow
    landlock_path_beneath_attr rule{};
    rule.allowed_access = access;
    rule.parent_fd = fd;
    const long r = ::syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    ::close(fd);
    return r;
  };
  long r = allow("/", LANDLOCK_ACCESS_FS_REFER);
  for (size_t i = 0; r == 0 && i < plan.executables.size(); ++i)
    r = allow(plan.executables[i].c_str(), LANDLOCK_ACCESS_FS_EXECUTE);
  if (r != 0) {
    ::close(rs);
    return fail(step, "landlock_add_rule");
  }
  r = ::syscall(SYS_landlock_restrict_self, rs, 0);
  ::close(rs);
  return r == 0 ? 0 : fail(step, "landlock_restrict_self");
}

// The second process: no new privileges, exec limited, the seccomp filter, then the program.
int runProgram(const SandboxPlan& plan, char* const* argv, char* const* envp, const char* cwd,
               const char** step) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (cwd && *cwd && ::chdir(cwd) != 0) return fail(step, "chdir");
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(step, "no_new_privs");
  if (const int e = limitExec(plan, step)) return e;
  sock_fprog prog{static_cast<unsigned short>(plan.filter.size()),
                  const_cast<sock_filter*>(plan.filter.data())};
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) return fail(step, "seccomp");
  if (plan.probe) ::_exit(0);
  if (envp)
    ::execve(argv[0], argv, envp);
  else
    ::execv(argv[0], argv);
  return fail(step, "exec");
}

// Ends this process as `status` says another ended: the same exit code, or the same signal.
[[noreturn]] void endAs(int status) {
  if (WIFEXITED(status)) ::_exit(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const rlimit none{0, 0};
    ::setrlimit(RLIMIT_CORE, &none);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::kill(::getpid(), sig);
    ::_exit(128 + sig);
  }
  ::_exit(127);
}

// The namespaces' first process (PID 1): makes the file system, starts the program as PID 2 and
// sends its wait status through `status_fd` when it ends (then every process left in the PID
// namespace dies with this one).
int runInit(const SandboxPlan& plan, char* const* argv, char* const* envp, const char* cwd,
            int err_fd, int status_fd, const char** step) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const int e = makeFileSystem(plan, step)) return e;
  const pid_t program = ::fork();
  if (program < 0) return fail(step, "fork");
  if (program == 0) {
    ::close(status_fd);
    return runProgram(plan, argv, envp, cwd, step);
  }
  ::close(err_fd);  // the parent's read of it ends when the program's exec closes the last one
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(-1, &status, 0);
    if (r == program) {
      [[maybe_unused]] ssize_t n = ::write(status_fd, &status, sizeof status);
      ::_exit(0);
    }
    if (r < 0 && errno != EINTR) ::_exit(127);
  }
}

}  // namespace

int execSandboxed(const SandboxPlan& plan, char* const* argv, char* const* envp, const char* cwd,
                  int err_fd, const char** step) {
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET) != 0)
    return fail(step, "unshare");
  if (const int e = writeText("/proc/self/setgroups", "deny"); e && e != ENOENT) {
    *step = "setgroups";
    return e;
  }
  if (const int e = writeText("/proc/self/uid_map", plan.uid_map.c_str())) {
    *step = "uid_map";
    return e;
  }
  if (const int e = writeText("/proc/self/gid_map", plan.gid_map.c_str())) {
    *step = "gid_map";
    return e;
  }
  int status[2];
  if (::pipe2(status, O_CLOEXEC) != 0) return fail(step, "pipe");
  const pid_t init = ::fork();
  if (init < 0) return fail(step, "fork");
  if (init == 0) {
    ::close(status[0]);
    return runInit(plan, argv, envp, cwd, err_fd, status[1], step);
  }
  // This process only passes the program's end on: as its own, for the runner that waits on it.
  ::close(status[1]);
  ::close(err_fd);
  int initStatus = 0;
  while (::waitpid(init, &initStatus, 0) < 0 && errno == EINTR) {
  }
  int programStatus = 0;
  if (::read(status[0], &programStatus, sizeof programStatus) == sizeof programStatus)
    endAs(programStatus);
  endAs(initStatus);
}

std::string sandboxUnavailable() {
  char exe[4096];
  const ssize_t len = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return std::string("readlink /proc/self/exe: ") + strerror(errno);
  exe[len] = '\0';
  SandboxPlanPtr plan = planSandbox({}, exe);
  plan->probe = true;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::string("pipe: ") + strerror(errno);
  const pid_t pid = ::fork();
  if (pid < 0) return std::string("fork: ") + strerror(errno);
  if (pid == 0) {
    ::close(fds[0]);
    char* const argv[] = {exe, nullptr};
    const char* step = "";
    const int e = execSandboxed(*plan, argv, nullptr, nullptr, fds[1], &step);
    char msg[256];
    const int n = snprintf(msg, sizeof msg, "%s: %s", step, strerror(e));
    [[maybe_unused]] ssize_t w = ::write(fds[1], msg, static_cast<size_t>(n));
    ::_exit(127);
  }
  ::close(fds[1]);
  char buf[256];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) < 0 && errno == EINTR) {
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (n > 0) return std::string(buf, static_cast<size_t>(n));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "the sandbox's test process failed";
  return {};
}

SandboxPlanPtr planSandbox(const SandboxSpec& spec, const std::string& program) {
  SandboxPlanPtr plan(new SandboxPlan);
  const uid_t uid = ::getuid();
  const gid_t gid = ::getgid();
  // Root outside is nobody inside: the exec drops every capability in the namespace.
  plan->uid_map = std::to_string(uid ? uid : 65534) + " " + std::to_string(uid) + " 1\n";
  plan->gid_map = std::to_string(gid ? gid : 65534) + " " + std::to_string(gid) + " 1\n";
  for (const char* p : kSystemPaths) addPath(*plan, p, MountStep::bind_ro);
  addPath(*plan, "/sys", MountStep::bind_ro);
  plan->steps.push_back({MountStep::proc, "", "/newroot/proc", true});
  addDev(*plan);
  // The caller's paths (where each appears, what is shown there), a folder before what is under
  // it.
  struct Own {
    std::string at, shown;
    MountStep::Kind kind;
  };
  std::vector<Own> own;
  for (const auto& p : spec.read_only) own.push_back({p, p, MountStep::bind_ro});
  for (const auto& p : spec.writable) own.push_back({p, p, MountStep::bind_rw});
  for (const auto& [shown, at] : spec.shown_as) own.push_back({at, shown, MountStep::bind_ro});
  own.push_back({program, program, MountStep::bind_ro});
  std::stable_sort(own.begin(), own.end(),
                   [](const Own& a, const Own& b) { return a.at.size() < b.at.size(); });
  for (const auto& o : own) {
    // Bound from where it really is (a link in its path would be read against the new root),
    // at the path the child is given.
    char real[PATH_MAX];
    struct stat st {};
    if (!::realpath(o.shown.c_str(), real) || ::stat(real, &st) != 0) continue;
    plan->steps.push_back(
        {o.kind, std::string("/oldroot") + real, "/newroot" + o.at, S_ISDIR(st.st_mode)});
  }
  std::vector<std::string> exec = spec.executables;
  exec.push_back(program);
  for (const auto& e : std::vector<std::string>(exec)) {
    const std::string interp = elfInterpreter(e);
    if (!interp.empty()) exec.push_back(interp);
  }
  plan->executables = exec;
  plan->filter = cachedSeccompProgram();
  return plan;
}

}  // namespace clh
