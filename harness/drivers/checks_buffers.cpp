// The driver checks of buffer flags: the legal modes, all giving the same results, and the
// clCreateBuffer calls the specification forbids with the error codes it requires.
#include "drivers/check_kit.hpp"

namespace clh::drivers::kit {

namespace {

// ---- buffer flags: legal modes, all giving the same results ----

// Reads `out` after `affine` ran into it and compares with the expected results.
void readAndCompare(Env& e, CheckResult& r, const cl::Buffer& out, const std::string& required) {
  std::vector<int> host(e.options.elements, kPoison);
  e.queue.enqueueReadBuffer(out, CL_TRUE, 0, e.bytes(), host.data());
  std::string d = firstDifference(host.data(), e.expected);
  d.empty() ? conforms(r) : deviates(r, d, required);
}

void copyHostPtr(Env& e, CheckResult& r) {
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), e.input.data());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
  runAffine(e, e.queue, in, out);
  readAndCompare(e, r, out, "the kernel's results");
}

void useHostPtrMap(Env& e, CheckResult& r) {
  std::vector<int> host(e.options.elements, kPoison);
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), e.input.data());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, e.bytes(), host.data());
  runAffine(e, e.queue, in, out);
  void* p = e.queue.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, 0, e.bytes());
  std::string d = firstDifference(static_cast<const int*>(p), e.expected);
  e.queue.enqueueUnmapMemObject(out, p);
  e.queue.finish();
  d.empty() ? conforms(r) : deviates(r, d, "the kernel's results");
}

void allocHostPtr(Env& e, CheckResult& r) {
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
}

void allocCopyHostPtr(Env& e, CheckResult& r) {
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                e.bytes(), e.input.data());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
  runAffine(e, e.queue, in, out);
  readAndCompare(e, r, out, "the kernel's results");
}

void plainWrite(Env& e, CheckResult& r) {
  cl::Buffer in(e.context, CL_MEM_READ_ONLY, e.bytes());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
  e.queue.enqueueWriteBuffer(in, CL_FALSE, 0, e.bytes(), e.input.data());
  runAffine(e, e.queue, in, out);
  readAndCompare(e, r, out, "the kernel's results");
}

void copyIsACopy(Env& e, CheckResult& r) {
  std::vector<int> src = e.input;
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), src.data());
  for (auto& v : src) v += 1000;  // after creation: must not be seen by the kernel
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY, e.bytes());
  runAffine(e, e.queue, in, out);
  readAndCompare(e, r, out, "results from the data at creation");
}

void useHostPtrMapAddress(Env& e, CheckResult& r) {
  std::vector<int> host(e.options.elements, kPoison);
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), e.input.data());
  cl::Buffer out(e.context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, e.bytes(), host.data());
  runAffine(e, e.queue, in, out);
  const size_t offset = (e.options.elements / 4) * sizeof(int);
  void* p = e.queue.enqueueMapBuffer(out, CL_TRUE, CL_MAP_READ, offset, e.bytes() - offset);
  const char* want = reinterpret_cast<const char*>(host.data()) + offset;
  const char* got = static_cast<const char*>(p);
  e.queue.enqueueUnmapMemObject(out, p);
  e.queue.finish();
  if (got == want) return conforms(r);
  const char* base = reinterpret_cast<const char*>(host.data());
  bool inside = got >= base && got < base + e.bytes();
  deviates(r,
           inside ? "host_ptr + " + std::to_string(got - base) + " bytes"
                  : std::string("a pointer outside the host array"),
           "host_ptr + " + std::to_string(offset) + " bytes");
}

void useHostPtrUnmapped(Env& e, CheckResult& r) {
  std::vector<int> host(e.options.elements, kPoison);
  cl::Buffer in(e.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, e.bytes(), e.input.data());
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
    observed(
        r, "mixed",
        std::to_string(fresh) + " of " + std::to_string(host.size()) + " elements hold results");
}

