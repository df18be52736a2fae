// The speed item's statistics, points, rerun rule and feedback sentence (grade/speed.hpp).
#include "grade/speed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace clh::grade {

namespace {

std::string formatNs(double ns) {
  if (ns >= 1e9) return fmt::format("{:.2f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.2f} ms", ns / 1e6);
  return fmt::format("{:.1f} us", ns / 1e3);
}

// "1.42x (median of 9 rounds, quartiles 1.35-1.51x)", the ratio then its spread; a sample of an
// older file, without rounds, has its ratio alone.
struct RatioWords {
  std::string ratio, spread;
};
RatioWords ratioWords(const std::vector<double>& ratios, double fallback) {
  if (ratios.empty()) return {fmt::format("{:.2f}x", fallback), ""};
  const RatioSpread s = ratioSpread(ratios);
  const std::string ratio = fmt::format("{:.2f}x", s.median);
  if (s.rounds == 1) return {ratio, " (one round)"};
  return {ratio,
          fmt::format(" (median of {} rounds, quartiles {:.2f}-{:.2f}x)", s.rounds, s.q1, s.q3)};
}
std::string ratioText(const std::vector<double>& ratios, double fallback) {
  const RatioWords w = ratioWords(ratios, fallback);
  return w.ratio + w.spread;
}

std::string ruleText(const SpeedRule& rule) {
  return fmt::format("full points within {:.2g}x{}", rule.full_within,
                     rule.none_beyond > 0 ? fmt::format(", none beyond {:.2g}x", rule.none_beyond)
                                          : std::string(", none beyond"));
}

}  // namespace

double SpeedSample::ratio() const {
  if (!ratios.empty()) return quantile(ratios, 0.5);
  return reference_ns > 0 ? student_ns / reference_ns : 0;
}

int speedRounds(const SpeedRule& rule) {
  return std::max(rule.repeats, kMinSpeedRounds);
}

bool studentFirstInRound(int round) {
  return round % 2 == 1;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double at = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto below = static_cast<size_t>(std::floor(at));
  const size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (values[above] - values[below]) * (at - static_cast<double>(below));
}

RatioSpread ratioSpread(const std::vector<double>& ratios) {
  RatioSpread s;
  if (ratios.empty()) return s;
  s.rounds = static_cast<int>(ratios.size());
  s.median = quantile(ratios, 0.5);
  s.q1 = quantile(ratios, 0.25);
  s.q3 = quantile(ratios, 0.75);
  s.min = *std::min_element(ratios.begin(), ratios.end());
  s.max = *std::max_element(ratios.begin(), ratios.end());
  return s;
}

double speedFraction(const SpeedRule& rule, double ratio) {
  if (ratio <= rule.full_within) return 1;
  if (rule.none_beyond <= rule.full_within) return 0;
  return std::clamp((rule.none_beyond - ratio) / (rule.none_beyond - rule.full_within), 0.0, 1.0);
}

double speedPoints(const RubricItem& item, double ratio) {
  return roundPoints(item.points * (item.speed ? speedFraction(*item.speed, ratio) : 1.0));
}

bool speedNeedsRerun(const RubricItem& item, const SpeedSample& first) {
  if (!first.problem.empty() || first.ratio() <= 0) return false;
  return speedPoints(item, first.ratio()) < roundPoints(item.points);
}

SpeedSample confirmedSpeed(const SpeedSample& first, const std::optional<SpeedSample>& alone,
                           const std::string& why_none) {
  const bool timed = alone && alone->problem.empty() && alone->ratio() > 0;
  SpeedSample out = timed && alone->ratio() < first.ratio() ? *alone : first;
  out.rerun = true;
  out.alone = timed && alone->ratio() < first.ratio();
  if (timed) {
    out.other_ratios = out.alone ? first.ratios : alone->ratios;
    out.rerun_problem.clear();
  } else {
    out.other_ratios.clear();
    out.rerun_problem = alone && !alone->problem.empty() ? alone->problem
                        : why_none.empty()               ? "it gave no timing"
                                                         : why_none;
  }
  return out;
}

SpeedSample speedThatCounts(const RubricItem& item, const SpeedSample& first,
                            const std::function<AloneMeasurement()>& measure_alone) {
  if (!speedNeedsRerun(item, first)) return first;
  const AloneMeasurement again = measure_alone();
  return confirmedSpeed(first, again.sample, again.why_none);
}

std::string speedNote(const SpeedRule& rule, const SpeedSample& s) {
  const RatioWords w = ratioWords(s.ratios, s.ratio());
  const std::string measured = fmt::format(
      "measured {} the reference solution's time{}: kernel {}, reference {}{}", w.ratio, w.spread,
      formatNs(s.student_ns), formatNs(s.reference_ns), s.ratios.size() > 1 ? " (medians)" : "");
  std::string rerun;
  if (s.rerun && !s.rerun_problem.empty())
    rerun = fmt::format(
        "; measured again alone because this would lose points, the rerun gave no timing ({}), "
        "so this first measurement counts",
        s.rerun_problem);
  else if (s.rerun && s.alone)
    rerun = fmt::format(
        "; this is a second measurement, alone on the device: the first, beside the rest of the "
        "batch, gave {} and would have lost points; the lower median counts",
        ratioText(s.other_ratios, 0));
  else if (s.rerun)
    rerun = fmt::format(
        "; measured again alone because this would lose points, the rerun gave {}; the lower "
        "median counts",
        ratioText(s.other_ratios, 0));
  return measured + " (" + ruleText(rule) + ")" + rerun;
}

}  // namespace clh::grade
