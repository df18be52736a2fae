// Launch-shape generation and the enqueue loop that checks each shape against the rules.
#include "launch/shapes.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string_view>
#include <utility>

namespace clh::launch {

namespace {

size_t product(const std::vector<size_t>& v, unsigned n) {
  size_t p = 1;
  for (unsigned i = 0; i < n; ++i) p *= v[i];
  return p;
}

// A local size for n dimensions within every limit (and within max_local_per_dim).
std::vector<size_t> validLocal(const DeviceLimits& d, const KernelLimits& k, const ShapeOptions& o,
                               unsigned n) {
  if (k.hasRequiredSize())
    return {k.compile_work_group_size.begin(), k.compile_work_group_size.end()};
  size_t cap = std::min(d.max_work_group_size, k.work_group_size);
  std::vector<size_t> local(std::max<size_t>(n, 3), 1);
  size_t used = 1;
  for (unsigned i = 0; i < n; ++i) {
    size_t bound = std::min({d.max_work_item_sizes[i], cap / used, o.max_local_per_dim});
    // Powers of two are what people write; other sizes are where bugs hide: draw both.
    bool pow2 = *rc::gen::arbitrary<bool>();
    size_t v = pick(1, std::max<size_t>(bound, 1));
    if (pow2) v = size_t{1} << (63 - __builtin_clzll(v));
    local[i] = v;
    used *= v;
  }
  return local;
}

// A global size that is a multiple of local, within max_global_items.
std::vector<size_t> multipleOf(const std::vector<size_t>& local, const ShapeOptions& o,
                               unsigned n) {
  std::vector<size_t> global(local.size(), 1);
  size_t used = product(local, n);
  for (unsigned i = 0; i < n; ++i) {
    size_t rest = std::max<size_t>(o.max_global_items / std::max<size_t>(used, 1), 1);
    size_t k = pick(1, std::min<size_t>(rest, 64));
    global[i] = local[i] * k;
    used *= k;
  }
  return global;
}

LaunchConfig base(unsigned n) {
  LaunchConfig c;
  c.work_dim = n;
  c.global.assign(std::max<size_t>(n, 3), 1);
  return c;
}

}  // namespace

size_t pick(size_t lo, size_t hi) {
  if (hi <= lo) return lo;
  return *rc::gen::inRange<size_t>(lo, hi + 1);
}

std::vector<std::string> shapeKinds(const DeviceLimits& d, const KernelLimits& k,
                                    const ShapeOptions& o) {
  std::vector<std::string> kinds = {"valid", "null_local", "over_device_max", "over_item_size",
                                    "zero_global"};
  if (o.zero_local) kinds.push_back("zero_local");
  if (k.work_group_size < d.max_work_group_size && !k.hasRequiredSize())
    kinds.push_back("over_kernel_max");
  // A non-dividing local size needs a dimension of at least 2 items.
  kinds.push_back("not_dividing");
  if (k.hasRequiredSize()) {
    kinds.push_back("reqd_mismatch");
    kinds.push_back("reqd_null_local");
  }
  if (o.offsets) {
    kinds.push_back("offset");
    kinds.push_back("offset_overflow");
  }
  if (o.dynamic_local) kinds.push_back("local_mem_over");
  if (o.invalid_work_dim) kinds.push_back("invalid_work_dim");
  if (!o.kinds.empty())
    std::erase_if(kinds, [&](const std::string& k) {
      return std::find(o.kinds.begin(), o.kinds.end(), k) == o.kinds.end();
    });
  return kinds;
}

namespace {

// The number of dimensions of a shape: the options' own, else drawn; a kernel with a required
// size is launched in as many dimensions as that size uses.
unsigned drawWorkDim(const KernelLimits& k, const ShapeOptions& o, unsigned dims) {
  unsigned n = o.work_dim ? *o.work_dim : static_cast<unsigned>(pick(1, std::min(3u, dims)));
  if (k.hasRequiredSize() && !o.work_dim) {
    n = k.compile_work_group_size[2] > 1 ? 3 : k.compile_work_group_size[1] > 1 ? 2 : 1;
    n = std::max(n, 1u);
  }
  return n;
}

// One shape being drawn: its launch so far and a valid local size, with a method per family
// that makes the launch one of that family. The draws keep their order: a seed replays a shape.
struct ShapeDraw {
  const DeviceLimits& d;
  const KernelLimits& k;
  const ShapeOptions& o;
  const unsigned dims;
  const unsigned n;
  LaunchConfig c;
  std::vector<size_t> local;

