// The values grading's unit tests share: the repository root, two device names and the
// assignments they grade against (loaded once).
#pragma once

#include <string>

#include "grade/rubric.hpp"

namespace clh::grade::fixtures {

inline const std::string kRoot = CLHARNESS_SOURCE_ROOT;
inline const std::string kPocl = "Portable Computing Language: pthread-x";
inline const std::string kSim = "Oclgrind: Oclgrind Simulator";

inline const Assignment& vadd() {
  static const Assignment a = loadAssignment("vadd", kRoot);
  return a;
}
inline const Assignment& tiled() {
  static const Assignment a = loadAssignment("mmul_tiled", kRoot);
  return a;
}

}  // namespace clh::grade::fixtures
