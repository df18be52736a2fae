// The driver checks of read modes and events: how results come back after a kernel and what a
// command's events and profiling say about it.
#include "drivers/check_kit.hpp"

namespace clh::drivers::kit {

namespace {

// ---- read modes ----

void blockingRead(Env& e, CheckResult& r) {
  readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
    e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
  });
}

void nonblockingWaitEvents(Env& e, CheckResult& r) {
  readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
    cl::Event ev;
    e.queue.enqueueReadBuffer(out, CL_FALSE, 0, e.bytes(), host.data(), nullptr, &ev);
    cl::WaitForEvents({ev});
  });
}

void nonblockingFinish(Env& e, CheckResult& r) {
  readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
    e.queue.enqueueReadBuffer(out, CL_FALSE, 0, e.bytes(), host.data());
    e.queue.finish();
  });
}

void mapRead(Env& e, CheckResult& r) {
  readModeCheck(e, r, [&](cl::Buffer& out, std::vector<int>& host) {
    void* p = e.queue.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, 0, e.bytes());
    std::copy_n(static_cast<const int*>(p), e.options.elements, host.data());
    e.queue.enqueueUnmapMemObject(out, p);
    e.queue.finish();
  });
}

// What the `slow` kernel computes for `items` work-items of `iters` iterations. Its step
// x -> a*x + c (mod 2^32) repeated `iters` times is one affine map x -> A*x + C, composed by
// squaring: the host's answer costs O(log iters) rather than the kernel's items x iters steps
// (3 % of the test suite's CPU when it looped like the kernel).
std::vector<uint32_t> slowResults(unsigned items, unsigned iters) {
  uint32_t a = 1, c = 0;                           // the map so far: the identity
  uint32_t stepA = 1664525u, stepC = 1013904223u;  // the map of 2^bit steps
  for (unsigned n = iters; n; n >>= 1) {
    if (n & 1u) a = stepA * a, c = stepA * c + stepC;  // then 2^bit steps more
    stepC = stepA * stepC + stepC;
    stepA = stepA * stepA;
  }
  std::vector<uint32_t> want(items);
  for (unsigned i = 0; i < items; ++i) want[i] = a * i + c;
  return want;
}

// The `slow` kernel set to write `items` work-items of `iters` iterations into `out`.
cl::Kernel slowKernel(Env& e, const cl::Buffer& out, unsigned items, unsigned iters) {
  cl::Kernel k(e.program, "slow");
  k.setArg(0, out);
  k.setArg(1, static_cast<int>(items));
  k.setArg(2, static_cast<int>(iters));
  return k;
}

void blockingAfterLongKernel(Env& e, CheckResult& r) {
  const unsigned items = e.options.long_items, iters = e.options.long_iterations;
  std::vector<uint32_t> want = slowResults(items, iters);
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, items * sizeof(uint32_t));
  cl::Kernel k = slowKernel(e, out, items, iters);
  std::vector<uint32_t> host(items, 0xDEADBEEFu);
  auto t0 = std::chrono::steady_clock::now();
  e.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(items));
  e.queue.enqueueReadBuffer(out, CL_TRUE, 0, items * sizeof(uint32_t), host.data());
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
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
}

// ---- events ----

std::string statusName(cl_int s) {
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
}

void gatedNotStarted(Env& e, CheckResult& r) {
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), e.input.data());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
  cl::UserEvent gate(e.context);
  cl::Kernel k(e.program, "affine");
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArg(2, e.n());
  std::vector<cl::Event> wait = {gate};
  cl::Event ev;
  e.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(e.options.elements), cl::NullRange,
                               &wait, &ev);
  // No clFlush: a simulator that runs commands at flush would wait on the gate forever.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  cl_int gated = ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  gate.setStatus(CL_COMPLETE);
  ev.wait();
  cl_int after = ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  std::string detail = "status while gated: " + statusName(gated) + "; after: " + statusName(after);
  if ((gated == CL_QUEUED || gated == CL_SUBMITTED) && after == CL_COMPLETE)
    conforms(r, detail);
  else
    deviates(r, statusName(gated) + " then " + statusName(after),
             "CL_QUEUED or CL_SUBMITTED, then CL_COMPLETE", detail);
}

void gatedStatusValue(Env& e, CheckResult& r) {
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
}

// The distinct statuses a long kernel's event goes through, polled for up to two seconds.
std::vector<cl_int> statusesOfALongKernel(Env& e) {
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.options.long_items * sizeof(uint32_t));
  cl::Kernel k = slowKernel(e, out, e.options.long_items, e.options.long_iterations);
  cl::Event ev;
  e.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(e.options.long_items), cl::NullRange,
                               nullptr, &ev);
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
  return seen;
}

void statusOrder(Env& e, CheckResult& r) {
  std::vector<cl_int> seen = statusesOfALongKernel(e);
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
}

void profilingOrder(Env& e, CheckResult& r) {
  cl::CommandQueue q(e.context, e.info.device, CL_QUEUE_PROFILING_ENABLE);
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), e.input.data());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
  cl::Event ev = runAffine(e, q, in, out);
  ev.wait();
  const cl_profiling_info names[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
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
}

}  // namespace

std::vector<Check> readAndEventChecks() {
  return {
      {{"read.blocking", "Blocking read after a kernel",
        "clEnqueueReadBuffer with blocking_read = CL_TRUE returns once the data is in host memory; "
        "in an in-order queue the read follows the kernel"},
       blockingRead},
      {{"read.nonblocking_wait_events", "Non-blocking read, then clWaitForEvents",
        "a non-blocking read's data may be used once its event is CL_COMPLETE (clWaitForEvents)"},
       nonblockingWaitEvents},
      {{"read.nonblocking_finish", "Non-blocking read, then clFinish",
        "clFinish returns once every command of the queue is complete, the read included"},
       nonblockingFinish},
      {{"read.map", "Blocking map for reading, then unmap",
        "clEnqueueMapBuffer with blocking_map = CL_TRUE returns a pointer to the buffer's current "
        "contents"},
       mapRead},
      {{"read.blocking_after_long_kernel", "Blocking read issued right after a long kernel",
        "commands of an in-order queue run in order: a blocking read enqueued behind a long kernel "
        "returns that kernel's complete results"},
       blockingAfterLongKernel},
      {{"event.gated_not_started", "A command waiting on a user event does not start",
        "a command whose wait list is not complete cannot start: its status stays CL_QUEUED or "
        "CL_SUBMITTED, then reaches CL_COMPLETE once the user event is set"},
       gatedNotStarted},
      {{"event.gated_status_value", "Status of a command held by a user event",
        "implementation-defined: CL_QUEUED or CL_SUBMITTED (whether the runtime submits a command "
        "to the device before its wait list completes)"},
       gatedStatusValue},
      {{"event.status_order", "Event status moves queued -> submitted -> running -> complete",
        "CL_EVENT_COMMAND_EXECUTION_STATUS only moves forward (CL_QUEUED 3, CL_SUBMITTED 2, "
        "CL_RUNNING 1, CL_COMPLETE 0) and ends CL_COMPLETE"},
       statusOrder},
      {{"event.profiling_order", "Profiling stamps are ordered",
        "CL_PROFILING_COMMAND_QUEUED <= SUBMIT <= START <= END on a queue created with "
        "CL_QUEUE_PROFILING_ENABLE, available once the command is complete"},
       profilingOrder},
  };
}

}  // namespace clh::drivers::kit