  void withLocal(std::vector<size_t> l) {
    c.global = multipleOf(l, o, n);
    c.local = std::move(l);
  }
  // A local size of l, with a global size the same.
  void onlyGroup(const std::vector<size_t>& l) {
    c.local = l;
    c.global = l;
  }
  unsigned anyDim() const { return static_cast<unsigned>(pick(0, n - 1)); }

  void valid() { withLocal(local); }
  void nullLocal() {
    size_t budget = o.max_global_items;
    for (unsigned i = 0; i < n; ++i) {
      c.global[i] = pick(1, std::max<size_t>(std::min<size_t>(budget, 4096), 1));
      budget /= c.global[i];
    }
  }
  // More work-items than CL_DEVICE_MAX_WORK_GROUP_SIZE, each dimension within its own maximum
  // where the device allows that (in 1D it is over the item size as well when they are equal).
  void overDeviceMax() {
    std::vector<size_t> l(c.global.size(), 1);
    if (n >= 2 && d.max_work_item_sizes[1] >= 2) {
      l[0] = std::min(d.max_work_item_sizes[0], d.max_work_group_size);
      l[1] = d.max_work_group_size / l[0] + pick(1, 2);
    } else {
      l[0] = d.max_work_group_size + pick(1, 64);
    }
    onlyGroup(l);
  }
  void overKernelMax() {
    std::vector<size_t> l(c.global.size(), 1);
    l[0] = pick(k.work_group_size + 1, std::min(d.max_work_group_size, d.max_work_item_sizes[0]));
    onlyGroup(l);
  }
  void overItemSize() {
    unsigned i = anyDim();
    std::vector<size_t> l(c.global.size(), 1);
    l[i] = d.max_work_item_sizes[i] + pick(1, 64);
    onlyGroup(l);
  }
  void notDividing() {
    withLocal(local);
    unsigned i = anyDim();
    if ((*c.local)[i] < 2 && !k.hasRequiredSize()) {
      // Make room for a remainder: 2 items in that dimension, within the limits.
      size_t others = product(*c.local, n) / (*c.local)[i];
      if (2 * others <= std::min(d.max_work_group_size, k.work_group_size) &&
          d.max_work_item_sizes[i] >= 2)
        (*c.local)[i] = 2;
    }
    size_t l = (*c.local)[i];
    if (l >= 2) c.global[i] = l * pick(0, 8) + pick(1, l - 1);
  }
  void zeroLocal() {
    withLocal(local);
    (*c.local)[pick(0, n - 1)] = 0;
  }
  // The spec's local size, or small global sizes of no local size.
  void localOrSmallGlobal(size_t most) {
    if (*rc::gen::arbitrary<bool>())
      withLocal(local);
    else
      for (unsigned i = 0; i < n; ++i) c.global[i] = pick(1, most);
  }
  void zeroGlobal() {
    localOrSmallGlobal(64);
    c.global[pick(0, n - 1)] = 0;
  }
  void reqdMismatch() {
    auto l = local;
    unsigned i = anyDim();
    l[i] = l[i] > 1 && *rc::gen::arbitrary<bool>() ? l[i] / 2 : l[i] * 2;
    withLocal(l);
  }
  // A global size that the required size divides, and no local size.
  void reqdNullLocal() {
    withLocal(local);
    c.local.reset();
  }
  void offset() {
    localOrSmallGlobal(16);
    std::vector<size_t> off(c.global.size(), 0);
    for (unsigned i = 0; i < n; ++i) off[i] = pick(0, 1u << 20);
    c.offset = off;
  }
  void offsetOverflow() {
    withLocal(local);
    const uint64_t size_max = d.address_bits >= 64 ? std::numeric_limits<uint64_t>::max()
                                                   : (uint64_t{1} << d.address_bits) - 1;
    std::vector<size_t> off(c.global.size(), 0);
    unsigned i = anyDim();
    // global + offset one past the largest size_t, or further (never wrapping round).
    off[i] = static_cast<size_t>(size_max - pick(0, c.global[i] - 1));
    c.offset = off;
  }
  void localMemOver() {
    withLocal(local);
    c.dynamic_local_bytes = d.local_mem_size + 4 * pick(1, 1024);
  }
  void invalidWorkDim() {
    withLocal(local);
    c.work_dim = *rc::gen::arbitrary<bool>() ? 0u : dims + 1;
    size_t len = std::max<size_t>(c.work_dim, 3);
    c.global.resize(len, 1);
    c.local->resize(len, 1);
  }
};

// Each family's method of ShapeDraw.
constexpr std::pair<std::string_view, void (ShapeDraw::*)()> kShapeFamilies[] = {
    {"valid", &ShapeDraw::valid},
    {"null_local", &ShapeDraw::nullLocal},
    {"over_device_max", &ShapeDraw::overDeviceMax},
    {"over_kernel_max", &ShapeDraw::overKernelMax},
    {"over_item_size", &ShapeDraw::overItemSize},
    {"not_dividing", &ShapeDraw::notDividing},
    {"zero_local", &ShapeDraw::zeroLocal},
    {"zero_global", &ShapeDraw::zeroGlobal},
    {"reqd_mismatch", &ShapeDraw::reqdMismatch},
    {"reqd_null_local", &ShapeDraw::reqdNullLocal},
    {"offset", &ShapeDraw::offset},
    {"offset_overflow", &ShapeDraw::offsetOverflow},
    {"local_mem_over", &ShapeDraw::localMemOver},
    {"invalid_work_dim", &ShapeDraw::invalidWorkDim},
};

}  // namespace

rc::Gen<LaunchShape> genLaunchShape(const DeviceLimits& d, const KernelLimits& k,
                                    const ShapeOptions& o) {
  auto kinds = shapeKinds(d, k, o);
  if (kinds.empty()) kinds.push_back("valid");  // families asked for that cannot exist here
  const unsigned dims = static_cast<unsigned>(d.max_work_item_sizes.size());
  return rc::gen::exec([=]() -> LaunchShape {
    LaunchShape s;
    s.kind = *rc::gen::elementOf(kinds);
    const unsigned n = drawWorkDim(k, o, dims);
    ShapeDraw draw{d, k, o, dims, n, base(n), {}};
    draw.local = validLocal(d, k, o, n);
    // __local argument bytes for a shape meant to run: a few, or a good part of what is free.
    if (o.dynamic_local) {
      uint64_t free_bytes =
          d.local_mem_size > k.local_mem_size ? d.local_mem_size - k.local_mem_size : 0;
      draw.c.dynamic_local_bytes = 4 * pick(1, std::max<uint64_t>(free_bytes / 4, 1));
    }
    for (const auto& [kind, make] : kShapeFamilies)
      if (kind == s.kind) (draw.*make)();
    s.config = std::move(draw.c);
    return s;
  });
}

DeviceLimits deviceLimits(const clh::DeviceInfo& info) {
  DeviceLimits d;
  d.opencl_major = info.opencl_major;
  d.opencl_minor = info.opencl_minor;
  d.max_work_group_size = info.max_work_group_size;
  d.max_work_item_sizes = info.max_work_item_sizes;
  d.local_mem_size = info.local_mem_size;
  // OpenCL 2.x devices all support non-uniform work-groups; 3.0 devices say so in a query.
  d.non_uniform_work_groups = info.opencl_major == 2 || info.non_uniform_work_groups;
  cl_uint bits = 64;
  if (clGetDeviceInfo(info.device(), CL_DEVICE_ADDRESS_BITS, sizeof(bits), &bits, nullptr) ==
      CL_SUCCESS)
    d.address_bits = bits;
  return d;
}

KernelLimits kernelLimits(const cl::Kernel& kernel, const cl::Device& device) {
  KernelLimits k;
  clGetKernelWorkGroupInfo(kernel(), device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(size_t),
                           &k.work_group_size, nullptr);
  cl_ulong local = 0;
  clGetKernelWorkGroupInfo(kernel(), device(), CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local), &local,
                           nullptr);
  k.local_mem_size = local;
  size_t reqd[3] = {0, 0, 0};
  if (clGetKernelWorkGroupInfo(kernel(), device(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(reqd),
                               reqd, nullptr) == CL_SUCCESS)
    k.compile_work_group_size = {reqd[0], reqd[1], reqd[2]};
  return k;
}

ProgramOptions programOptions(const cl::Kernel& kernel, const cl::Device& device) {
  cl::Program program = kernel.getInfo<CL_KERNEL_PROGRAM>();
  std::string options = program.getBuildInfo<CL_PROGRAM_BUILD_OPTIONS>(device);
  options.erase(std::find(options.begin(), options.end(), '\0'), options.end());
  return parseBuildOptions(options);
}

size_t workItems(const LaunchConfig& c) {
  if (c.work_dim < 1 || c.work_dim > c.global.size()) return 0;
  return product(c.global, c.work_dim);
}

std::string ShapeResult::gotText() const {
  std::string s = got.toString();
  if (not_run > 0)
    s += ", but " + std::to_string(not_run) + " of " + std::to_string(work_items) +
         " work-items did not run";
  return s;
}

std::string ShapeResult::requiredText() const {
  if (not_run == 0) return prediction.allowedToString();
  std::string s;
  for (const auto& a : prediction.allowed) {
    s += (s.empty() ? "" : " | ") + a.toString();
    if (a == Outcome{Stage::completion, CL_SUCCESS}) s += " running every work-item";
  }
  return s;
}

std::string ShapeResult::toString() const {
  std::string s = shape.kind + " " + shape.config.toString() + ": predicted " + requiredText() +
                  ", got " + gotText() + ": " + (conforms ? "conforms" : "deviates");
  return s;
}

std::vector<ShapeResult> checkLaunchShapes(const clh::DeviceInfo& device, cl::Kernel& kernel,
                                           const SetArgs& set_args, int shapes, uint64_t seed,
                                           const ShapeOptions& options, const OutputOf& output) {
  const DeviceLimits limits = deviceLimits(device);
  const KernelLimits initial = kernelLimits(kernel, device.device);
  const ProgramOptions program = programOptions(kernel, device.device);
  const auto gen = genLaunchShape(limits, initial, options);
  cl::Context context = kernel.getInfo<CL_KERNEL_CONTEXT>();
  cl::CommandQueue queue(context, device.device);

  std::vector<ShapeResult> results;
  rc::Random random(seed);
  for (int i = 0; i < shapes; ++i) {
    ShapeResult r;
    r.shape = gen(random.split(), rc::kNominalSize).value();
    if (!options.run_only.empty() && std::find(options.run_only.begin(), options.run_only.end(),
                                               r.shape.kind) == options.run_only.end())
      continue;
    const LaunchConfig& c = r.shape.config;
    bool args_set = true;
    try {
      set_args(kernel, r.shape);
    } catch (const cl::Error& e) {
      r.got = {Stage::set_args, e.err()};
      args_set = false;
    }
    r.kernel = kernelLimits(kernel, device.device);
    r.prediction = predictLaunch(limits, r.kernel, program, c);
    // A launch that may succeed gets an output of kUnwritten, so that a success can be checked.
    const Outcome ran{Stage::completion, CL_SUCCESS};
    const bool count = args_set && output && r.prediction.accepts(ran);
    cl::Buffer out;
    size_t out_ints = 0;
    if (count) {
      out = output(r.shape);
      out_ints = out.getInfo<CL_MEM_SIZE>() / sizeof(cl_int);
      std::vector<cl_int> fill(out_ints, kUnwritten);
      queue.enqueueWriteBuffer(out, CL_TRUE, 0, out_ints * sizeof(cl_int), fill.data());
    }
    if (args_set) {
      cl_event event = nullptr;
      cl_int code = clEnqueueNDRangeKernel(queue(), kernel(), c.work_dim,
                                           c.offset ? c.offset->data() : nullptr,
                                           c.global.empty() ? nullptr : c.global.data(),
                                           c.local ? c.local->data() : nullptr, 0, nullptr, &event);
      if (code != CL_SUCCESS) {
        r.got = {Stage::enqueue, code};
      } else {
        cl_int waited = clWaitForEvents(1, &event);
        cl_int status = CL_COMPLETE;
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
        clReleaseEvent(event);
        r.got = {Stage::completion, status < 0 ? status : waited};
      }
    }
    if (count && r.got == ran) {
      r.work_items = std::min(workItems(c), out_ints);
      std::vector<cl_int> back(r.work_items);
      if (!back.empty())
        queue.enqueueReadBuffer(out, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data());
      r.not_run = static_cast<size_t>(std::count(back.begin(), back.end(), kUnwritten));
    }
    r.conforms = r.prediction.acceptsRun(r.got, r.not_run);
    results.push_back(std::move(r));
  }
  queue.finish();
  return results;
}

}  // namespace clh::launch
