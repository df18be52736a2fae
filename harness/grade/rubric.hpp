// Assignments and their rubrics: an assignment is an ordinary spec (its `source:` the reference
// solution) plus a rubric in a sibling `<name>.rubric` file (YAML) saying what earns points.
// docs/grading.md documents the rubric format.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/spec.hpp"

namespace clh::grade {

/// What a rubric item looks at.
enum class ItemCheck {
  build,      ///< the kernel builds (and its kernel is found) on every device
  results,    ///< right results on random sizes on every device; no hang, crash or launch error
  simulator,  ///< no race, out-of-bounds access, uninitialized read or divergence
  speed,      ///< kernel time relative to the reference solution on the same real device
  uses,       ///< the kernel's code uses the techniques named (local memory, barriers, atomics)
};
std::string_view toString(ItemCheck check);
std::optional<ItemCheck> itemCheckFromString(std::string_view word);

/// The finding kinds that cost an item of this check its points when a rubric names none.
std::vector<FindingKind> defaultKinds(ItemCheck check);

/// How a speed item scores: the median, over rounds, of each round's student kernel time over the
/// reference solution's, the two run in turns in the same process on the same device at one
/// fixed case (grade/speed.hpp).
struct SpeedRule {
  std::string sizes;         ///< the timed case, "TS=16,N=256" (the --sizes syntax)
  double full_within = 2.0;  ///< full points while the ratio is at most this
  /// Above full_within the points fall linearly to zero at this ratio; 0: all or nothing.
  double none_beyond = 0;
  /// Rounds of one run of each kernel, at least kMinSpeedRounds; the median of their ratios counts.
  int repeats = 3;
};

/// Points as every grade, feedback, gradebook and summary shows them: to a hundredth (9.998 is
/// 10). An item whose rounded points reach its maximum is a pass.
double roundPoints(double points);

struct RubricItem {
  std::string id;  ///< [A-Za-z0-9_-]+, a column of the gradebook
  std::string title;
  int line = 0;
  double points = 0;
  ItemCheck check = ItemCheck::results;
  std::vector<FindingKind> kinds;  ///< findings of these kinds lose the item (empty for speed)
  std::optional<SpeedRule> speed;  ///< for check: speed
  std::vector<std::string> uses;   ///< for check: uses (knownTechniques())
};

struct Rubric {
  std::string file;
  std::string title;
  int cases = 0;            ///< random cases per real device; 0: the spec's own
  int simulator_cases = 0;  ///< random cases on a simulator; 0: the spec's own
  std::vector<RubricItem> items;

  double maxPoints() const;
  /// The item that claims findings of `kind`; nullptr when none does.
  const RubricItem* itemFor(FindingKind kind) const;
  /// The first item of a check; nullptr when the rubric has none.
  const RubricItem* firstOf(ItemCheck check) const;
};

/// Reads and validates a rubric; throws SpecError ("FILE:LINE: field: what is wrong").
Rubric loadRubric(const std::string& path);

/// An assignment ready to grade against.
struct Assignment {
  std::string name;      ///< "vadd": the spec file's stem
  std::string argument;  ///< how the user named it (replay commands repeat it)
  std::string spec_file;
  std::string rubric_file;
  Spec spec;  ///< the reference solution's spec, as loaded
  Rubric rubric;
  std::string spec_text, rubric_text, reference_text;  ///< file contents, for fingerprints
};

/// `name_or_spec` is an assignment name (specs/assignments/NAME.yaml under `repo_root`) or the
/// path of a spec; the rubric is the spec's sibling NAME.rubric. Throws SpecError when either is
/// missing or invalid.
Assignment loadAssignment(const std::string& name_or_spec, const std::string& repo_root);

}  // namespace clh::grade
