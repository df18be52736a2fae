// The environment of the processes that run a spec's kernels (the cases and launch-shape units):
// the parent's, with the driver settings that make their compiles cheaper where it has none.
#pragma once

#include <string>
#include <vector>

#include "core/spec.hpp"

namespace clh {

/// The driver settings of a unit's process ("NAME=VALUE"): PoCL builds one work-group function
/// per kernel for every local size (POCL_WORK_GROUP_SPECIALIZATION=0) instead of compiling it
/// again for each local size a unit launches with. The launches and their answers stay the same;
/// only PoCL's code is not specialised to each local size, so PoCL's GFLOP/s in a check report are
/// of that code. Never for the driver checks' process (`__semantics`): there PoCL answers a local
/// size of 0 with a hang instead of a crash when the variable is set (docs/performance.md).
std::vector<std::string> unitDriverDefaults();

/// Adds to `env` ("NAME=VALUE" each) every one of `defaults` whose NAME it does not set: a
/// variable the user set wins (a unit's process here, a grading process in grade/sandbox.cpp).
void addDefaults(std::vector<std::string>& env, const std::vector<std::string>& defaults);

/// `parent_env` (a null-terminated "NAME=VALUE" array such as `environ`) with addDefaults().
std::vector<std::string> environmentWithDefaults(const char* const* parent_env,
                                                 const std::vector<std::string>& defaults);

/// This process's environment with unitDriverDefaults(): ChildOptions::env of a unit's process.
std::vector<std::string> unitEnvironment();

/// Whether the cases unit of `spec` gets unitDriverDefaults(): not when its build options name a
/// parameter (`-DN={N}`) and each of its programs is launched with one local size
/// (programsMeetSeveralLocalSizes). Specialisation then costs no compile more, and PoCL's
/// unspecialised code was measured dearer to build and run there (intermediate_mul_local: 28
/// CPU-s with specialisation, 36 without; docs/performance.md). Where a program's cases reach
/// several local sizes (`-DNMAX={NMAX}` with a global size of N), PoCL would compile it once per
/// local size, and they get them (handson_mmul_row_priv: 51 work-group functions with
/// specialisation, 8 without). A launch family gets them when it draws only kernel families (one
/// program, up to 100 local sizes; launch/run.cpp), as `check`'s launch units do.
bool casesWithoutSpecialisation(const Spec& spec);

/// The defaults of unitDriverDefaults() this process's environment does not set ("NAME=VALUE"):
/// what a run says it changed (empty when the user set every one).
std::vector<std::string> unitDefaultsApplied();

}  // namespace clh
