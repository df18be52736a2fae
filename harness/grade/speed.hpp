// The speed item's arithmetic, as pure functions: a paired measurement's rounds (the median of
// their ratios and its spread), the points a ratio earns, when a losing ratio is measured again
// alone, which of two measurements counts, and the words the feedback says about it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "grade/grade.hpp"
#include "grade/rubric.hpp"

namespace clh::grade {

/// The fewest rounds a speed item measures, whatever its `repeats` says: with 9 rounds, four
/// rounds slowed by the machine (on one side of the pair) cannot move the median past the
/// undisturbed rounds' range. A round is two runs of the case (mmul_tiled's N=128: a kernel of
/// about 3 ms on PoCL on the 2-core development machine); docs/grading.md says what 9 cost.
inline constexpr int kMinSpeedRounds = 9;

/// The rounds a speed item measures: the rubric's `repeats`, at least kMinSpeedRounds.
int speedRounds(const SpeedRule& rule);

/// Whether the student's kernel runs first in round `round` (from 0): the order turns every
/// round (reference then student, student then reference, ...: A B B A A B ...), so that neither
/// kernel always meets the caches and clocks the other one left.
bool studentFirstInRound(int round);

/// The `q`-quantile (0 to 1) of `values`, interpolated linearly between the order statistics
/// (the median of an even count is the mean of the middle two); 0 for no values.
double quantile(std::vector<double> values, double q);

/// The median of a measurement's rounds' ratios, its quartiles and its extremes.
struct RatioSpread {
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;
  int rounds = 0;
};
RatioSpread ratioSpread(const std::vector<double>& ratios);

/// The share of a speed item's points (0 to 1) that a ratio earns: all of them up to
/// `full_within`, then falling linearly to none at `none_beyond` (none at once when that is 0).
double speedFraction(const SpeedRule& rule, double ratio);

/// The item's points for a ratio, rounded as every points figure is (roundPoints).
double speedPoints(const RubricItem& item, double ratio);

/// Whether a measurement would cost the student points (as rounded): such a ratio is measured
/// again alone before it is charged. A sample without a timing (the kernel failed at the timed
/// case) is not: a wrong result is no matter of the machine's load.
bool speedNeedsRerun(const RubricItem& item, const SpeedSample& first);

/// The measurement that counts once a losing one was measured again alone: the one with the lower
/// median ratio (the machine's load only ever slows a kernel; a rerun never charges what the
/// first try did not), marked `rerun`, with the other's rounds kept. Without a rerun sample, or
/// one with no timing, the first counts and `rerun_problem` says why (`why_none`).
SpeedSample confirmedSpeed(const SpeedSample& first, const std::optional<SpeedSample>& alone,
                           const std::string& why_none);

/// What a rerun alone gave: its sample, or none and why.
struct AloneMeasurement {
  std::optional<SpeedSample> sample;
  std::string why_none;
};

/// The sample that counts on one device: `first` when it keeps every point; else
/// `measure_alone` runs (the caller measures the timed case again with nothing else of the batch
/// beside it) and confirmedSpeed picks.
SpeedSample speedThatCounts(const RubricItem& item, const SpeedSample& first,
                            const std::function<AloneMeasurement()>& measure_alone);

/// The feedback's sentence on a timed sample: "measured 1.42x the reference solution's time
/// (median of 9 rounds, quartiles 1.35-1.51x) ...", and how a rerun alone went.
std::string speedNote(const SpeedRule& rule, const SpeedSample& s);

}  // namespace clh::grade
