// A fake OpenCL driver for tests: PoCL behind another platform name whose enqueue crashes the
// process (SIGSEGV) on launches the specification forbids: a 0 in the local size, a work-group
// over 4096 items, or a local size that does not divide the global size in a program built
// without -cl-std=CL2.0 or later; and, standing for a compiler that aborts when a kernel is first
// launched with a work-group size (PoCL 3.0 did), it aborts at the first launch of each local
// size of a kernel whose program was built with -DCLH_CRASHY_COMPILE_ABORT. Lets a test show that a
// driver's crash is charged to the driver, never to the kernel that was being launched.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

const char kPlatformName[] = "Crashy Test Driver";
cl_api_clGetPlatformInfo real_platform_info = nullptr;
cl_api_clEnqueueNDRangeKernel real_enqueue = nullptr;
cl_icd_dispatch* table = nullptr;

// Whether the build options of the kernel's program hold `word`.
bool builtWith(cl_command_queue q, cl_kernel k, const char* word) {
  cl_device_id dev = nullptr;
  cl_program prog = nullptr;
  char options[1024] = {0};
  table->clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
  table->clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, nullptr);
  table->clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof options - 1, options,
                               nullptr);
  return std::strstr(options, word) != nullptr;
}

// Whether the kernel's program was built for uniform work-groups only (OpenCL C before 2.0, or
// -cl-uniform-work-group-size).
bool uniformOnly(cl_command_queue q, cl_kernel k) {
  const bool cl2 = builtWith(q, k, "-cl-std=CL2") || builtWith(q, k, "-cl-std=CL3");
  return !cl2 || builtWith(q, k, "-cl-uniform-work-group-size");
}

cl_int CL_API_CALL platformInfo(cl_platform_id p, cl_platform_info what, size_t size, void* value,
                                size_t* size_ret) {
  if (what != CL_PLATFORM_NAME) return real_platform_info(p, what, size, value, size_ret);
  if (size_ret) *size_ret = sizeof kPlatformName;
  if (value) {
    if (size < sizeof kPlatformName) return CL_INVALID_VALUE;
    std::memcpy(value, kPlatformName, sizeof kPlatformName);
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL enqueue(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t* offset,
                           const size_t* global, const size_t* local, cl_uint n,
                           const cl_event* wait, cl_event* ev) {
  if (builtWith(q, k, "-DCLH_CRASHY_COMPILE_ABORT")) abort();  // as a compiler's failed assertion
  if (local && global && dim >= 1 && dim <= 3) {
    size_t items = 1;
    bool dividing = true;
    for (cl_uint d = 0; d < dim; ++d) {
      if (local[d] == 0) raise(SIGSEGV);
      dividing &= global[d] % local[d] == 0;
      items *= local[d];
    }
    if (items > 4096 || (!dividing && uniformOnly(q, k))) raise(SIGSEGV);
  }
  return real_enqueue(q, k, dim, offset, global, local, n, wait, ev);
}

// PoCL's objects all point at its one dispatch table: patching it once covers every object.
void patch(cl_icd_dispatch* t) {
  if (t->clEnqueueNDRangeKernel == enqueue) return;
  table = t;
  const long page = sysconf(_SC_PAGESIZE);
  auto start = reinterpret_cast<uintptr_t>(table) & ~static_cast<uintptr_t>(page - 1);
  auto end = reinterpret_cast<uintptr_t>(table + 1);
  mprotect(reinterpret_cast<void*>(start), end - start, PROT_READ | PROT_WRITE);
  real_platform_info = table->clGetPlatformInfo;
  real_enqueue = table->clEnqueueNDRangeKernel;
  table->clGetPlatformInfo = platformInfo;
  table->clEnqueueNDRangeKernel = enqueue;
}

using GetIds = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);

GetIds realGetIds() {
  static GetIds fn = [] {
    void* lib = dlopen("libpocl.so.2", RTLD_NOW | RTLD_LOCAL);
    using Lookup = void*(CL_API_CALL*)(const char*);
    auto lookup =
        lib ? reinterpret_cast<Lookup>(dlsym(lib, "clGetExtensionFunctionAddress")) : nullptr;
    return lookup ? reinterpret_cast<GetIds>(lookup("clIcdGetPlatformIDsKHR")) : nullptr;
  }();
  return fn;
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id* platforms,
                                                       cl_uint* count) {
  GetIds get = realGetIds();
  if (!get) {
    if (count) *count = 0;
    return CL_PLATFORM_NOT_FOUND_KHR;
  }
  const cl_int rc = get(n, platforms, count);
  if (rc == CL_SUCCESS && platforms)
    for (cl_uint i = 0; i < n; ++i)
      if (platforms[i]) patch(*reinterpret_cast<cl_icd_dispatch**>(platforms[i]));
  return rc;
}

// The loader asks the library itself (not the dispatch table) for the platform's ICD suffix.
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info what,
                                                  size_t size, void* value, size_t* size_ret) {
  if (!real_platform_info) return CL_INVALID_PLATFORM;
  return platformInfo(p, what, size, value, size_ret);
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
  if (std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR);
  return nullptr;
}

}  // extern "C"
