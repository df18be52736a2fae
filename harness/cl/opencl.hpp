// The one place that configures the Khronos C++ bindings; every OpenCL user includes this header.
// Minimum version 1.1: with 1.2 the 2023.02.06 header fails to compile (getContextPlatformVersion).
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#define CL_HPP_ENABLE_EXCEPTIONS

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
#include <CL/opencl.hpp>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace clh {
/// The OpenCL name of an error code ("CL_INVALID_WORK_GROUP_SIZE"), or "CL_ERROR(-N)".
const char* clErrorName(int code);
}  // namespace clh
