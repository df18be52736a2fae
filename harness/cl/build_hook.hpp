// A process-wide hook around the driver's compiles (clBuildProgram), so that a child process can
// tell its parent when it is compiling: the parent times a compile apart from the kernel's cases.
#pragma once

#include <functional>

namespace clh {

/// Called with true before every program build of this process, with false after it.
using BuildHook = std::function<void(bool building)>;

/// Sets the hook (an empty one: none). Child processes set it once, before their first build.
void setBuildHook(BuildHook hook);
/// The hook in force.
BuildHook& buildHook();

}  // namespace clh
