// A process-wide hook around the driver's compiles (clBuildProgram), so that a child process can
// tell its parent when it is compiling: the parent times a compile apart from the kernel's cases.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/enum_words.hpp"

namespace clh {

/// Called with true before every program build of this process, with false after it.
using BuildHook = std::function<void(bool building)>;

/// Sets the hook (an empty one: none). Child processes set it once, before their first build.
void setBuildHook(BuildHook hook);
/// The hook in force.
BuildHook& buildHook();

/// The events a child writes for the hook's calls, one word each way.
inline constexpr EnumWord<bool> kBuildEventWords[] = {{true, "build_start"}, {false, "build_end"}};

/// The event a child writes for the hook's call: "build_start" (true) or "build_end" (false).
inline const char* buildEventName(bool building) {
  return wordOf(kBuildEventWords, building, "build_end");
}
/// For a child's event: true after "build_start", false after "build_end", none for any other.
inline std::optional<bool> buildEventState(const std::string& event) {
  return valueOf(kBuildEventWords, event);
}

}  // namespace clh