std::vector<Check> legalModeChecks() {
  return {
      {{"buffer.copy_host_ptr", "Input with CL_MEM_COPY_HOST_PTR",
        "CL_MEM_COPY_HOST_PTR initialises the buffer with the host data at creation"},
       copyHostPtr},
      {{"buffer.use_host_ptr_map", "Output with CL_MEM_USE_HOST_PTR, read through a map",
        "after clEnqueueMapBuffer of a CL_MEM_USE_HOST_PTR buffer completes, the mapped region "
        "holds the latest contents"},
       useHostPtrMap},
      {{"buffer.alloc_host_ptr", "CL_MEM_ALLOC_HOST_PTR input written, output read and mapped",
        "a CL_MEM_ALLOC_HOST_PTR buffer behaves as any buffer: written with clEnqueueWriteBuffer, "
        "read with clEnqueueReadBuffer and clEnqueueMapBuffer alike"},
       allocHostPtr},
      {{"buffer.alloc_copy_host_ptr", "Input with CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR",
        "CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR may be combined: host-accessible memory "
        "initialised from host_ptr"},
       allocCopyHostPtr},
      {{"buffer.plain_write", "Plain buffer written with clEnqueueWriteBuffer",
        "a buffer created without host pointer flags holds what clEnqueueWriteBuffer wrote"},
       plainWrite},
      {{"buffer.copy_is_a_copy", "CL_MEM_COPY_HOST_PTR copies at creation",
        "with CL_MEM_COPY_HOST_PTR the data is copied when the buffer is created: a later change "
        "of the host array does not reach the device"},
       copyIsACopy},
      {{"buffer.use_host_ptr_map_address",
        "Map of a CL_MEM_USE_HOST_PTR buffer returns host memory",
        "for a CL_MEM_USE_HOST_PTR buffer the pointer clEnqueueMapBuffer returns is derived from "
        "host_ptr: host_ptr + offset"},
       useHostPtrMapAddress},
      {{"buffer.use_host_ptr_unmapped",
        "Host array of a CL_MEM_USE_HOST_PTR output after clFinish, unmapped",
        "implementation-defined: the specification makes the host array current only through a map "
        "(or a read); whether it holds the results after clFinish is the driver's choice"},
       useHostPtrUnmapped},
  };
}

// ---- illegal clCreateBuffer calls ----

// A check that clCreateBuffer with `flags` (a buffer of the usual size, with or without a host
// pointer) fails with one of `required`; `opencl12` for flags OpenCL 1.2 introduced.
Check createFails(CheckInfo info, cl_mem_flags flags, bool with_host_ptr, std::vector<int> required,
                  bool opencl12 = false) {
  return {std::move(info), [=](Env& e, CheckResult& r) {
            if (opencl12 && !e.atLeast(1, 2)) return skipped(r, "host access flags are OpenCL 1.2");
            createBufferCheck(e, r, flags, e.bytes(), with_host_ptr, required);
          }};
}

