// The HTML page of `clharness semantics --html FILE`: its matrix drawn by the report layer's
// driver matrix (report/html.hpp), with the changes against a baseline marked on the cells.
#pragma once

#include <ostream>
#include <vector>

#include "core/result.hpp"
#include "drivers/matrix.hpp"

namespace clh::drivers {

/// The matrix as report driver sections, one per column: conforming rows named in
/// `conforming_checks`, the others as findings. With `changes` (one list per column, from
/// compareWithBaseline) each row is marked: unchanged known, regression, fix, new (a check the
/// baseline lacks), and a check only the baseline has is a finding marked missing.
std::vector<DriverReport> matrixSections(const Matrix& matrix,
                                         const std::vector<std::vector<Change>>* changes);

/// The page: the devices, the matrix and, with a baseline, the list of changes.
void writeSemanticsHtml(std::ostream& os, const Matrix& matrix,
                        const std::vector<std::vector<Change>>* changes);

}  // namespace clh::drivers
