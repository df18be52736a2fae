// The rules of clEnqueueNDRangeKernel, applied without calling OpenCL. Each rule cites the
// specification's wording in its reason so a report reads as the rule it enforces.
#include "launch/rules.hpp"

#include <algorithm>
#include <limits>
#include <regex>
#include <sstream>

#include "cl/opencl.hpp"
#include "core/enum_words.hpp"

namespace clh::launch {

namespace {

std::string list(const std::vector<size_t>& v, size_t n) {
  std::string s = "{";
  for (size_t i = 0; i < n && i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

bool atLeast(const DeviceLimits& d, int major, int minor) {
  return d.opencl_major > major || (d.opencl_major == major && d.opencl_minor >= minor);
}

std::string codeName(int code) {
  if (code == kAnyError) return "any error";
  return std::string(clErrorName(code)) + " (" + std::to_string(code) + ")";
}

}  // namespace

namespace {
constexpr EnumWord<Stage> kStageWords[] = {
    {Stage::set_args, "set_args"},
    {Stage::enqueue, "enqueue"},
    {Stage::completion, "completion"},
};
}  // namespace

const char* toString(Stage stage) {
  return wordOf(kStageWords, stage, "?");
}

std::optional<Stage> stageFromString(std::string_view word) {
  return valueOf(kStageWords, word);
}

std::string Outcome::toString() const {
  return std::string(launch::toString(stage)) + ": " + codeName(code);
}

std::string LaunchConfig::toString() const {
  std::ostringstream s;
  size_t n = std::max<size_t>(work_dim, 1);
  s << work_dim << "D global " << (global.empty() ? "NULL" : list(global, n));
  s << " local " << (local ? list(*local, n) : "NULL");
  if (offset) s << " offset " << list(*offset, n);
  if (dynamic_local_bytes) s << " dynamic-local " << dynamic_local_bytes << "B";
  return s.str();
}

ProgramOptions parseBuildOptions(const std::string& options) {
  ProgramOptions p;
  static const std::regex std_re(R"((^|\s)-cl-std=CL(\d+)\.(\d+)(?=\s|$))");
  for (auto it = std::sregex_iterator(options.begin(), options.end(), std_re);
       it != std::sregex_iterator(); ++it) {
    p.cl_std_major = std::stoi((*it)[2]);
    p.cl_std_minor = std::stoi((*it)[3]);
  }
  static const std::regex uni_re(R"((^|\s)-cl-uniform-work-group-size(?=\s|$))");
  p.uniform_work_group_size = std::regex_search(options, uni_re);
  return p;
}

bool nonUniformAllowed(const DeviceLimits& device, const ProgramOptions& program) {
  return atLeast(device, 2, 0) && device.non_uniform_work_groups && program.cl_std_major >= 2 &&
         !program.uniform_work_group_size;
}

bool Prediction::accepts(const Outcome& got) const {
  for (const auto& a : allowed) {
    if (a.stage != got.stage) continue;
    if (a.code == got.code || (a.code == kAnyError && got.code < 0)) return true;
  }
  return false;
}

bool Prediction::acceptsRun(const Outcome& got, size_t not_run) const {
  return accepts(got) && not_run == 0;
}

std::string Prediction::allowedToString() const {
  std::string s;
  for (const auto& a : allowed) s += (s.empty() ? "" : " | ") + a.toString();
  return s;
}

namespace {

Outcome enq(int code) {
  return Outcome{Stage::enqueue, code};
}

// One launch checked against the rules, a method per group of rules; each broken rule is added
// to the prediction with the outcomes it allows.
class Predictor {
 public:
  Predictor(const DeviceLimits& device, const KernelLimits& kernel, const ProgramOptions& program,
            const LaunchConfig& launch)
      : device_(device),
        kernel_(kernel),
        program_(program),
        launch_(launch),
        ver_("OpenCL " + std::to_string(device.opencl_major) + "." +
             std::to_string(device.opencl_minor)),
        n_(launch.work_dim),
        size_max_(device.address_bits >= 64 ? std::numeric_limits<uint64_t>::max()
                                            : (uint64_t{1} << device.address_bits) - 1),
        null_global_(launch.global.empty()) {}

  Prediction predict() {
    const size_t dims = device_.max_work_item_sizes.size();
    if (n_ < 1 || n_ > dims) {
      // The per-dimension rules read work_dim values; with an invalid work_dim they have no
      // meaning.
      rule("work_dim.range",
           "work_dim must be between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (" +
               std::to_string(dims) + "); it is " + std::to_string(n_),
           {enq(CL_INVALID_WORK_DIMENSION)});
    } else {
      globalRules();
      if (launch_.offset) offsetRules();
      if (launch_.local)
        localRules(*launch_.local);
      else if (kernel_.hasRequiredSize())
        nullLocalRules();
      localMemoryRule();
    }
    allowedOutcomes();
    return std::move(p_);
  }

 private:
  void rule(std::string id, std::string reason, std::vector<Outcome> allows) {
    p_.rules.push_back({std::move(id), std::move(reason), std::move(allows)});
  }

  bool uniform() const { return !nonUniformAllowed(device_, program_); }

  // global_work_size
  void globalRules() {
    bool zero_global = null_global_;
    for (unsigned i = 0; !null_global_ && i < n_; ++i) zero_global |= launch_.global[i] == 0;
    if (zero_global) {
      if (!atLeast(device_, 2, 1))
        rule("global.zero",
             "global_work_size is NULL or has a 0 (" +
                 (null_global_ ? std::string("NULL") : list(launch_.global, n_)) +
                 "): CL_INVALID_GLOBAL_WORK_SIZE before OpenCL 2.1 (" + ver_ + ")",
             {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
      else {
        // From 2.1 such a launch "trivially succeeds"; the specification does not say whether the
        // other rules are checked first, so their codes stay acceptable too.
        p_.zero_size_success = true;
        p_.notes.push_back("a NULL or zero global size trivially succeeds from OpenCL 2.1 on (" +
                           ver_ + ")");
      }
    }
    for (unsigned i = 0; !null_global_ && i < n_; ++i)
      if (uint64_t(launch_.global[i]) > size_max_) {
        rule("global.over_size_t",
             "global_work_size[" + std::to_string(i) + "] exceeds the device's size_t (" +
                 std::to_string(device_.address_bits) + " address bits)",
             {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
        break;
      }
  }

  // global_work_offset
  void offsetRules() {
    if (!atLeast(device_, 1, 1))
      rule("offset.before_1_1", "global_work_offset must be NULL before OpenCL 1.1 (" + ver_ + ")",
           {enq(CL_INVALID_GLOBAL_OFFSET)});
    for (unsigned i = 0; !null_global_ && i < n_; ++i) {
      uint64_t g = launch_.global[i], o = (*launch_.offset)[i];
      if (g <= size_max_ && o > size_max_ - g) {
        rule("offset.overflow",
             "global_work_size + global_work_offset in dimension " + std::to_string(i) + " (" +
                 std::to_string(g) + " + " + std::to_string(o) +
                 ") is greater than the largest value of the device's size_t",
             {enq(CL_INVALID_GLOBAL_OFFSET)});
        break;
      }
    }
  }

  // local_work_size given
  void localRules(const std::vector<size_t>& local) {
    bool zero = false;
    for (unsigned i = 0; i < n_; ++i) zero |= local[i] == 0;
    if (zero)
      // The specification names no code for a 0 in local_work_size (a work-group of no
      // work-items): the two codes it uses for bad local sizes are accepted, and so is running
      // as though local_work_size were NULL. Crashing is not.
      rule("local.zero",
           "local_work_size " + list(local, n_) +
               " has a 0: the specification names no code; a local-size error or running as "
               "with a NULL local size",
           {enq(CL_INVALID_WORK_GROUP_SIZE),
            enq(CL_INVALID_WORK_ITEM_SIZE),
            {Stage::completion, CL_SUCCESS}});
    for (unsigned i = 0; i < n_; ++i)
      if (local[i] > device_.max_work_item_sizes[i]) {
        rule("local.over_item_size",
             "local_work_size[" + std::to_string(i) + "] = " + std::to_string(local[i]) +
                 " is greater than CL_DEVICE_MAX_WORK_ITEM_SIZES[" + std::to_string(i) +
                 "] = " + std::to_string(device_.max_work_item_sizes[i]),
             {enq(CL_INVALID_WORK_ITEM_SIZE)});
        break;
      }
    if (!zero) groupSizeRules(local);
    if (kernel_.hasRequiredSize()) requiredSizeRule(local);
    if (!zero && !null_global_) divisionRule(local);
  }

  // The work-group's size against the device's and the kernel's maximum.
  void groupSizeRules(const std::vector<size_t>& local) {
    // The product, saturating (a product past 2^64 is over every maximum anyway).
    uint64_t product = 1;
    for (unsigned i = 0; i < n_; ++i) {
      if (local[i] != 0 && product > std::numeric_limits<uint64_t>::max() / local[i])
        product = std::numeric_limits<uint64_t>::max();
      else
        product *= local[i];
    }
    if (product > device_.max_work_group_size) {
      rule("local.over_device_max",
           "the work-group's " + std::to_string(product) +
               " work-items are more than CL_DEVICE_MAX_WORK_GROUP_SIZE = " +
               std::to_string(device_.max_work_group_size),
           {enq(CL_INVALID_WORK_GROUP_SIZE)});
    } else if (product > kernel_.work_group_size) {
      if (atLeast(device_, 2, 0))
        rule("local.over_kernel_max",
             "the work-group's " + std::to_string(product) +
                 " work-items are more than CL_KERNEL_WORK_GROUP_SIZE = " +
                 std::to_string(kernel_.work_group_size),
             {enq(CL_INVALID_WORK_GROUP_SIZE)});
      else
        // OpenCL 1.x names CL_DEVICE_MAX_WORK_GROUP_SIZE in this error; a size within it but over
        // the kernel's own maximum cannot run: CL_OUT_OF_RESOURCES is allowed as well.
        rule("local.over_kernel_max",
             "the work-group's " + std::to_string(product) +
                 " work-items are more than CL_KERNEL_WORK_GROUP_SIZE = " +
                 std::to_string(kernel_.work_group_size) + " (" + ver_ +
                 ": CL_INVALID_WORK_GROUP_SIZE or CL_OUT_OF_RESOURCES)",
             {enq(CL_INVALID_WORK_GROUP_SIZE), enq(CL_OUT_OF_RESOURCES)});
    }
  }

  void requiredSizeRule(const std::vector<size_t>& local) {
    const auto& reqd = kernel_.compile_work_group_size;
    bool match = true;
    for (unsigned i = 0; i < 3; ++i) match &= (i < n_ ? local[i] : size_t{1}) == reqd[i];
    if (!match)
      rule("local.reqd_mismatch",
           "local_work_size " + list(local, n_) + " does not match reqd_work_group_size(" +
               std::to_string(reqd[0]) + "," + std::to_string(reqd[1]) + "," +
               std::to_string(reqd[2]) + ")",
           {enq(CL_INVALID_WORK_GROUP_SIZE)});
  }

  void divisionRule(const std::vector<size_t>& local) {
    for (unsigned i = 0; i < n_; ++i) {
      if (launch_.global[i] % local[i] == 0) continue;
      if (uniform())
        rule("local.not_dividing",
             "global_work_size " + list(launch_.global, n_) +
                 " is not evenly divisible by local_work_size " + list(local, n_) +
                 " and work-groups must be uniform (" + ver_ + ", -cl-std=CL" +
                 std::to_string(program_.cl_std_major) + "." +
                 std::to_string(program_.cl_std_minor) +
                 (device_.non_uniform_work_groups ? "" : ", no device support") + ")",
             {enq(CL_INVALID_WORK_GROUP_SIZE)});
      else
        p_.notes.push_back("non-uniform work-groups are allowed: the last group is partial");
      break;
    }
  }

  // local_work_size NULL for a kernel that declares reqd_work_group_size
  void nullLocalRules() {
    const auto& reqd = kernel_.compile_work_group_size;
    if (!atLeast(device_, 2, 0)) {
      rule("local.null_with_reqd",
           "local_work_size is NULL and the kernel declares reqd_work_group_size (" + ver_ +
               " requires CL_INVALID_WORK_GROUP_SIZE)",
           {enq(CL_INVALID_WORK_GROUP_SIZE)});
    } else if (uniform() && !null_global_) {
      for (unsigned i = 0; i < n_; ++i)
        if (launch_.global[i] % reqd[i] != 0) {
          rule("local.null_reqd_not_dividing",
               "local_work_size is NULL, the kernel requires work-groups of " +
                   std::to_string(reqd[0]) + "x" + std::to_string(reqd[1]) + "x" +
                   std::to_string(reqd[2]) + " and global_work_size " + list(launch_.global, n_) +
                   " is not divisible by it",
               {enq(CL_INVALID_WORK_GROUP_SIZE)});
          break;
        }
    }
  }

  // Local memory: static __local variables plus __local arguments, against the device's size.
  void localMemoryRule() {
    const uint64_t need = std::max(kernel_.local_mem_size, launch_.dynamic_local_bytes);
    if (need <= device_.local_mem_size) return;
    std::vector<Outcome> allows = {{Stage::set_args, CL_OUT_OF_RESOURCES},
                                   enq(CL_OUT_OF_RESOURCES)};
    if (atLeast(device_, 2, 2))
      allows.insert(allows.begin() + 1, {Stage::set_args, CL_MAX_SIZE_RESTRICTION_EXCEEDED});
    // Only when no other rule makes the enqueue itself fail may the failure come at completion.
    if (p_.rules.empty()) allows.push_back({Stage::completion, kAnyError});
    rule("local_mem.over_device",
         "the kernel needs " + std::to_string(need) + " bytes of local memory (" +
             std::to_string(launch_.dynamic_local_bytes) +
             " through __local arguments), more than CL_DEVICE_LOCAL_MEM_SIZE = " +
             std::to_string(device_.local_mem_size),
         std::move(allows));
  }

  // Any broken rule's error may be the one returned; running is allowed only when every broken
  // rule allows it (a 0 in the local size may run as NULL, but not together with a local size
  // that reqd_work_group_size forbids).
  void allowedOutcomes() {
    const Outcome success{Stage::completion, CL_SUCCESS};
    const bool all_run = std::all_of(p_.rules.begin(), p_.rules.end(), [&](const auto& r) {
      return std::find(r.allows.begin(), r.allows.end(), success) != r.allows.end();
    });
    for (const auto& r : p_.rules)
      for (const auto& o : r.allows)
        if ((all_run || !(o == success)) &&
            std::find(p_.allowed.begin(), p_.allowed.end(), o) == p_.allowed.end())
          p_.allowed.push_back(o);
    if (p_.rules.empty() || p_.zero_size_success)
      if (!p_.accepts({Stage::completion, CL_SUCCESS}))
        p_.allowed.push_back({Stage::completion, CL_SUCCESS});
  }

  const DeviceLimits& device_;
  const KernelLimits& kernel_;
  const ProgramOptions& program_;
  const LaunchConfig& launch_;
  const std::string ver_;
  const unsigned n_;
  const uint64_t size_max_;  // the largest value of the device's size_t
  const bool null_global_;
  Prediction p_;
};

}  // namespace

Prediction predictLaunch(const DeviceLimits& device, const KernelLimits& kernel,
                         const ProgramOptions& program, const LaunchConfig& launch) {
  return Predictor(device, kernel, program, launch).predict();
}

}  // namespace clh::launch
