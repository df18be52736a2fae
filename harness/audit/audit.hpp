// The barrier audit: removes each synchronisation call of a spec's kernel in turn, runs every
// mutant where the unmodified kernel runs (the simulator for races, real devices for wrong
// results and, sanitized, for races) and judges each call necessary, redundant or undetermined.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/mutants.hpp"
#include "cl/devices.hpp"
#include "cl/unit.hpp"
#include "core/result.hpp"
#include "core/spec.hpp"

namespace clh::audit {

/// What removing a call did.
enum class Verdict {
  necessary,  ///< some device showed a race, a wrong result or another finding without it
  /// every device ran the same cases cleanly without it, and a simulator or a sanitized run that
  /// looked where the call orders memory is among them
  redundant,
  undetermined,  ///< neither: no simulator ran, the kernel already fails, a tool failed, ...
};
std::string_view toString(Verdict v);

/// What one device showed for one mutant, next to what it showed for the unmodified kernel: its
/// plain units, or (`sanitized`) its sanitized units, a second entry for the same real device.
struct DeviceEvidence {
  std::string device;  ///< display name
  bool simulator = false;
  /// The units are sanitized ones (run/sanitize_unit.hpp): only race, out_of_bounds,
  /// uninitialized and divergence count as evidence.
  bool sanitized = false;
  /// A sanitized run that passed but cannot vouch that the call is redundant: what it did not
  /// look at (empty when it looked everywhere the call orders memory).
  std::string unseen;
  UnitResult mutant;    ///< the mutant's unit: cases run, the smallest failing case, ...
  UnitResult baseline;  ///< the unmodified kernel's unit on the same device, same seed
  /// The mutant's findings that the unmodified kernel did not show here (all of them when the
  /// unmodified kernel passed): the evidence that the call is needed.
  std::vector<Finding> evidence;
  std::string note;    ///< why this device says nothing either way, when it does not
  std::string replay;  ///< the command that replays the mutant's smallest failing case

  /// The mutant ran only on cases where the unmodified kernel shows nothing (it fails on others).
  bool paired = false;

