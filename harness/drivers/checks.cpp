// The driver checks. Each check builds what it needs in one context of the device, runs, and ends
// in a CheckResult; no check passes a pointer that does not point at enough memory of its own.
#include "drivers/checks.hpp"

#include "core/enum_words.hpp"
#include "drivers/check_kit.hpp"

namespace clh::drivers {

using namespace kit;

namespace {

std::vector<Check>& registry() {
  static std::vector<Check> all = [] {
    std::vector<Check> v = readAndEventChecks();
    for (auto& c : bufferChecks()) v.push_back(std::move(c));
    return v;
  }();
  return all;
}

const std::vector<Check>& checks() {
  return registry();
}

}  // namespace

namespace {
constexpr EnumWord<Verdict> kCheckVerdictWords[] = {
    {Verdict::conforms, "conforms"},
    {Verdict::deviates, "deviates"},
    {Verdict::observed, "observed"},
    {Verdict::skipped, "skipped"},
};
}  // namespace

const char* toString(Verdict verdict) {
  return wordOf(kCheckVerdictWords, verdict, "?");
}

Verdict verdictFromString(const std::string& word) {
  if (const auto v = valueOf(kCheckVerdictWords, word)) return *v;
  throw std::invalid_argument("unknown verdict '" + word +
                              "' (expected: conforms, deviates, observed, skipped)");
}

namespace kit {
void registerDriverCheck(Check check) {
  for (auto& c : registry())
    if (c.info.id == check.info.id) {
      c = std::move(check);
      return;
    }
  registry().push_back(std::move(check));
}
}  // namespace kit

std::vector<CheckInfo> driverChecks() {
  std::vector<CheckInfo> v;
  for (const auto& c : checks()) v.push_back(c.info);
  return v;
}

std::vector<CheckResult> runDriverChecks(const clh::DeviceInfo& device,
                                         const DriverCheckOptions& options) {
  std::vector<CheckResult> results;
  std::string setup_error;
  std::optional<Env> env;
  try {
    DriverCheckOptions o = options;
    if (o.elements == 0) o.elements = 4096;
    if (o.long_items == 0) o.long_items = device.simulator ? 64 : 4096;
    // Long next to a read or a status poll: PoCL on two cores takes some 56 ms at 20000 (0.85
    // CPU-s less a run than at 100000, which a GPU keeps: its thousands of lanes end sooner).
    if (o.long_iterations == 0)
      o.long_iterations = device.simulator                      ? 2000
                          : device.kind == clh::DeviceKind::cpu ? 20000
                                                                : 100000;
    cl::Context context(device.device);
    cl::CommandQueue queue(context, device.device);
    cl::Program program(context, kSource);
    try {
      program.build({device.device});
    } catch (const cl::Error&) {
      throw std::runtime_error("the checks' kernels did not build: " +
                               program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device));
    }
    env.emplace(Env{device,
                    o,
                    context,
                    queue,
                    program,
                    cl::Kernel(program, "affine"),
                    cl::Kernel(program, "slow"),
                    {},
                    {}});
    env->input.resize(o.elements);
    env->expected.resize(o.elements);
    for (unsigned i = 0; i < o.elements; ++i) {
      env->input[i] = static_cast<int>((i * 7919u) % 1000u) - 500;
      env->expected[i] = 3 * env->input[i] + static_cast<int>(i);
    }
  } catch (const cl::Error& e) {
    setup_error = std::string("setup failed: ") + e.what() + " " + code(e.err());
  } catch (const std::exception& e) {
    setup_error = std::string("setup failed: ") + e.what();
  }
  for (const auto& c : checks()) {
    CheckResult r = start(c.info);
    if (!env) {
      skipped(r, setup_error);
    } else {
      try {
        c.run(*env, r);
      } catch (const cl::Error& e) {
        // An OpenCL call the check needed failed where the specification requires success.
        deviates(r, std::string(e.what()) + " returned " + code(e.err()), code(CL_SUCCESS),
                 "an OpenCL call that must succeed failed");
      } catch (const std::exception& e) {
        skipped(r, std::string("could not run: ") + e.what());
      }
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace clh::drivers
