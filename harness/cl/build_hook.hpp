// A process-wide hook around the driver's compiles (clBuildProgram), so that a child process can
// tell its parent when it is compiling: the parent times a compile apart from the kernel's cases.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace clh {

/// Called with true before every program build of this process, with false after it.
using BuildHook = std::function<void(bool building)>;

/// Sets the hook (an empty one: none). Child processes set it once, before their first build.
void setBuildHook(BuildHook hook);
/// The hook in force.
BuildHook& buildHook();

/// The event a child writes for the hook's call: "build_start" (true) or "build_end" (false).
inline const char* buildEventName(bool building) {
  return building ? "build_start" : "build_end";
}
/// For a child's event: true after "build_start", false after "build_end", none for any other.
inline std::optional<bool> buildEventState(const std::string& event) {
  if (event == "build_start") return true;
  if (event == "build_end") return false;
  return std::nullopt;
}

}  // namespace clh