  /// The mutant ran its cases and nothing was found, where the unmodified kernel found nothing.
  bool clean() const {
    return !mutant.failing && (paired ? mutant.cases_run > 0 : !baseline.failing) && note.empty() &&
           (!sanitized || mutant.cases_run > 0);
  }
  /// Clean, and it looked where a race without the call would be: a simulator, or a sanitized
  /// run with nothing unseen. Such a device can say that the call is redundant.
  bool vouches() const { return clean() && (simulator || (sanitized && unseen.empty())); }
};

/// One synchronisation call and its verdict.
struct CallAudit {
  SyncCall call;
  Verdict verdict = Verdict::undetermined;
  std::string reason;  ///< one line: the deciding evidence, or why there is none
  std::vector<DeviceEvidence> devices;
};

/// One spec's audit.
struct SpecAudit {
  std::string spec;       ///< spec name
  std::string spec_file;  ///< the spec's path as given
  std::string source;     ///< the kernel file as the spec names it
  std::string kernels;    ///< the kernel names the spec launches, comma-separated
  std::vector<CallAudit> calls;
  double seconds = 0;
};

/// Runs `spec` on `device` with `options`: one unit, for instance in a child process. `spec` is
/// the spec itself or a mutant of it (its source_path names the mutant's file, its `file` the
/// spec's). `paired`: run the mutant only where the unmodified kernel passes, as
/// runWhereUnmodifiedPasses does. Must not throw for a kernel that crashes or hangs: such a unit
/// is a finding (crash, timeout).
using UnitRunner = std::function<UnitResult(const Spec& spec, const DeviceInfo& device,
                                            const UnitOptions& options, bool paired)>;

struct AuditOptions {
  std::string mutants_dir;  ///< where each mutant's source is written (created when missing)
  std::vector<int> only;    ///< audit only these calls (1-based indices); empty: every call
  uint64_t seed = 1;
  int cases = 0;               ///< cases on a real device; 0: the spec's own count
  int sim_cases = 0;           ///< cases on a simulator; 0: the spec's own count
  std::optional<Sizes> sizes;  ///< run exactly this case on every device (a replay)
  bool shrink = true;
  std::string tool = "clharness";  ///< how replay commands name the tool
  /// Told what runs next, e.g. "hackmd_gemm_tiled without barrier #2 (line 45) on Oclgrind".
  std::function<void(const std::string&)> progress;
  /// Runs `spec` (or a mutant) sanitized on a real device: the plan `check --sanitize` uses (the
  /// spec's full ranges, up to 4 sizes, or `options.sizes`). Empty: no sanitized runs
  /// (`--no-sanitize`); none either on a device where the unmodified kernel does not build. Must
  /// not throw: a failure of the sanitizer's is a tool_error finding.
  std::function<UnitResult(const Spec& spec, const DeviceInfo& device, const UnitOptions& options)>
      sanitized;
};

/// A copy of `spec` whose kernel source is `mutant_file` (findings' source lines name that file);
/// the name stays, so the property generates the same sizes as for the unmodified kernel.
Spec mutantSpec(const Spec& spec, const std::string& mutant_file);

/// The file name of a mutant: "<source stem>.no-<function>-<index>.line<line>.cl".
std::string mutantFileName(const Spec& spec, const SyncCall& call);

/// Audits one spec on `devices`: the unmodified kernel and each mutant on each device through
/// `run`. Where the unmodified kernel fails and the mutant shows nothing more, the mutant runs
/// again on the cases where the unmodified kernel passes (`paired`). Throws std::runtime_error when
/// the kernel file cannot be read or a mutant written.
SpecAudit auditSpec(const Spec& spec, const std::vector<DeviceInfo>& devices,
                    const AuditOptions& options, const UnitRunner& run);

/// The mutant's unit on only the cases where the unmodified kernel shows nothing: each generated
/// case runs `unmodified` first and is skipped when that shows any finding, so for a kernel that
/// is already wrong on some sizes (an "as published" bug) the unit tells what the removal adds.
/// Shrinks like runUnit; `message` says how many cases were skipped.
UnitResult runWhereUnmodifiedPasses(DeviceSession& session, const Spec& unmodified,
                                    const Spec& mutant, const UnitOptions& options);

/// The evidence one device gives: the mutant's findings minus those the unmodified kernel showed
/// there (same kind, wrong_result and unwritten counting as one, and for the simulator's
/// findings the same source lines); a tool error or a mutant that does not build gives a note
/// instead.
DeviceEvidence weigh(const UnitResult& baseline, const UnitResult& mutant, bool simulator);

/// The evidence of one real device's sanitized units: the mutant's race, out_of_bounds,
/// uninitialized and divergence findings that the sanitized unmodified kernel did not show; any
/// other end of the mutant's sanitized unit (a tool error, a crash, a timeout) is a note. A clean
/// pair says in `unseen` what keeps it from vouching for `call` (sanitizerUnseen).
DeviceEvidence weighSanitized(const UnitResult& baseline, const UnitResult& mutant,
                              const SyncCall& call);

/// What a passing sanitized pair did not look at, where removing `call` could make a race: a
/// fence (the sanitizer does not follow fences), a barrier whose flags name
/// CLK_GLOBAL_MEM_FENCE or are not written out (races on __global memory within a work-group are
/// not looked at), or anything either unit's observations say was "not looked at" (the __local
/// shadow not made, an access not routed). Empty: it looked everywhere.
std::string sanitizerUnseen(const SyncCall& call, const UnitResult& baseline,
                            const UnitResult& mutant);

/// The verdict from every device's evidence: necessary when any device has evidence; redundant
/// when every plain device is clean and some device vouches (a simulator, or a sanitized run that
/// looked: DeviceEvidence::vouches); otherwise undetermined. A sanitized entry that could not run
/// or look says neither.
void decide(CallAudit& call);

/// A device's name in tables: "PoCL", "Oclgrind", "PoCL [sanitize]".
std::string deviceLabel(const DeviceEvidence& e);

/// The most telling finding of a list (race, divergence, wrong result, ... in that order).
const Finding* headline(const std::vector<Finding>& findings);

/// One line for a device's evidence, e.g. "race (local): Read-write data race ... at K=3,M=1".
std::string describe(const DeviceEvidence& e);

/// A terminal table of one spec's audit.
std::string renderAudit(const SpecAudit& audit);
/// A Markdown table for docs/catalog.md: one row per call, the evidence of each device.
std::string renderMarkdown(const std::vector<SpecAudit>& audits);

/// The JSON form (`--json`): {"schema": "clharness-audit/2", "specs": [...]}.
nlohmann::json toJson(const std::vector<SpecAudit>& audits);

}  // namespace clh::audit
