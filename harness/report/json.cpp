// The JSON report (docs/report.md); an interrupted run's is marked incomplete.
#include "report/reporters.hpp"

namespace clh {

void writeJsonReport(std::ostream& os, const Report& report) {
  nlohmann::json j = report;
  if (!report.interrupted_by.empty()) {
    j["incomplete"] = true;
    j["interrupted_by"] = report.interrupted_by;
    j["units_planned"] = report.units_planned;
  }
  os << j.dump(2) << "\n";
}

}  // namespace clh
