// The driver checks. Each check builds what it needs in one context of the device, runs, and ends
// in a CheckResult; no check passes a pointer that does not point at enough memory of its own.
#include "semantics/driver_checks.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <thread>

#include "cl/opencl.hpp"

namespace clh::semantics {

namespace {

const char* kSource = R"CLC(
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

constexpr int kPoison = -123456789;

std::string code(int c) {
  return std::string(clErrorName(c)) + " (" + std::to_string(c) + ")";
}

std::string codes(const std::vector<int>& cs) {
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

CheckResult start(const CheckInfo& c) {
  CheckResult r;
  r.id = c.id;
  r.title = c.title;
  r.rule = c.rule;
  return r;
}

void conforms(CheckResult& r, std::string detail = {}) {
  r.verdict = Verdict::conforms;
  r.detail = std::move(detail);
}
void deviates(CheckResult& r, std::string got, std::string required, std::string detail = {}) {
  r.verdict = Verdict::deviates;
  r.got = std::move(got);
  r.required = std::move(required);
  r.detail = std::move(detail);
}
void observed(CheckResult& r, std::string value, std::string detail = {}) {
  r.verdict = Verdict::observed;
  r.observed = std::move(value);
  r.detail = std::move(detail);
}
void skipped(CheckResult& r, std::string why) {
  r.verdict = Verdict::skipped;
  r.detail = std::move(why);
}

// Compares an output with the expected values: empty when equal, else the first difference.
std::string firstDifference(const int* got, const std::vector<int>& want) {
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
cl::Event runAffine(Env& e, cl::CommandQueue& q, const cl::Buffer& in, const cl::Buffer& out) {
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
void readModeCheck(Env& e, CheckResult& r,
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
void createBufferCheck(Env& e, CheckResult& r, cl_mem_flags flags, size_t size, bool with_host_ptr,
                       const std::vector<int>& required) {
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

const std::vector<Check>& checks() {
  static const std::vector<Check> all = {
      // ---- read modes ----
      {{"read.blocking", "Blocking read after a kernel",
        "clEnqueueReadBuffer with blocking_read = CL_TRUE returns once the data is in host memory; "
        "in an in-order queue the read follows the kernel"},
       [](Env& e, CheckResult& r) {
         readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
           e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
         });
       }},
      {{"read.nonblocking_wait_events", "Non-blocking read, then clWaitForEvents",
        "a non-blocking read's data may be used once its event is CL_COMPLETE (clWaitForEvents)"},
       [](Env& e, CheckResult& r) {
         readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
           cl::Event ev;
           e.queue.enqueueReadBuffer(out, CL_FALSE, 0, e.bytes(), host.data(), nullptr, &ev);
           cl::WaitForEvents({ev});
         });
       }},
      {{"read.nonblocking_finish", "Non-blocking read, then clFinish",
        "clFinish returns once every command of the queue is complete, the read included"},
       [](Env& e, CheckResult& r) {
         readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
           e.queue.enqueueReadBuffer(out, CL_FALSE, 0, e.bytes(), host.data());
           e.queue.finish();
         });
       }},
      {{"read.map", "Blocking map for reading, then unmap",
        "clEnqueueMapBuffer with blocking_map = CL_TRUE returns a pointer to the buffer's current "
        "contents"},
       [](Env& e, CheckResult& r) {
         readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
           void* p = e.queue.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, 0, e.bytes());
           std::copy_n(static_cast<const int*>(p), e.options.elements, host.data());
           e.queue.enqueueUnmapMemObject(out, p);
           e.queue.finish();
         });
       }},
      {{"read.blocking_after_long_kernel", "Blocking read issued right after a long kernel",
        "commands of an in-order queue run in order: a blocking read enqueued behind a long kernel "
        "returns that kernel's complete results"},
       [](Env& e, CheckResult& r) {
         const unsigned items = e.options.long_items, iters = e.options.long_iterations;
         std::vector<uint32_t> want(items);
         for (unsigned i = 0; i < items; ++i) {
           uint32_t x = i;
           for (unsigned k = 0; k < iters; ++k) x = x * 1664525u + 1013904223u;
           want[i] = x;
         }
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, items * sizeof(uint32_t));
         cl::Kernel k(e.program, "slow");
         k.setArg(0, out);
         k.setArg(1, static_cast<int>(items));
         k.setArg(2, static_cast<int>(iters));
         std::vector<uint32_t> host(items, 0xDEADBEEFu);
         auto t0 = std::chrono::steady_clock::now();
         e.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(items));
         e.queue.enqueueReadBuffer(out, CL_TRUE, 0, items * sizeof(uint32_t), host.data());
         double ms =
             std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                 .count();
         size_t bad = 0;
         for (unsigned i = 0; i < items; ++i) bad += host[i] != want[i];
         std::string detail = std::to_string(items) + " work-items x " + std::to_string(iters) +
                              " iterations; the blocking read returned after " +
                              std::to_string(static_cast<int>(ms)) + " ms";
         if (!bad)
           conforms(r, detail);
         else
           deviates(r, std::to_string(bad) + " of " + std::to_string(items) + " elements stale",
                    "all elements final", detail);
       }},
      // ---- events ----
      {{"event.gated_not_started", "A command waiting on a user event does not start",
        "a command whose wait list is not complete cannot start: its status stays CL_QUEUED or "
        "CL_SUBMITTED, then reaches CL_COMPLETE once the user event is set"},
       [](Env& e, CheckResult& r) {
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(),
                       e.input.data());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
         cl::UserEvent gate(e.context);
         cl::Kernel k(e.program, "affine");
         k.setArg(0, in);
         k.setArg(1, out);
         k.setArg(2, e.n());
         std::vector<cl::Event> wait = {gate};
         cl::Event ev;
         e.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(e.options.elements),
                                      cl::NullRange, &wait, &ev);
         // No clFlush: a simulator that runs commands at flush would wait on the gate forever.
         std::this_thread::sleep_for(std::chrono::milliseconds(30));
         cl_int gated = ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
         gate.setStatus(CL_COMPLETE);
         ev.wait();
         cl_int after = ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
         auto name = [](cl_int s) -> std::string {
           switch (s) {
             case CL_QUEUED:
               return "CL_QUEUED";
             case CL_SUBMITTED:
               return "CL_SUBMITTED";
             case CL_RUNNING:
               return "CL_RUNNING";
             case CL_COMPLETE:
               return "CL_COMPLETE";
             default:
               return code(s);
           }
         };
         std::string detail = "status while gated: " + name(gated) + "; after: " + name(after);
         if ((gated == CL_QUEUED || gated == CL_SUBMITTED) && after == CL_COMPLETE)
           conforms(r, detail);
         else
           deviates(r, name(gated) + " then " + name(after),
                    "CL_QUEUED or CL_SUBMITTED, then CL_COMPLETE", detail);
       }},
      {{"event.gated_status_value", "Status of a command held by a user event",
        "implementation-defined: CL_QUEUED or CL_SUBMITTED (whether the runtime submits a command "
        "to the device before its wait list completes)"},
       [](Env& e, CheckResult& r) {
         cl::UserEvent gate(e.context);
         cl::Buffer out(e.context, CL_MEM_READ_WRITE, e.bytes());
         cl::Kernel k(e.program, "affine");
         k.setArg(0, out);
         k.setArg(1, out);
         k.setArg(2, 0);  // no work-item writes: in and out may be one buffer
         std::vector<cl::Event> wait = {gate};
         cl::Event ev;
         e.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1), cl::NullRange, &wait, &ev);
         std::this_thread::sleep_for(std::chrono::milliseconds(30));
         cl_int gated = ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
         gate.setStatus(CL_COMPLETE);
         ev.wait();
         observed(r, gated == CL_QUEUED      ? "CL_QUEUED"
                     : gated == CL_SUBMITTED ? "CL_SUBMITTED"
                                             : "other: " + code(gated));
       }},
      {{"event.status_order", "Event status moves queued -> submitted -> running -> complete",
        "CL_EVENT_COMMAND_EXECUTION_STATUS only moves forward (CL_QUEUED 3, CL_SUBMITTED 2, "
        "CL_RUNNING 1, CL_COMPLETE 0) and ends CL_COMPLETE"},
       [](Env& e, CheckResult& r) {
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.options.long_items * sizeof(uint32_t));
         cl::Kernel k(e.program, "slow");
         k.setArg(0, out);
         k.setArg(1, static_cast<int>(e.options.long_items));
         k.setArg(2, static_cast<int>(e.options.long_iterations));
         cl::Event ev;
         e.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(e.options.long_items),
                                      cl::NullRange, nullptr, &ev);
         std::vector<cl_int> seen;
         auto note = [&] {
           cl_int s = ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
           if (seen.empty() || seen.back() != s) seen.push_back(s);
           return s;
         };
         note();
         e.queue.flush();
         auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
         while (note() > CL_COMPLETE && std::chrono::steady_clock::now() < until) {
           std::this_thread::sleep_for(std::chrono::microseconds(200));
         }
         ev.wait();  // a simulator may run the kernel only here
         note();
         std::string seq;
         bool forward = true;
         for (size_t i = 0; i < seen.size(); ++i) {
           static const char* names[] = {"complete", "running", "submitted", "queued"};
           seq += (i ? "->" : "") +
                  (seen[i] >= 0 && seen[i] <= 3 ? std::string(names[seen[i]]) : code(seen[i]));
           if (i && seen[i] > seen[i - 1]) forward = false;
         }
         if (forward && seen.back() == CL_COMPLETE)
           conforms(r, "seen: " + seq);
         else
           deviates(r, seq, "statuses only moving forward, ending complete", "seen: " + seq);
       }},
      {{"event.profiling_order", "Profiling stamps are ordered",
        "CL_PROFILING_COMMAND_QUEUED <= SUBMIT <= START <= END on a queue created with "
        "CL_QUEUE_PROFILING_ENABLE, available once the command is complete"},
       [](Env& e, CheckResult& r) {
         cl::CommandQueue q(e.context, e.info.device, CL_QUEUE_PROFILING_ENABLE);
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(),
                       e.input.data());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
         cl::Event ev = runAffine(e, q, in, out);
         ev.wait();
         const cl_profiling_info names[] = {CL_PROFILING_COMMAND_QUEUED,
                                            CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                                            CL_PROFILING_COMMAND_END};
         cl_ulong t[4] = {};
         for (int i = 0; i < 4; ++i) {
           cl_int err = clGetEventProfilingInfo(ev(), names[i], sizeof(cl_ulong), &t[i], nullptr);
           if (err != CL_SUCCESS) {
             deviates(r, code(err) + " for stamp " + std::to_string(i), code(CL_SUCCESS));
             return;
           }
         }
         std::string detail = "queued->submit " + std::to_string(int64_t(t[1] - t[0])) +
                              " ns, submit->start " + std::to_string(int64_t(t[2] - t[1])) +
                              " ns, start->end " + std::to_string(int64_t(t[3] - t[2])) + " ns";
         if (t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3])
           conforms(r, detail);
         else
           deviates(r, "stamps out of order", "queued <= submit <= start <= end", detail);
       }},
      // ---- buffer flags: legal modes, all giving the same results ----
      {{"buffer.copy_host_ptr", "Input with CL_MEM_COPY_HOST_PTR",
        "CL_MEM_COPY_HOST_PTR initialises the buffer with the host data at creation"},
       [](Env& e, CheckResult& r) {
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(),
                       e.input.data());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
         runAffine(e, e.queue, in, out);
         std::vector<int> host(e.options.elements, kPoison);
         e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
         std::string d = firstDifference(host.data(), e.expected);
         d.empty() ? conforms(r) : deviates(r, d, "the kernel's results");
       }},
      {{"buffer.use_host_ptr_map", "Output with CL_MEM_USE_HOST_PTR, read through a map",
        "after clEnqueueMapBuffer of a CL_MEM_USE_HOST_PTR buffer completes, the mapped region "
        "holds "
        "the latest contents"},
       [](Env& e, CheckResult& r) {
         std::vector<int> host(e.options.elements, kPoison);
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(),
                       e.input.data());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, e.bytes(), host.data());
         runAffine(e, e.queue, in, out);
         void* p = e.queue.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, 0, e.bytes());
         std::string d = firstDifference(static_cast<const int*>(p), e.expected);
         e.queue.enqueueUnmapMemObject(out, p);
         e.queue.finish();
         d.empty() ? conforms(r) : deviates(r, d, "the kernel's results");
       }},
      {{"buffer.alloc_host_ptr", "CL_MEM_ALLOC_HOST_PTR input written, output read and mapped",
        "a CL_MEM_ALLOC_HOST_PTR buffer behaves as any buffer: written with clEnqueueWriteBuffer, "
        "read with clEnqueueReadBuffer and clEnqueueMapBuffer alike"},
       [](Env& e, CheckResult& r) {
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, e.bytes());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, e.bytes());
         e.queue.enqueueWriteBuffer(in, CL_TRUE, 0, e.bytes(), e.input.data());
         runAffine(e, e.queue, in, out);
         std::vector<int> host(e.options.elements, kPoison);
         e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
         std::string d = firstDifference(host.data(), e.expected);
         void* p = e.queue.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, 0, e.bytes());
         std::string dm = firstDifference(static_cast<const int*>(p), e.expected);
         e.queue.enqueueUnmapMemObject(out, p);
         e.queue.finish();
         if (d.empty() && dm.empty())
           conforms(r);
         else
           deviates(r, !d.empty() ? "read: " + d : "map: " + dm, "the kernel's results both ways");
       }},
      {{"buffer.alloc_copy_host_ptr", "Input with CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR",
        "CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR may be combined: host-accessible memory "
        "initialised from host_ptr"},
       [](Env& e, CheckResult& r) {
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                       e.bytes(), e.input.data());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
         runAffine(e, e.queue, in, out);
         std::vector<int> host(e.options.elements, kPoison);
         e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
         std::string d = firstDifference(host.data(), e.expected);
         d.empty() ? conforms(r) : deviates(r, d, "the kernel's results");
       }},
      {{"buffer.plain_write", "Plain buffer written with clEnqueueWriteBuffer",
        "a buffer created without host pointer flags holds what clEnqueueWriteBuffer wrote"},
       [](Env& e, CheckResult& r) {
         cl::Buffer in(e.context, CL_MEM_READ_ONLY, e.bytes());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
         e.queue.enqueueWriteBuffer(in, CL_FALSE, 0, e.bytes(), e.input.data());
         runAffine(e, e.queue, in, out);
         std::vector<int> host(e.options.elements, kPoison);
         e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
         std::string d = firstDifference(host.data(), e.expected);
         d.empty() ? conforms(r) : deviates(r, d, "the kernel's results");
       }},
      {{"buffer.copy_is_a_copy", "CL_MEM_COPY_HOST_PTR copies at creation",
        "with CL_MEM_COPY_HOST_PTR the data is copied when the buffer is created: a later change "
        "of "
        "the host array does not reach the device"},
       [](Env& e, CheckResult& r) {
         std::vector<int> src = e.input;
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), src.data());
         for (auto& v : src) v += 1000;  // after creation: must not be seen by the kernel
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
         runAffine(e, e.queue, in, out);
         std::vector<int> host(e.options.elements, kPoison);
         e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
         std::string d = firstDifference(host.data(), e.expected);
         d.empty() ? conforms(r) : deviates(r, d, "results from the data at creation");
       }},
      {{"buffer.use_host_ptr_map_address",
        "Map of a CL_MEM_USE_HOST_PTR buffer returns host memory",
        "for a CL_MEM_USE_HOST_PTR buffer the pointer clEnqueueMapBuffer returns is derived from "
        "host_ptr: host_ptr + offset"},
       [](Env& e, CheckResult& r) {
         std::vector<int> host(e.options.elements, kPoison);
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(),
                       e.input.data());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, e.bytes(), host.data());
         runAffine(e, e.queue, in, out);
         const size_t offset = (e.options.elements / 4) * sizeof(int);
         void* p = e.queue.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, offset, e.bytes() - offset);
         const char* want = reinterpret_cast<const char*>(host.data()) + offset;
         const char* got = static_cast<const char*>(p);
         e.queue.enqueueUnmapMemObject(out, p);
         e.queue.finish();
         if (got == want) {
           conforms(r);
         } else {
           const char* base = reinterpret_cast<const char*>(host.data());
           bool inside = got >= base && got < base + e.bytes();
           deviates(r,
                    inside ? "host_ptr + " + std::to_string(got - base) + " bytes"
                           : std::string("a pointer outside the host array"),
                    "host_ptr + " + std::to_string(offset) + " bytes");
         }
       }},
      {{"buffer.use_host_ptr_unmapped",
        "Host array of a CL_MEM_USE_HOST_PTR output after clFinish, unmapped",
        "implementation-defined: the specification makes the host array current only through a map "
        "(or a read); whether it holds the results after clFinish is the driver's choice"},
       [](Env& e, CheckResult& r) {
         std::vector<int> host(e.options.elements, kPoison);
         cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(),
                       e.input.data());
         cl::Buffer out(e.context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, e.bytes(), host.data());
         runAffine(e, e.queue, in, out);
         e.queue.finish();
         size_t fresh = 0, old = 0;
         for (size_t i = 0; i < host.size(); ++i) {
           fresh += host[i] == e.expected[i];
           old += host[i] == kPoison;
         }
         if (fresh == host.size())
           observed(r, "kernel results");
         else if (old == host.size())
           observed(r, "old contents");
         else
           observed(r, "mixed",
                    std::to_string(fresh) + " of " + std::to_string(host.size()) +
                        " elements hold results");
       }},
      // ---- illegal clCreateBuffer calls ----
      {{"buffer.invalid.use_and_copy", "CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR",
        "CL_MEM_USE_HOST_PTR and CL_MEM_COPY_HOST_PTR are mutually exclusive: CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                           e.bytes(), true, {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.use_and_alloc", "CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR",
        "CL_MEM_USE_HOST_PTR and CL_MEM_ALLOC_HOST_PTR are mutually exclusive: CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
                           e.bytes(), true, {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.read_write_and_read_only", "CL_MEM_READ_WRITE | CL_MEM_READ_ONLY",
        "CL_MEM_READ_WRITE, CL_MEM_READ_ONLY and CL_MEM_WRITE_ONLY are mutually exclusive: "
        "CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, e.bytes(), false,
                           {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.read_write_and_write_only", "CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY",
        "CL_MEM_READ_WRITE, CL_MEM_READ_ONLY and CL_MEM_WRITE_ONLY are mutually exclusive: "
        "CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, e.bytes(), false,
                           {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.read_only_and_write_only", "CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY",
        "CL_MEM_READ_WRITE, CL_MEM_READ_ONLY and CL_MEM_WRITE_ONLY are mutually exclusive: "
        "CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, e.bytes(), false,
                           {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.host_read_and_host_write", "CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY",
        "(OpenCL 1.2) CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are "
        "mutually exclusive: CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         if (!e.atLeast(1, 2)) return skipped(r, "host access flags are OpenCL 1.2");
         createBufferCheck(e, r, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, e.bytes(), false,
                           {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.host_read_and_no_access", "CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS",
        "(OpenCL 1.2) the host access flags are mutually exclusive: CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         if (!e.atLeast(1, 2)) return skipped(r, "host access flags are OpenCL 1.2");
         createBufferCheck(e, r, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, e.bytes(), false,
                           {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.host_write_and_no_access", "CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS",
        "(OpenCL 1.2) the host access flags are mutually exclusive: CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         if (!e.atLeast(1, 2)) return skipped(r, "host access flags are OpenCL 1.2");
         createBufferCheck(e, r, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, e.bytes(), false,
                           {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.unknown_flag", "A flag bit the specification does not define (1 << 40)",
        "values specified in flags that are not valid: CL_INVALID_VALUE"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | (cl_mem_flags{1} << 40), e.bytes(), false,
                           {CL_INVALID_VALUE});
       }},
      {{"buffer.invalid.use_and_copy_null", "CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR with NULL",
        "two rules broken at once (exclusive flags, NULL host_ptr): CL_INVALID_VALUE or "
        "CL_INVALID_HOST_PTR"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                           e.bytes(), false, {CL_INVALID_VALUE, CL_INVALID_HOST_PTR});
       }},
      {{"buffer.host_ptr.use_null", "CL_MEM_USE_HOST_PTR with a NULL host_ptr",
        "host_ptr is NULL and CL_MEM_USE_HOST_PTR is set: CL_INVALID_HOST_PTR"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, e.bytes(), false,
                           {CL_INVALID_HOST_PTR});
       }},
      {{"buffer.host_ptr.copy_null", "CL_MEM_COPY_HOST_PTR with a NULL host_ptr",
        "host_ptr is NULL and CL_MEM_COPY_HOST_PTR is set: CL_INVALID_HOST_PTR"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, e.bytes(), false,
                           {CL_INVALID_HOST_PTR});
       }},
      {{"buffer.host_ptr.alloc_with_ptr", "CL_MEM_ALLOC_HOST_PTR with a host_ptr",
        "host_ptr is not NULL but neither CL_MEM_COPY_HOST_PTR nor CL_MEM_USE_HOST_PTR is set: "
        "CL_INVALID_HOST_PTR"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, e.bytes(), true,
                           {CL_INVALID_HOST_PTR});
       }},
      {{"buffer.host_ptr.plain_with_ptr", "CL_MEM_READ_WRITE with a host_ptr",
        "host_ptr is not NULL but neither CL_MEM_COPY_HOST_PTR nor CL_MEM_USE_HOST_PTR is set: "
        "CL_INVALID_HOST_PTR"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE, e.bytes(), true, {CL_INVALID_HOST_PTR});
       }},
      {{"buffer.size_zero", "A buffer of size 0", "size is 0: CL_INVALID_BUFFER_SIZE"},
       [](Env& e, CheckResult& r) {
         createBufferCheck(e, r, CL_MEM_READ_WRITE, 0, false, {CL_INVALID_BUFFER_SIZE});
       }},
  };
  return all;
}

}  // namespace

const char* toString(Verdict verdict) {
  switch (verdict) {
    case Verdict::conforms:
      return "conforms";
    case Verdict::deviates:
      return "deviates";
    case Verdict::observed:
      return "observed";
    case Verdict::skipped:
      return "skipped";
  }
  return "?";
}

Verdict verdictFromString(const std::string& word) {
  for (Verdict v : {Verdict::conforms, Verdict::deviates, Verdict::observed, Verdict::skipped})
    if (word == toString(v)) return v;
  throw std::invalid_argument("unknown verdict '" + word +
                              "' (expected: conforms, deviates, observed, skipped)");
}

const std::vector<CheckInfo>& driverChecks() {
  static const std::vector<CheckInfo> infos = [] {
    std::vector<CheckInfo> v;
    for (const auto& c : checks()) v.push_back(c.info);
    return v;
  }();
  return infos;
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
    if (o.long_iterations == 0) o.long_iterations = device.simulator ? 2000 : 100000;
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

}  // namespace clh::semantics
