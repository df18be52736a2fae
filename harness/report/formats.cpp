// The registry of report formats (report/formats.hpp).
#include "report/formats.hpp"

#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "core/files.hpp"
#include "report/reporters.hpp"

namespace clh {

namespace {

std::mutex& lock() {
  static std::mutex m;
  return m;
}

std::vector<ReportFormat>& formats() {
  static std::vector<ReportFormat> all = {
      {"console", "the terminal summary, the details of each failure and the driver section",
       writeConsoleReport},
      {"json", "the whole report as JSON (docs/report.md)", writeJsonReport},
      {"junit", "JUnit XML: one testsuite per spec, one testcase per device", writeJUnitReport},
      {"html",
       "one self-contained HTML page: summary, driver matrix, plots, findings with their source "
       "(docs/report.md)",
       writeHtmlReport},
  };
  return all;
}

}  // namespace

void registerReportFormat(ReportFormat format) {
  std::lock_guard<std::mutex> guard(lock());
  for (auto& f : formats())
    if (f.name == format.name) {
      f = std::move(format);
      return;
    }
  formats().push_back(std::move(format));
}

std::vector<ReportFormat> reportFormats() {
  std::lock_guard<std::mutex> guard(lock());
  return formats();
}

const ReportFormat* findReportFormat(const std::string& name) {
  std::lock_guard<std::mutex> guard(lock());
  for (const auto& f : formats())
    if (f.name == name) return &f;
  return nullptr;
}

ReportOutput parseReportOutput(const std::string& text) {
  const auto eq = text.find('=');
  ReportOutput out;
  if (eq != std::string::npos) out = {text.substr(0, eq), text.substr(eq + 1)};
  if (eq == std::string::npos || out.path.empty() || !findReportFormat(out.format)) {
    std::string names;
    for (const auto& f : reportFormats()) names += (names.empty() ? "" : ", ") + f.name;
    throw std::invalid_argument("--report '" + text +
                                "': expected FORMAT=FILE with FORMAT one of " + names);
  }
  return out;
}

bool writeReportOutputs(const Report& report, const std::vector<ReportOutput>& outputs) {
  bool ok = true;
  for (const auto& o : outputs) {
    const ReportFormat* f = findReportFormat(o.format);
    if (!f) {
      std::cerr << "clharness: no report format '" << o.format << "'\n";
      ok = false;
      continue;
    }
    std::ostringstream os;
    f->write(os, report);
    try {
      writeFileAtomically(o.path, os.str());
    } catch (const std::exception& e) {
      std::cerr << "clharness: " << e.what() << "\n";
      ok = false;
    }
  }
  return ok;
}

}  // namespace clh