std::vector<Check> exclusiveFlagChecks() {
  const char* access =
      "CL_MEM_READ_WRITE, CL_MEM_READ_ONLY and CL_MEM_WRITE_ONLY are mutually "
      "exclusive: CL_INVALID_VALUE";
  return {
      createFails({"buffer.invalid.use_and_copy", "CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR",
                   "CL_MEM_USE_HOST_PTR and CL_MEM_COPY_HOST_PTR are mutually exclusive: "
                   "CL_INVALID_VALUE"},
                  CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, true,
                  {CL_INVALID_VALUE}),
      createFails({"buffer.invalid.use_and_alloc", "CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR",
                   "CL_MEM_USE_HOST_PTR and CL_MEM_ALLOC_HOST_PTR are mutually exclusive: "
                   "CL_INVALID_VALUE"},
                  CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, true,
                  {CL_INVALID_VALUE}),
      createFails({"buffer.invalid.read_write_and_read_only",
                   "CL_MEM_READ_WRITE | CL_MEM_READ_ONLY", access},
                  CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, false, {CL_INVALID_VALUE}),
      createFails({"buffer.invalid.read_write_and_write_only",
                   "CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY", access},
                  CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, false, {CL_INVALID_VALUE}),
      createFails({"buffer.invalid.read_only_and_write_only",
                   "CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY", access},
                  CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, false, {CL_INVALID_VALUE}),
      createFails({"buffer.invalid.host_read_and_host_write",
                   "CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY",
                   "(OpenCL 1.2) CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and "
                   "CL_MEM_HOST_NO_ACCESS are mutually exclusive: CL_INVALID_VALUE"},
                  CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, false, {CL_INVALID_VALUE}, true),
      createFails({"buffer.invalid.host_read_and_no_access",
                   "CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS",
                   "(OpenCL 1.2) the host access flags are mutually exclusive: CL_INVALID_VALUE"},
                  CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, false, {CL_INVALID_VALUE}, true),
      createFails({"buffer.invalid.host_write_and_no_access",
                   "CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS",
                   "(OpenCL 1.2) the host access flags are mutually exclusive: CL_INVALID_VALUE"},
                  CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, false, {CL_INVALID_VALUE}, true),
  };
}

void sizeZero(Env& e, CheckResult& r) {
  createBufferCheck(e, r, CL_MEM_READ_WRITE, 0, false, {CL_INVALID_BUFFER_SIZE});
}

std::vector<Check> invalidArgumentChecks() {
  const char* no_flag_for_ptr =
      "host_ptr is not NULL but neither CL_MEM_COPY_HOST_PTR nor "
      "CL_MEM_USE_HOST_PTR is set: CL_INVALID_HOST_PTR";
  return {
      createFails(
          {"buffer.invalid.unknown_flag", "A flag bit the specification does not define (1 << 40)",
           "values specified in flags that are not valid: CL_INVALID_VALUE"},
          CL_MEM_READ_WRITE | (cl_mem_flags{1} << 40), false, {CL_INVALID_VALUE}),
      createFails({"buffer.invalid.use_and_copy_null",
                   "CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR with NULL",
                   "two rules broken at once (exclusive flags, NULL host_ptr): CL_INVALID_VALUE "
                   "or CL_INVALID_HOST_PTR"},
                  CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, false,
                  {CL_INVALID_VALUE, CL_INVALID_HOST_PTR}),
      createFails({"buffer.host_ptr.use_null", "CL_MEM_USE_HOST_PTR with a NULL host_ptr",
                   "host_ptr is NULL and CL_MEM_USE_HOST_PTR is set: CL_INVALID_HOST_PTR"},
                  CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, false, {CL_INVALID_HOST_PTR}),
      createFails({"buffer.host_ptr.copy_null", "CL_MEM_COPY_HOST_PTR with a NULL host_ptr",
                   "host_ptr is NULL and CL_MEM_COPY_HOST_PTR is set: CL_INVALID_HOST_PTR"},
                  CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, false, {CL_INVALID_HOST_PTR}),
      createFails({"buffer.host_ptr.alloc_with_ptr", "CL_MEM_ALLOC_HOST_PTR with a host_ptr",
                   no_flag_for_ptr},
                  CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, true, {CL_INVALID_HOST_PTR}),
      createFails(
          {"buffer.host_ptr.plain_with_ptr", "CL_MEM_READ_WRITE with a host_ptr", no_flag_for_ptr},
          CL_MEM_READ_WRITE, true, {CL_INVALID_HOST_PTR}),
      {{"buffer.size_zero", "A buffer of size 0", "size is 0: CL_INVALID_BUFFER_SIZE"}, sizeZero},
  };
}

}  // namespace

std::vector<Check> bufferChecks() {
  std::vector<Check> v = legalModeChecks();
  for (auto* group : {exclusiveFlagChecks, invalidArgumentChecks})
    for (auto& c : group()) v.push_back(std::move(c));
  return v;
}

}  // namespace clh::drivers::kit
