// What the driver checks share (drivers/checks*.cpp): the kernels they run, one device's context
// (Env), the verdict setters and the read and clCreateBuffer patterns several checks repeat.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cl/opencl.hpp"
#include "drivers/checks.hpp"

namespace clh::drivers::kit {

inline const char* kSource = R"CLC(
__kernel void affine(__global const int* in, __global int* out, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = 3 * in[i] + i;
}
__kernel void slow(__global uint* out, int n, int iterations) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint x = (uint)i;
  for (int k = 0; k < iterations; ++k) x = x * 1664525u + 1013904223u;
  out[i] = x;
}
)CLC";

inline constexpr int kPoison = -123456789;

inline std::string code(int c) {
  return std::string(clErrorName(c)) + " (" + std::to_string(c) + ")";
}

inline std::string codes(const std::vector<int>& cs) {
  std::string s;
  for (int c : cs) s += (s.empty() ? "" : " or ") + code(c);
  return s;
}

// Everything one device's checks share.
struct Env {
  const clh::DeviceInfo& info;
  DriverCheckOptions options;
  cl::Context context;
  cl::CommandQueue queue;
  cl::Program program;
  cl::Kernel affine;
  cl::Kernel slow;
  std::vector<int> input;     // the small kernel's input
  std::vector<int> expected;  // and its output, computed here
  bool atLeast(int major, int minor) const {
    return info.opencl_major > major || (info.opencl_major == major && info.opencl_minor >= minor);
  }
  int n() const { return static_cast<int>(options.elements); }
  size_t bytes() const { return options.elements * sizeof(int); }
};

inline CheckResult start(const CheckInfo& c) {
  CheckResult r;
  r.id = c.id;
  r.title = c.title;
  r.rule = c.rule;
  return r;
}

inline void conforms(CheckResult& r, std::string detail = {}) {
  r.verdict = Verdict::conforms;
  r.detail = std::move(detail);
}
inline void deviates(CheckResult& r, std::string got, std::string required,
                     std::string detail = {}) {
  r.verdict = Verdict::deviates;
  r.got = std::move(got);
  r.required = std::move(required);
  r.detail = std::move(detail);
}
inline void observed(CheckResult& r, std::string value, std::string detail = {}) {
  r.verdict = Verdict::observed;
  r.observed = std::move(value);
  r.detail = std::move(detail);
}
inline void skipped(CheckResult& r, std::string why) {
  r.verdict = Verdict::skipped;
  r.detail = std::move(why);
}

// Compares an output with the expected values: empty when equal, else the first difference.
inline std::string firstDifference(const int* got, const std::vector<int>& want) {
  size_t bad = 0, first = want.size();
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      if (first == want.size()) first = i;
      ++bad;
    }
  if (!bad) return {};
  return "element " + std::to_string(first) + " = " + std::to_string(got[first]) + " (expected " +
         std::to_string(want[first]) + "), " + std::to_string(bad) + " of " +
         std::to_string(want.size()) + " differ";
}

// Runs `affine` from `in` into `out` and returns the enqueue's event.
inline cl::Event runAffine(Env& e, cl::CommandQueue& q, const cl::Buffer& in,
                           const cl::Buffer& out) {
  cl::Kernel k(e.program, "affine");
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArg(2, e.n());
  cl::Event ev;
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(e.options.elements), cl::NullRange, nullptr,
                         &ev);
  return ev;
}

// The output of `affine` read with `read`, which gets the output buffer and a host array.
inline void readModeCheck(Env& e, CheckResult& r,
                          const std::function<void(cl::Buffer&, std::vector<int>&)>& read) {
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), e.input.data());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
  runAffine(e, e.queue, in, out);
  std::vector<int> host(e.options.elements, kPoison);
  read(out, host);
  std::string diff = firstDifference(host.data(), e.expected);
  if (diff.empty())
    conforms(r);
  else
    deviates(r, diff, "every element as computed on the host");
}

// clCreateBuffer with flags that the specification forbids: the code must be one of `required`.
inline void createBufferCheck(Env& e, CheckResult& r, cl_mem_flags flags, size_t size,
                              bool with_host_ptr, const std::vector<int>& required) {
  std::vector<int> host(e.options.elements, 7);  // always large enough for `size`
  cl_int err = CL_SUCCESS;
  cl_mem mem =
      clCreateBuffer(e.context(), flags, size, with_host_ptr ? host.data() : nullptr, &err);
  if (mem) clReleaseMemObject(mem);
  for (int c : required)
    if (err == c) {
      if (mem)
        deviates(r, code(err) + " and a buffer", codes(required) + " and NULL");
      else
        conforms(r);
      return;
    }
  deviates(r, code(err), codes(required));
}

using CheckFn = std::function<void(Env&, CheckResult&)>;

struct Check {
  CheckInfo info;
  CheckFn run;
};

/// Adds a driver check after the built-in ones (one with the same id replaces it): how a program
/// that links clharness::drivers adds a rule of its own (docs/architecture.md). Not thread-safe:
/// register before the checks run.
void registerDriverCheck(Check check);

/// The checks of one file (checks_reads.cpp, checks_buffers.cpp), in report order.
std::vector<Check> readAndEventChecks();
std::vector<Check> bufferChecks();

}  // namespace clh::drivers::kit
