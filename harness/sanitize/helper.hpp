// The rewrite run in its own process (clharness-rewrite), for the tool: clang 15's libraries must
// not share a process with Oclgrind's LLVM 14.
#pragma once

#include <string>

#include "sanitize/rewrite.hpp"

namespace clh::sanitize {

/// The environment variable naming a folder of rewrites: each answer is kept there under a name
/// made of the tool's revision, the file's text, the kernel and the build options, and read back
/// instead of running the helper (a host without clang's libraries can use one filled elsewhere).
inline constexpr const char* kRewriteCacheVariable = "CLHARNESS_REWRITE_CACHE";

/// instrument() through the helper executable beside the running one (or the build tree's);
/// a helper that cannot be run or answers nothing is the result's `error`. An answer given to
/// rememberInstrumented for the same arguments and file text comes first: a sanitized unit's
/// cases use the rewrite its parent made once.
Instrumented instrumentInHelper(const std::string& source_path, const std::string& file_name,
                                const std::string& kernel, const std::string& build_options);

/// Gives instrumentInHelper its answer for these arguments and the file's present text: a rewrite
/// made by another process (a sanitized unit's parent, sanitize/cases.hpp), where this one may
/// not run the helper.
void rememberInstrumented(const std::string& source_path, const std::string& file_name,
                          const std::string& kernel, const std::string& build_options,
                          const Instrumented& inst);

}  // namespace clh::sanitize
