// The sanitizer's evidence in the barrier audit: what a real device's sanitized units of the
// unmodified kernel and a mutant say, and where a clean pair may vouch (audit/audit.hpp).
#include <fmt/format.h>

#include <regex>

#include "audit/audit.hpp"

namespace clh::audit {

namespace {

// The kinds the sanitizer reports of a kernel.
bool sanitizerKind(FindingKind k) {
  return k == FindingKind::race || k == FindingKind::out_of_bounds ||
         k == FindingKind::uninitialized || k == FindingKind::divergence;
}

bool isFence(const std::string& function) {
  return function == "mem_fence" || function == "read_mem_fence" || function == "write_mem_fence";
}

// The number in a sanitized unit's first observation, "..., N not looked at" (0 when absent).
int unroutedCount(const std::string& observation) {
  static const std::regex count(R"(, (\d+) not looked at$)");
  std::smatch m;
  return std::regex_search(observation, m, count) ? std::stoi(m[1].str()) : 0;
}

}  // namespace

std::string sanitizerUnseen(const SyncCall& call, const UnitResult& baseline,
                            const UnitResult& mutant) {
  if (isFence(call.function))
    return call.function + " orders memory without a barrier: the sanitizer does not follow fences";
  if (call.function != "wait_group_events") {  // barrier, work_group_barrier
    if (call.text.find("CLK_GLOBAL_MEM_FENCE") != std::string::npos)
      return "its CLK_GLOBAL_MEM_FENCE orders __global memory within a work-group, where the "
             "sanitizer does not look at accesses narrower than 4 bytes, so its silence is no "
             "verdict yet";
    if (call.text.find("CLK_LOCAL_MEM_FENCE") == std::string::npos)
      return "its flags do not name CLK_LOCAL_MEM_FENCE (a macro?), and __local memory is where "
             "the sanitizer looks for races within a work-group";
  }
  for (const UnitResult* u : {&baseline, &mutant})
    for (const auto& o : u->observations) {
      if (o.rfind("sanitized on ", 0) == 0) {
        if (int n = unroutedCount(o))
          return fmt::format("{} access{} of the kernel not looked at", n, n == 1 ? "" : "es");
      } else if (o.find("not looked at") != std::string::npos) {
        return o.rfind("sanitizer: ", 0) == 0 ? o.substr(11) : o;
      }
    }
  return "";
}

DeviceEvidence weighSanitized(const UnitResult& baseline, const UnitResult& mutant,
                              const SyncCall& call) {
  DeviceEvidence e = weigh(baseline, mutant, false);
  e.sanitized = true;
  std::vector<Finding> other;  // what the sanitizer does not judge: a crash, a timeout, ...
  std::erase_if(e.evidence, [&](const Finding& f) {
    if (sanitizerKind(f.kind)) return false;
    other.push_back(f);
    return true;
  });
  if (e.evidence.empty() && !other.empty() && e.note.empty())
    e.note = fmt::format("the sanitized mutant ended in {}, which is no sanitizer's evidence: {}",
                         toString(other.front().kind), other.front().summary);
  if (e.note.empty() && !mutant.failing && mutant.cases_run == 0)
    e.note =
        "not sanitized: " + (mutant.message.empty() ? std::string("no case ran") : mutant.message);
  if (e.clean()) e.unseen = sanitizerUnseen(call, baseline, mutant);
  return e;
}

}  // namespace clh::audit
