// The environment a grading process gets, and the sandbox as runChild's options (proc/child.hpp).
#include "grade/sandbox.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "cl/devices.hpp"
#include "cl/driver_alone.hpp"
#include "cl/unit_environment.hpp"
#include "proc/child.hpp"
#include "sim/tool_failure.hpp"

namespace clh::grade {

std::vector<std::string> childEnvironment(const char* const* parent_env, const std::string& scratch,
                                          const std::vector<std::string>& defaults,
                                          const std::string& icd_folder) {
  static const char* const kPrefixes[] = {"OCL_ICD_", "OPENCL_", "POCL_", "OCLGRIND_", "CUDA_",
                                          "NVIDIA_",  "__GL_",   "HSA_",  "ROC",       "GPU_",
                                          "AMD_",     "ZE_",     "NEO"};
  std::vector<std::string> out;
  std::string icd;
  for (const char* const* e = parent_env; e && *e; ++e) {
    const std::string var = *e;
    const std::string name = var.substr(0, var.find('='));
    // The simulator's build switch is the tool's own setting (for measuring), not the grader's.
    bool keep = name == "LD_LIBRARY_PATH" || name == kSimulatorBuildVariable;
    for (const char* p : kPrefixes) keep = keep || name.rfind(p, 0) == 0;
    // PoCL's kernel cache is the process's own, under its XDG_CACHE_HOME below: a folder of the
    // machine's is outside the sandbox (PoCL then finds no device, and every submission was the
    // tool's error) and would be one that every submission writes to.
    keep = keep && name != "POCL_CACHE_DIR";
    if (name == "OCL_ICD_VENDORS") icd = var.substr(var.find('=') + 1);
    if (keep) out.push_back(var);
  }
  addDefaults(out, defaults);
  out.push_back("PATH=/usr/local/bin:/usr/bin:/bin");
  out.push_back("HOME=" + scratch);
  out.push_back("TMPDIR=" + scratch);
  out.push_back("XDG_CACHE_HOME=" + scratch + "/.cache");
  out.push_back("LC_ALL=C");
  if (!icd_folder.empty()) return withIcdFolder(std::move(out), icd_folder);  // used as it is
  if (!icd.empty()) out.push_back("CLHARNESS_ICD_DIR=" + icd);
  return out;
}

std::vector<std::string> gradingDriverDefaults(bool times_speed) {
  if (times_speed) return {};
  return {"POCL_WORK_GROUP_SPECIALIZATION=0"};
}

SandboxState decideSandbox(SandboxMode mode, const std::string& refused) {
  SandboxState s;
  if (mode == SandboxMode::off) return s;
  s.why = refused.empty() ? sandboxUnavailable() : refused;
  if (s.why.empty()) {
    s.on = true;
    s.word = "namespaces";
    return s;
  }
  if (mode == SandboxMode::required)
    throw std::runtime_error(
        "--sandbox required: this machine does not let clharness make the grading sandbox (" +
        s.why +
        "); nothing was graded. The sandbox needs unprivileged user namespaces (docs/grading.md, "
        "\"The sandbox\"); --sandbox auto grades with limits only");
  s.word = "limits only";
  return s;
}

namespace {

// The programs a driver runs, measured: PoCL 3.1 runs the linker for each work-group function.
const char* const kDriverPrograms[] = {"/usr/bin/ld"};

// The folders and files the environment names for the ICD loader and the drivers.
void addDriverPaths(std::vector<std::string>& out, const std::vector<std::string>& env) {
  namespace fs = std::filesystem;
  auto list = [&](const std::string& value, bool icd_folders) {
    for (size_t at = 0; at <= value.size();) {
      size_t end = value.find(':', at);
      if (end == std::string::npos) end = value.size();
      const std::string path = value.substr(at, end - at);
      at = end + 1;
      if (path.empty() || path[0] != '/') continue;
      out.push_back(path);
      std::error_code ec;
      if (!icd_folders || !fs::is_directory(path, ec)) continue;
      for (const auto& f : fs::directory_iterator(path, ec)) {  // each .icd names a library
        std::ifstream in(f.path());
        std::string lib;
        if (std::getline(in, lib) && !lib.empty() && lib[0] == '/' && lib.rfind("/usr/", 0) != 0)
          out.push_back(lib);
      }
    }
  };
  for (const auto& var : env) {
    const size_t eq = var.find('=');
    const std::string name = var.substr(0, eq), value = var.substr(eq + 1);
    if (name == "OCL_ICD_VENDORS" || name == "CLHARNESS_ICD_DIR" || name == kIcdFolderVariable)
      list(value, true);
    else if (name == "OCL_ICD_FILENAMES" || name == "LD_LIBRARY_PATH")
      list(value, false);
  }
}

}  // namespace

SandboxSpec gradingSandbox(const std::string& scratch, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& env) {
  SandboxSpec s;
  s.writable = {scratch};
  for (const auto& i : inputs)
    if (!i.empty()) s.read_only.push_back(i);
  addDriverPaths(s.read_only, env);
  s.executables.assign(std::begin(kDriverPrograms), std::end(kDriverPrograms));
  return s;
}

SandboxEnd runSandboxed(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                        const std::string& cwd, double timeout_s,
                        const std::function<bool(double)>& stop) {
  ChildOptions o;
  o.timeout_s = timeout_s;
  o.env = env;
  o.cwd = cwd;
  o.stop = stop;
  const ChildOutcome c = runChild(argv, o);
  return {c.started, c.timed_out, c.exit_code, c.signal, c.error};
}

}  // namespace clh::grade
