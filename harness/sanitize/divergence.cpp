// The divergence finding of a branch's record (divergence.hpp).
#include "sanitize/divergence.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "sanitize/runtime.hpp"

namespace clh::sanitize {

Finding divergence(const Instrumented& inst, size_t s, const uint32_t* r,
                   const std::string& shown_path, const std::vector<std::string>& source_lines) {
  const Site& site = inst.sites[s];
  const int barrier = site.barrier_line;
  const uint32_t yes = r[kDivTrue], items = r[kDivItems];
  Finding f;
  f.kind = FindingKind::divergence;
  f.summary = fmt::format(
      "barrier divergence: the work-items of work-group {} disagree on `{}` (line {}), which "
      "decides whether the barrier at line {} is reached: {} of {} found it true, {} false; "
      "every work-item of a group must reach the same barriers ({} such evaluation{}; the "
      "sanitizer had the whole group take the {} side and go on, so what follows in that group "
      "ran on a path some work-items would not take)",
      r[kDivGroup], site.text, site.line, barrier, yes, items, items - yes, r[kDivCount],
      r[kDivCount] == 1 ? "" : "s", r[kDivChosen] ? "true" : "false");
  const bool known = barrier >= 1 && static_cast<size_t>(barrier) <= source_lines.size();
  f.lines.push_back(
      {shown_path, barrier, known ? trim(source_lines[static_cast<size_t>(barrier) - 1]) : ""});
  f.work_items = {fmt::format("work-group {}", r[kDivGroup])};
  return f;
}

}  // namespace clh::sanitize
