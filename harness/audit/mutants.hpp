// Mutants for the barrier audit: where a kernel's source synchronises (barrier, fences, async
// waits), and the same source with one of those calls removed, line numbers kept.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clh::audit {

/// One synchronisation call in a kernel's source text.
struct SyncCall {
  int index = 0;         ///< 1-based, in source order
  std::string function;  ///< "barrier", "work_group_barrier", "mem_fence", "wait_group_events", ...
  std::string text;  ///< the call as written, whitespace runs and comments collapsed to one space
  int line = 0;      ///< 1-based line of the function's name
  int column = 0;    ///< 1-based column of the function's name
  size_t begin = 0;  ///< byte offset of the function's name
  size_t end = 0;    ///< byte offset one past the call's closing parenthesis
};

/// The functions whose calls are audited: barrier, work_group_barrier, mem_fence, read_mem_fence,
/// write_mem_fence, wait_group_events.
const std::vector<std::string>& syncFunctions();

/// Every call of a syncFunctions() name in `source`: a name followed by a parenthesised argument
/// list, outside comments, string and character literals, not a member (`.`/`->`) and not a
/// declaration (a name preceded by a type or another identifier). Calls inside `#define` bodies
/// count: removing one there removes it from every use of the macro. A name whose parentheses
/// never close is ignored.
std::vector<SyncCall> findSyncCalls(std::string_view source);

/// `source` with `call` replaced by the expression `/* NAME removed */(void)0`, so a following `;`
/// still ends a statement and every other character keeps its line: a call spread over several
/// lines leaves as many newlines (with a `\` before each one inside a preprocessor directive).
std::string removeCall(std::string_view source, const SyncCall& call);

/// A short label for a mutant, e.g. "without barrier #2 (line 45)".
std::string mutantLabel(const SyncCall& call);

}  // namespace clh::audit
