// Reporters: small functions from a Report value to text a person or a machine reads.
#pragma once

#include <ostream>
#include <string>

#include "core/result.hpp"

namespace clh {

/// The terminal summary: one row per unit, then the details of each failure with its replay
/// command, then a totals line.
void writeConsoleReport(std::ostream& os, const Report& report);
/// The details block of one unit (findings, mismatches, replay) — used by the console report.
void writeUnitDetails(std::ostream& os, const UnitResult& unit);
/// The driver section: per device, what the driver did where the specification forbids or leaves
/// open, with its baseline marks (part of the console report).
void writeDriverSection(std::ostream& os, const Report& report);
/// The JSON report (docs/report.md).
void writeJsonReport(std::ostream& os, const Report& report);
/// JUnit XML: one testsuite per spec, one testcase per device.
void writeJUnitReport(std::ostream& os, const Report& report);

/// One self-contained HTML page (docs/report.md, "HTML"): summary, devices, the driver matrix,
/// and per spec its units, findings with their source lines, replay commands and plots.
void writeHtmlReport(std::ostream& os, const Report& report);

/// "c[3, 1]: got 0.5, want 0.7 (never written)".
std::string describeMismatch(const Mismatch& m);

}  // namespace clh
