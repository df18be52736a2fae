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

Prediction predictLaunch(const DeviceLimits& device, const KernelLimits& kernel,
                         const ProgramOptions& program, const LaunchConfig& launch) {
  Prediction p;
  auto rule = [&](std::string id, std::string reason, std::vector<Outcome> allows) {
    p.rules.push_back({std::move(id), std::move(reason), std::move(allows)});
  };
  auto enq = [](int code) { return Outcome{Stage::enqueue, code}; };
  const std::string ver =
      "OpenCL " + std::to_string(device.opencl_major) + "." + std::to_string(device.opencl_minor);

  const size_t dims = device.max_work_item_sizes.size();
  const unsigned n = launch.work_dim;
  if (n < 1 || n > dims) {
    // The per-dimension rules read work_dim values; with an invalid work_dim they have no meaning.
    rule("work_dim.range",
         "work_dim must be between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (" +
             std::to_string(dims) + "); it is " + std::to_string(n),
         {enq(CL_INVALID_WORK_DIMENSION)});
  } else {
    const uint64_t size_max = device.address_bits >= 64 ? std::numeric_limits<uint64_t>::max()
                                                        : (uint64_t{1} << device.address_bits) - 1;
    const bool v11 = atLeast(device, 1, 1), v20 = atLeast(device, 2, 0),
               v21 = atLeast(device, 2, 1), v22 = atLeast(device, 2, 2);

    // global_work_size
    const bool null_global = launch.global.empty();
    bool zero_global = null_global;
    for (unsigned i = 0; !null_global && i < n; ++i) zero_global |= launch.global[i] == 0;
    if (zero_global) {
      if (!v21)
        rule("global.zero",
             "global_work_size is NULL or has a 0 (" +
                 (null_global ? std::string("NULL") : list(launch.global, n)) +
                 "): CL_INVALID_GLOBAL_WORK_SIZE before OpenCL 2.1 (" + ver + ")",
             {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
      else {
        // From 2.1 such a launch "trivially succeeds"; the specification does not say whether the
        // other rules are checked first, so their codes stay acceptable too.
        p.zero_size_success = true;
        p.notes.push_back("a NULL or zero global size trivially succeeds from OpenCL 2.1 on (" +
                          ver + ")");
      }
    }
    for (unsigned i = 0; !null_global && i < n; ++i)
      if (uint64_t(launch.global[i]) > size_max) {
        rule("global.over_size_t",
             "global_work_size[" + std::to_string(i) + "] exceeds the device's size_t (" +
                 std::to_string(device.address_bits) + " address bits)",
             {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
        break;
      }

    // global_work_offset
    if (launch.offset) {
      if (!v11)
        rule("offset.before_1_1", "global_work_offset must be NULL before OpenCL 1.1 (" + ver + ")",
             {enq(CL_INVALID_GLOBAL_OFFSET)});
      for (unsigned i = 0; !null_global && i < n; ++i) {
        uint64_t g = launch.global[i], o = (*launch.offset)[i];
        if (g <= size_max && o > size_max - g) {
          rule("offset.overflow",
               "global_work_size + global_work_offset in dimension " + std::to_string(i) + " (" +
                   std::to_string(g) + " + " + std::to_string(o) +
                   ") is greater than the largest value of the device's size_t",
               {enq(CL_INVALID_GLOBAL_OFFSET)});
          break;
        }
      }
    }

    // local_work_size
    const bool uniform = !nonUniformAllowed(device, program);
    const auto& reqd = kernel.compile_work_group_size;
    if (launch.local) {
      const auto& local = *launch.local;
      bool zero = false;
      for (unsigned i = 0; i < n; ++i) zero |= local[i] == 0;
      if (zero)
        // The specification names no code for a 0 in local_work_size (a work-group of no
        // work-items): the two codes it uses for bad local sizes are accepted, and so is running
        // as though local_work_size were NULL. Crashing is not.
        rule("local.zero",
             "local_work_size " + list(local, n) +
                 " has a 0: the specification names no code; a local-size error or running as "
                 "with a NULL local size",
             {enq(CL_INVALID_WORK_GROUP_SIZE),
              enq(CL_INVALID_WORK_ITEM_SIZE),
              {Stage::completion, CL_SUCCESS}});
      for (unsigned i = 0; i < n; ++i)
        if (local[i] > device.max_work_item_sizes[i]) {
          rule("local.over_item_size",
               "local_work_size[" + std::to_string(i) + "] = " + std::to_string(local[i]) +
                   " is greater than CL_DEVICE_MAX_WORK_ITEM_SIZES[" + std::to_string(i) +
                   "] = " + std::to_string(device.max_work_item_sizes[i]),
               {enq(CL_INVALID_WORK_ITEM_SIZE)});
          break;
        }
      // The product, saturating (a product past 2^64 is over every maximum anyway).
      uint64_t product = 1;
      for (unsigned i = 0; i < n; ++i) {
        if (local[i] != 0 && product > std::numeric_limits<uint64_t>::max() / local[i])
          product = std::numeric_limits<uint64_t>::max();
        else
          product *= local[i];
      }
      if (!zero && product > device.max_work_group_size) {
        rule("local.over_device_max",
             "the work-group's " + std::to_string(product) +
                 " work-items are more than CL_DEVICE_MAX_WORK_GROUP_SIZE = " +
                 std::to_string(device.max_work_group_size),
             {enq(CL_INVALID_WORK_GROUP_SIZE)});
      } else if (!zero && product > kernel.work_group_size) {
        if (v20)
          rule("local.over_kernel_max",
               "the work-group's " + std::to_string(product) +
                   " work-items are more than CL_KERNEL_WORK_GROUP_SIZE = " +
                   std::to_string(kernel.work_group_size),
               {enq(CL_INVALID_WORK_GROUP_SIZE)});
        else
          // OpenCL 1.x names CL_DEVICE_MAX_WORK_GROUP_SIZE in this error; a size within it but over
          // the kernel's own maximum cannot run: CL_OUT_OF_RESOURCES is allowed as well.
          rule("local.over_kernel_max",
               "the work-group's " + std::to_string(product) +
                   " work-items are more than CL_KERNEL_WORK_GROUP_SIZE = " +
                   std::to_string(kernel.work_group_size) + " (" + ver +
                   ": CL_INVALID_WORK_GROUP_SIZE or CL_OUT_OF_RESOURCES)",
               {enq(CL_INVALID_WORK_GROUP_SIZE), enq(CL_OUT_OF_RESOURCES)});
      }
      if (kernel.hasRequiredSize()) {
        bool match = true;
        for (unsigned i = 0; i < 3; ++i) match &= (i < n ? local[i] : size_t{1}) == reqd[i];
        if (!match)
          rule("local.reqd_mismatch",
               "local_work_size " + list(local, n) + " does not match reqd_work_group_size(" +
                   std::to_string(reqd[0]) + "," + std::to_string(reqd[1]) + "," +
                   std::to_string(reqd[2]) + ")",
               {enq(CL_INVALID_WORK_GROUP_SIZE)});
      }
      if (!zero && !null_global) {
        for (unsigned i = 0; i < n; ++i) {
          if (launch.global[i] % local[i] == 0) continue;
          if (uniform)
            rule("local.not_dividing",
                 "global_work_size " + list(launch.global, n) +
                     " is not evenly divisible by local_work_size " + list(local, n) +
                     " and work-groups must be uniform (" + ver + ", -cl-std=CL" +
                     std::to_string(program.cl_std_major) + "." +
                     std::to_string(program.cl_std_minor) +
                     (device.non_uniform_work_groups ? "" : ", no device support") + ")",
                 {enq(CL_INVALID_WORK_GROUP_SIZE)});
          else
            p.notes.push_back("non-uniform work-groups are allowed: the last group is partial");
          break;
        }
      }
    } else if (kernel.hasRequiredSize()) {
      if (!v20) {
        rule("local.null_with_reqd",
             "local_work_size is NULL and the kernel declares reqd_work_group_size (" + ver +
                 " requires CL_INVALID_WORK_GROUP_SIZE)",
             {enq(CL_INVALID_WORK_GROUP_SIZE)});
      } else if (uniform && !null_global) {
        for (unsigned i = 0; i < n; ++i)
          if (launch.global[i] % reqd[i] != 0) {
            rule("local.null_reqd_not_dividing",
                 "local_work_size is NULL, the kernel requires work-groups of " +
                     std::to_string(reqd[0]) + "x" + std::to_string(reqd[1]) + "x" +
                     std::to_string(reqd[2]) + " and global_work_size " + list(launch.global, n) +
                     " is not divisible by it",
                 {enq(CL_INVALID_WORK_GROUP_SIZE)});
            break;
          }
      }
    }

    // Local memory: static __local variables plus __local arguments, against the device's size.
    const uint64_t need = std::max(kernel.local_mem_size, launch.dynamic_local_bytes);
    if (need > device.local_mem_size) {
      std::vector<Outcome> allows = {{Stage::set_args, CL_OUT_OF_RESOURCES},
                                     enq(CL_OUT_OF_RESOURCES)};
      if (v22)
        allows.insert(allows.begin() + 1, {Stage::set_args, CL_MAX_SIZE_RESTRICTION_EXCEEDED});
      // Only when no other rule makes the enqueue itself fail may the failure come at completion.
      if (p.rules.empty()) allows.push_back({Stage::completion, kAnyError});
      rule("local_mem.over_device",
           "the kernel needs " + std::to_string(need) + " bytes of local memory (" +
               std::to_string(launch.dynamic_local_bytes) +
               " through __local arguments), more than CL_DEVICE_LOCAL_MEM_SIZE = " +
               std::to_string(device.local_mem_size),
           std::move(allows));
    }
  }

  // Any broken rule's error may be the one returned; running is allowed only when every broken
  // rule allows it (a 0 in the local size may run as NULL, but not together with a local size
  // that reqd_work_group_size forbids).
  const Outcome success{Stage::completion, CL_SUCCESS};
  const bool all_run = std::all_of(p.rules.begin(), p.rules.end(), [&](const auto& r) {
    return std::find(r.allows.begin(), r.allows.end(), success) != r.allows.end();
  });
  for (const auto& r : p.rules)
    for (const auto& o : r.allows)
      if ((all_run || !(o == success)) &&
          std::find(p.allowed.begin(), p.allowed.end(), o) == p.allowed.end())
        p.allowed.push_back(o);
  if (p.rules.empty() || p.zero_size_success)
    if (!p.accepts({Stage::completion, CL_SUCCESS}))
      p.allowed.push_back({Stage::completion, CL_SUCCESS});
  return p;
}

}  // namespace clh::launch
