// Phase limits of a grading child, scaled by the reference solution's times (time_limits.hpp).
#include "grade/time_limits.hpp"

#include <algorithm>
#include <fstream>

namespace clh::grade {

std::optional<double> ReferenceTimes::of(const Sizes& sizes) const {
  if (auto it = cases.find(sizes); it != cases.end()) return it->second;
  if (cases.empty()) return std::nullopt;
  double slowest = 0;
  for (const auto& [s, t] : cases) slowest = std::max(slowest, t);
  return slowest;
}

void ReferenceTimes::merge(const ReferenceTimes& other) {
  for (const auto& [s, t] : other.cases) cases[s] = t;
  build_s = std::max(build_s, other.build_s);
}

double TimePolicy::caseLimit(const ReferenceTimes& reference, const Sizes& sizes) const {
  const double scaled = multiple * reference.of(sizes).value_or(0);
  return scale * std::max(case_floor_s, scaled);
}

double TimePolicy::buildLimit(const ReferenceTimes& reference) const {
  return scale * std::max(build_floor_s, multiple * reference.build_s);
}

PhaseWatch::PhaseWatch(TimePolicy policy, ReferenceTimes reference)
    : policy_(policy), reference_(std::move(reference)) {}

void PhaseWatch::onEvent(const nlohmann::json& e, double t) {
  const std::string ev = e.value("event", "");
  if (ev == "build_start") {
    building_ = true;
    build_start_ = t;
  } else if (ev == "build_end") {
    if (building_) {
      const double took = t - build_start_;
      built_in_phase_ += took;
      observed_.build_s = std::max(observed_.build_s, took);
      if (reference_case_) reference_.build_s = std::max(reference_.build_s, took);
    }
    building_ = false;
  } else if (ev == "case_start") {
    endCase(t);
    phase_ = e.value("who", "") == "reference" ? "reference" : "case";
    reference_case_ = phase_ == "reference";
    speed_ = e.value("phase", "") == "speed";
    sizes_.reset();
    if (e.contains("sizes") && e["sizes"].is_object()) sizes_ = e["sizes"].get<Sizes>();
    phase_start_ = t;
    built_in_phase_ = 0;
  } else if (ev == "case_end") {
    endCase(t);
    phase_ = "between";
    phase_start_ = t;
    built_in_phase_ = 0;
  } else if (ev == "unit" || ev == "speed" || ev == "trace") {
    endCase(t);
    phase_ = "after";
    phase_start_ = t;
    built_in_phase_ = 0;
  }
}

// A case ends at its case_end, or else where the next one (or the unit's result) begins.
void PhaseWatch::endCase(double t) {
  if ((phase_ == "case" || phase_ == "reference") && sizes_) {
    double took = std::max(0.0, t - phase_start_ - built_in_phase_);
    if (speed_) took /= std::max(1, policy_.speed_runs);  // the speed case: one run's share
    observed_.cases[*sizes_] = took;
    if (reference_case_) reference_.cases[*sizes_] = took;
  }
  reference_case_ = speed_ = false;
}

PhaseStop PhaseWatch::where(double t) const {
  PhaseStop s;
  if (building_) {
    s.phase = "build";
    s.elapsed_s = t - build_start_;
    s.limit_s = policy_.buildLimit(reference_);
    s.sizes = sizes_;
    if (reference_.build_s > 0) s.reference_s = reference_.build_s;
    return s;
  }
  s.phase = phase_;
  s.sizes = sizes_;
  s.elapsed_s = t - phase_start_ - built_in_phase_;
  if (phase_ == "case" && sizes_) {
    s.limit_s = policy_.caseLimit(reference_, *sizes_);
    if (speed_) s.limit_s *= std::max(1, policy_.speed_runs);
    s.reference_s = reference_.of(*sizes_);
  } else if (phase_ == "start" || phase_ == "reference") {
    // Making a context, and the reference's own case, are the machine's: the generous limit.
    s.limit_s = policy_.buildLimit(reference_);
  } else {
    // Between cases (the search and shrinking), and after them (the simulator's trace replay):
    // as long as the slowest case may take.
    s.limit_s = policy_.caseLimit(reference_, Sizes{});
    if (phase_ == "after") s.limit_s *= 2;
  }
  return s;
}

std::optional<PhaseStop> PhaseWatch::check(double t) const {
  PhaseStop s = where(t);
  if (s.elapsed_s > s.limit_s) return s;
  return std::nullopt;
}

}  // namespace clh::grade
