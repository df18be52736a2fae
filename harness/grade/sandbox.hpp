// What a grading process gets from the grader: a short list of environment variables (those the
// OpenCL drivers read, nothing else), a scratch folder as its working and home directory, and the
// sandbox that shows it only those and its inputs (proc/sandbox.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "proc/sandbox.hpp"

namespace clh::grade {

/// The environment of a grading process, from the grader's `environ`: the variables OpenCL
/// drivers and the ICD loader read (OCL_ICD_*, OPENCL_*, POCL_*, OCLGRIND_*, CUDA_*, NVIDIA_*,
/// __GL_*, HSA_*, ROC*, GPU_*, AMD_*, ZE_*, NEO*, LD_LIBRARY_PATH) are passed on; PATH becomes
/// /usr/local/bin:/usr/bin:/bin, HOME, TMPDIR and XDG_CACHE_HOME the scratch folder, LC_ALL C.
/// CLHARNESS_ICD_DIR names the ICD folder the parent registered (OCL_ICD_VENDORS), so that the
/// child finds the same devices. Nothing else (no user variables, tokens or paths) goes through.
/// `defaults` ("NAME=VALUE") are added where the parent's environment does not set NAME: the
/// grader's own driver settings (gradingDriverDefaults), which a user's variable overrides.
/// `icd_folder`, when given, is the child's vendors folder as it is (OCL_ICD_VENDORS and the
/// tool's inherited-folder variable): one that lists only its device's driver, so that a grading
/// process loads that driver alone (each driver's libraries, LLVM among them, take 0.05 to 0.1 s
/// to load and start).
std::vector<std::string> childEnvironment(const char* const* parent_env, const std::string& scratch,
                                          const std::vector<std::string>& defaults = {},
                                          const std::string& icd_folder = {});

/// The driver settings of a grading process. Without a speed item: PoCL builds one work-group
/// function for all local sizes (POCL_WORK_GROUP_SPECIALIZATION=0) instead of compiling the
/// kernel again for every work-group size it launches with, one for each random size of a NULL
/// local size (mmul: 30 compiles, 8.5 of a submission's 10 s on PoCL). The launches stay the
/// same (PoCL picks the same local size; only the code it runs them with is not specialised to
/// it). With a speed item: nothing, so that the timed code is what PoCL makes of it by default.
std::vector<std::string> gradingDriverDefaults(bool times_speed);

/// How grading processes are isolated: `--sandbox required|auto|off` (docs/grading.md).
enum class SandboxMode { required, automatic, off };

/// What a batch's grading processes ran in, as every report names it: "namespaces" (the sandbox),
/// "limits only" (the machine refused the namespaces: environment, folder and limits alone) or
/// "off" (--sandbox off, for debugging and tests only).
struct SandboxState {
  bool on = false;
  std::string word = "off";
  std::string why;  ///< why the sandbox could not be made, when limits only
};

/// Decides a batch's sandbox once: `refused` (non-empty: a test's stand-in for a machine that
/// forbids namespaces) or proc's sandboxUnavailable() says whether the sandbox can be made.
/// Throws std::runtime_error (the caller's exit 3) for `required` where it cannot.
SandboxState decideSandbox(SandboxMode mode, const std::string& refused);

/// The sandbox of a grading process: its scratch folder writable; `inputs` (the submission, the
/// assignment's spec and reference solution, the simulator's plugin) read-only, with what the
/// environment `env` names for the drivers (the ICD folders and the libraries their files name,
/// OCL_ICD_FILENAMES, LD_LIBRARY_PATH); exec of PoCL's linker alone besides the tool.
SandboxSpec gradingSandbox(const std::string& scratch, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& env);

/// How a sandboxed child ended.
struct SandboxEnd {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;
  int signal = 0;
  std::string error;  ///< why it did not start
};

/// Runs `argv` through runChild (proc/child.hpp) with environment `env` and working directory
/// `cwd`; kills the group after `timeout_s` seconds (0: no limit), or as soon as `stop` (called
/// with the seconds since the start, every few milliseconds) says so: both end as timed_out. The
/// grader's own children go through runJob with the same options (grade/command.cpp).
SandboxEnd runSandboxed(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                        const std::string& cwd, double timeout_s,
                        const std::function<bool(double)>& stop = {});

}  // namespace clh::grade
