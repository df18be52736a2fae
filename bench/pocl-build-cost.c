// PoCL's cost of a process against a build: builds N distinct trivial kernels in one process.
// Each build is a cache miss (a fresh POCL_CACHE_DIR per run): the CPU of N = 0, 1, 2 tells a
// process's fixed cost with PoCL's first build from a later build's (docs/performance.md, "The
// grading tests' CPU"). Build: gcc -O2 -o pocl-build-cost bench/pocl-build-cost.c -lOpenCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The first device of the platform whose name holds "Portable" (PoCL), or exits.
static cl_device_id poclDevice(void) {
  cl_platform_id platforms[8];
  cl_uint count = 0;
  clGetPlatformIDs(8, platforms, &count);
  for (cl_uint i = 0; i < count && i < 8; ++i) {
    char name[256] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    cl_device_id d;
    if (strstr(name, "Portable") &&
        clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) == CL_SUCCESS)
      return d;
  }
  fprintf(stderr, "pocl-build-cost: no PoCL device\n");
  exit(1);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1;
  cl_device_id device = poclDevice();
  cl_int err;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &err);
  for (int k = 0; k < n; ++k) {
    char source[160];
    snprintf(source, sizeof source,
             "__kernel void k(__global float* a) { a[get_global_id(0)] += %d.0f; }", k + 1);
    const char* text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL, &err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
      fprintf(stderr, "pocl-build-cost: build %d failed\n", k);
      return 1;
    }
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    clSetKernelArg(kernel, 0, sizeof buffer, &buffer);
    const size_t global = 64, local = 16;
    clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(queue);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  clReleaseMemObject(buffer);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
