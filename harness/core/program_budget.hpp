// The programs a unit's random cases may build where a spec's sizes are build options: at most a
// budget of distinct options texts, the lowest and the highest of the spec's domain among them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/expr.hpp"
#include "core/hostbuffer.hpp"
#include "core/spec.hpp"

namespace clh {

/// The default budget of `clharness check` (`--build-programs`): programs per cases unit.
inline constexpr int kDefaultBuildPrograms = 8;

/// Where a spec's `build_options` name its sizes (`-DN={N}`), every new value is a new program for
/// the driver to compile (a third of a second each on PoCL, docs/performance.md). A unit keeps to
/// `most` distinct options texts: first the texts of the lowest and the highest option values that
/// a pre-draw of the spec's generator with the unit's seed meets (so the domain's ends are among
/// them, and a rerun with the same seed keeps the same ones), then the first other texts its cases
/// draw. A case that needs a text past the budget is not run (the property discards it); the
/// unit's note names the texts that ran.
/// Whether one program of `spec` (one options text of its `{EXPR}`s) is launched with several
/// local sizes across the real-device domain: the spec's local size, or its global size where the
/// driver chooses, differs between two draws that build the same options (`-DNMAX={NMAX}` with a
/// global size of N). A fixed pre-draw of the generator decides, the same for every run. False
/// where the options name no size (a unit then builds one program for every case anyway).
bool programsMeetSeveralLocalSizes(const Spec& spec);

class ProgramBudget {
 public:
  /// `most` <= 0, or options with no `{EXPR}`: no budget (admit() is always true).
  ProgramBudget(const Spec& spec, bool simulator, uint64_t seed, int most);

  /// Whether a case at `sizes` (complete and in the spec's domain) may run; takes its options text
  /// into the budget while there is room.
  bool admit(const Sizes& sizes);

  /// Whether a budget applies at all.
  bool limited() const { return limited_; }
  /// The texts of the admitted cases, in the order first met (the programs the unit built).
  const std::vector<std::string>& built() const { return built_; }
  /// Cases not run because they needed another program.
  int refused() const { return refused_; }
  /// What the unit's report says when cases were refused: how many programs, which, and what was
  /// not run; empty when none was refused (every size drawn ran).
  std::string note() const;

 private:
  std::vector<int64_t> optionValues(const Sizes& sizes);
  void reserveEnds(bool simulator, uint64_t seed);

  const Spec& spec_;
  ExprEnv env_;
  std::vector<std::string> expressions_;  ///< the `{EXPR}`s of the options, in order
  int most_ = 0;
  bool limited_ = false;
  std::vector<std::string> admitted_;  ///< the budget's texts: the ends first
  std::vector<std::string> built_;
  int refused_ = 0;
};

}  // namespace clh
