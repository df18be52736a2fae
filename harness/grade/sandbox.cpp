// The environment a grading process gets, and the sandbox as runChild's options (proc/child.hpp).
#include "grade/sandbox.hpp"

#include <algorithm>

#include "cl/devices.hpp"
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
    if (name == "OCL_ICD_VENDORS") {
      icd = var.substr(var.find('=') + 1);
      if (!icd_folder.empty()) continue;  // replaced below
    }
    if (keep) out.push_back(var);
  }
  for (const auto& d : defaults) {
    const std::string name = d.substr(0, d.find('=') + 1);
    if (std::none_of(out.begin(), out.end(),
                     [&](const std::string& v) { return v.rfind(name, 0) == 0; }))
      out.push_back(d);
  }
  out.push_back("PATH=/usr/local/bin:/usr/bin:/bin");
  out.push_back("HOME=" + scratch);
  out.push_back("TMPDIR=" + scratch);
  out.push_back("XDG_CACHE_HOME=" + scratch + "/.cache");
  out.push_back("LC_ALL=C");
  if (!icd_folder.empty()) {
    out.push_back("OCL_ICD_VENDORS=" + icd_folder);
    out.push_back(std::string(kIcdFolderVariable) + "=" + icd_folder);  // used as it is
  } else if (!icd.empty()) {
    out.push_back("CLHARNESS_ICD_DIR=" + icd);
  }
  return out;
}

std::vector<std::string> gradingDriverDefaults(bool times_speed) {
  if (times_speed) return {};
  return {"POCL_WORK_GROUP_SPECIALIZATION=0"};
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
