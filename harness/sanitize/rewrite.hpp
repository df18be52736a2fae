// The sanitizer's rewrite: a kernel's OpenCL C source in, the instrumented program out (clang's
// syntax tree, in rewrite.cpp alone; this header names no clang type, so other units stay light).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clh::sanitize {

/// What an access does; the values are the runtime's (runtime.cpp). `branch` is no access: a
/// condition that decides whether a barrier is reached (its record says whether a work-group's
/// work-items disagreed on it; runtime_calls.cpp).
enum class AccessKind { read = 1, write = 2, read_write = 3, atomic = 4, branch = 8 };

/// One instrumented access: its id is its position in Instrumented::sites.
struct Site {
  int line = 0, column = 0;  ///< in the original file
  AccessKind kind = AccessKind::read;
  std::string space;     ///< "global" or "local"
  std::string text;      ///< the access as written, e.g. "a[i + 1]"
  size_t bytes = 0;      ///< the size of what it reads or writes (of one element, for a vector)
  int barrier_line = 0;  ///< a branch: the line of the barrier it decides
  int hint = -1;  ///< the table entry (GlobalBuffer, LocalObject) it names, -1: found at run time
};

/// A __global pointer parameter of the kernel (its real size comes from the host), or a
/// program-scope `__global` variable (OpenCL 2.0; arg_index -1, its size from its type; bounds
/// only, no shadow: races on it are not looked at).
struct GlobalBuffer {
  std::string name;
  int arg_index = 0;
  size_t bytes = 0;  ///< a variable's size (0 for a parameter)
};

/// A piece of __local memory: a `local` pointer parameter (sized by the host) or a `__local`
/// variable declared in the kernel (sized by its type).
struct LocalObject {
  std::string name;
  int arg_index = -1;    ///< the parameter's position, or -1 for a declared variable
  size_t bytes = 0;      ///< a declared variable's size (0 for a parameter)
  size_t shadow_at = 0;  ///< a declared variable's first shadow word after the parameters'
};

/// An access or call the rewrite could not route through the runtime: "not looked at".
struct Unchecked {
  int line = 0, column = 0;
  std::string what;  ///< e.g. "vload4(i, a)", "a[i] (in a macro)"
  std::string why;
};

/// The rewrite of one kernel of a source file.
struct Instrumented {
  std::string source;  ///< the runtime, then `#line 1 "FILE"` and the rewritten file
  std::vector<Site> sites;
  std::vector<GlobalBuffer> globals;  ///< in parameter order
  std::vector<LocalObject> locals;    ///< parameters first, then the declared variables
  int original_args = 0;              ///< the hidden arguments follow these
  std::vector<Unchecked> unchecked;
  bool async_copies =
      false;          ///< the kernel copies asynchronously in a way the rewrite cannot route
  std::string error;  ///< non-empty: clang could not parse the file (its diagnostics)
};

/// The hidden arguments appended to the kernel, in this order after `original_args`.
/// sizes (ulong*), records (uint*), __local shadow, dummy, __global shadow (uint*).
inline constexpr int kHiddenArgs = 5;

/// Rewrites kernel `kernel` of `text` (the file `file_name`), parsed as OpenCL C with the
/// `-D`, `-I`, `-U` and `-cl-std=` options among `build_options` (default CL1.2).
Instrumented instrument(const std::string& text, const std::string& file_name,
                        const std::string& kernel, const std::string& build_options);

}  // namespace clh::sanitize
