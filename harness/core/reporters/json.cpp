// The JSON report.
#include "core/reporters/reporters.hpp"

namespace clh {

void writeJsonReport(std::ostream& os, const Report& report) {
  nlohmann::json j = report;
  os << j.dump(2) << "\n";
}

}  // namespace clh
