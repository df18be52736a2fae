// The shared pieces of the HTML reports (check, merge, semantics, grade): escaping, the page shell,
// the driver matrix, SVG plots drawn here, and kernel source with the involved lines marked.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace clh::html {

/// Text made safe for HTML content and attribute values: & < > " ' escaped, control characters
/// other than tab and newline shown as U+FFFD. Everything that comes from a kernel, a spec, a
/// driver or a student goes through it.
std::string escape(std::string_view text);

/// An id for an anchor made from any text: [A-Za-z0-9_-] kept, anything else '_', and then a
/// short hash of the text when something was replaced, so that two texts never share one.
std::string anchorId(std::string_view prefix, std::string_view text);

/// The opening of a page: doctype, a Content-Security-Policy that forbids every fetch, the style
/// sheet, the small script that records script errors (`data-errors`) and load (`data-ready`) on
/// <html>, and an <h1> with `title`.
void beginPage(std::ostream& os, const std::string& title);
/// The end of the page (a footer naming the tool).
void endPage(std::ostream& os, const std::string& tool_version);

/// A coloured word for a status or verdict: <span class="badge s-WORD">WORD</span>.
std::string badge(std::string_view word, std::string_view css_class);

/// "12 ms", "3.4 s", "870 ns": a duration for people.
std::string formatNs(double ns);

/// The colour of the n-th device or series (a fixed palette, cycled).
std::string seriesColor(size_t n);

// --- The driver matrix: checks x devices ------------------------------------------------------

/// One cell: a check's outcome on one device.
struct MatrixCell {
  std::string verdict;  ///< conforms, deviates, crashed, hung, observed, skipped
  std::string mark;     ///< baseline mark: "", known, new, regression, fix, missing, flaky
  std::string text;     ///< what the cell says (got, observed value, reason)
  std::string detail;   ///< for the tooltip: what is allowed, the baseline's outcome, the replay
};

struct DriverMatrix {
  std::vector<std::string> devices;                         ///< the columns
  std::vector<std::pair<std::string, std::string>> checks;  ///< the rows: id, title
  std::map<std::pair<size_t, size_t>, MatrixCell> cells;    ///< (row, column); absent: not run
  std::vector<std::string> notes;  ///< e.g. a device whose conforming checks are not listed
};

/// The matrix of driver sections: a row per check any device reported, a column per device. A
/// check a device did not report is no cell (drawn "not run"), never a conforming one: conforming
/// cells come only from DriverReport::conforming_checks.
DriverMatrix driverMatrix(const std::vector<DriverReport>& drivers);

/// The class of a cell: "cell v-VERDICT" plus " m-MARK" for a mark other than none and known;
/// "cell absent" for nullptr (a check the device did not report).
std::string cellClass(const MatrixCell* cell);

/// The matrix as a <table class="matrix">, with its legend and notes.
std::string renderMatrix(const DriverMatrix& matrix);

// --- Plots -------------------------------------------------------------------------------------

struct PlotSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  ///< (x, y); points with x or y <= 0 are left
                                                  ///< out on a log axis
  std::string color;                              ///< CSS colour
  bool hollow = false;                            ///< open markers (a second series of a device)
};

struct Plot {
  std::string title;
  std::string x_label, y_label;  ///< said on the axes: what x and y are, with units
  std::vector<PlotSeries> series;
  bool log_x = true;  ///< sizes span decades
  /// y on a log scale when the values span more than 50x (auto), or always / never.
  enum class LogY { automatic, always, never } log_y = LogY::automatic;
  std::string empty_note;  ///< what to say when there is no point: "nothing to plot: ..."
};

/// An inline <svg class="plot"> with axes, ticks, labels, a legend and one <circle class="pt">
/// per point (data-x, data-y hold the values); a <p class="noplot"> with `empty_note` when no
/// series has a point that can be drawn.
std::string renderPlot(const Plot& plot);

/// A bar chart (a histogram): one <rect class="bar"> per bin, labelled below.
struct Bar {
  std::string label;
  double value = 0;
};
std::string renderBars(const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<Bar>& bars);

// --- Kernel source ----------------------------------------------------------------------------

/// The file a finding's `lines[].file` names, looked for as given, against the working folder,
/// and against each of `folders` (the spec file's folder, ...); "" when none exists.
std::string findSourceFile(const std::string& file, const std::vector<std::string>& folders);

/// The source around the involved lines, per file: read now from findSourceFile(); the marked
/// lines highlighted (class "hl"). When the file is not found here (a report from another
/// machine), the lines' own `text` with a note saying the source was not found.
std::string renderSourceLines(const std::vector<SourceLine>& lines,
                              const std::vector<std::string>& folders, int context = 4);

/// A finding for people: kind and summary, the first mismatches, the work-items, the source
/// lines (renderSourceLines) and the tool's own text folded away. `expected`: drawn as a finding
/// the spec expects rather than a failure.
std::string renderFinding(const Finding& finding, const std::vector<std::string>& folders,
                          bool expected);

/// "N=17, L=16": sizes for people.
std::string formatSizesList(const Sizes& sizes);

}  // namespace clh::html
