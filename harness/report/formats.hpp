// Report formats as plug-ins: each is a name, a line for --help and a writer from a Report value to
// a stream. The console, JSON and JUnit formats are built in; a program that links clharness adds
// its own with registerReportFormat, and `check --report NAME=FILE` writes it.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace clh {

struct ReportFormat {
  std::string name;         ///< what --report NAME=FILE takes
  std::string description;  ///< one line for --help and docs
  std::function<void(std::ostream&, const Report&)> write;
};

/// Adds a format; one with the same name as an earlier one replaces it.
void registerReportFormat(ReportFormat format);

/// Every format, the built-in ones first.
std::vector<ReportFormat> reportFormats();

/// The format of this name, or nullptr.
const ReportFormat* findReportFormat(const std::string& name);

/// One report to write: a format's name and the file it goes to.
struct ReportOutput {
  std::string format;
  std::string path;
};

/// Parses "NAME=FILE"; throws std::invalid_argument naming the known formats when NAME is not one.
ReportOutput parseReportOutput(const std::string& text);

/// Writes each output whole (a temporary file, then a rename). False (after printing why on
/// stderr) when one could not be written.
bool writeReportOutputs(const Report& report, const std::vector<ReportOutput>& outputs);

}  // namespace clh
