// An example check family built on the clharness libraries, the recipe "add a check family" of
// docs/architecture.md done once: `repeat` runs one case of a spec several times with the same
// sizes and data and fails when the outcomes differ (a kernel whose results depend on the order
// work-items run in, on a real device). Its result is a UnitResult of family "repeat", written by
// the same reporters as `clharness check`.
//
//   clharness_repeat_example SPEC --sizes N=1000,L=16 [--root DIR] [--device pocl] [--times 5]
//                            [--json FILE]
#include <CLI/CLI.hpp>
#include <iostream>

#include "cl/session.hpp"
#include "cl/tool.hpp"
#include "cl/unit.hpp"
#include "core/sizes.hpp"
#include "report/formats.hpp"
#include "report/reporters.hpp"

namespace {

// What a person compares: each finding's kind and summary, in order.
std::string outcomeKey(const clh::CaseOutcome& c) {
  std::string key;
  for (const auto& f : c.findings) key += std::string(toString(f.kind)) + ": " + f.summary + "\n";
  return key.empty() ? "agrees with the reference\n" : key;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"repeat: one case of a spec, several times; the outcomes must be the same"};
  std::string spec_file, sizes_text, root, device = "pocl", json;
  int times = 5;
  app.add_option("spec", spec_file)->required();
  app.add_option("--sizes", sizes_text)->required();
  app.add_option("--root", root, "where the spec's source: resolves (besides its own folder)");
  app.add_option("--device", device);
  app.add_option("--times", times)->check(CLI::Range(2, 1000));
  app.add_option("--json", json);
  CLI11_PARSE(app, argc, argv);

  clh::ToolConfig config;  // the drivers the system lists
  const auto devices = clh::findDevices(config, device);
  if (devices.empty()) return clh::kExitNoDevice;
  clh::Spec spec;
  clh::Sizes sizes;
  try {
    spec = clh::loadSpec(spec_file, root);
    sizes = clh::parseSizes(sizes_text);
  } catch (const std::exception& e) {
    std::cerr << "repeat: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  clh::DeviceSession session(devices.front());  // a real device: no simulator session

  clh::UnitResult unit = clh::unitFor(spec, devices.front(), 1, "repeat");
  std::string first;
  for (int i = 0; i < times; ++i) {
    const clh::CaseOutcome c = session.runCase(spec, sizes, /*seed=*/1);
    ++unit.cases_run;
    if (i == 0) {
      first = outcomeKey(c);
      continue;
    }
    if (outcomeKey(c) == first) continue;
    clh::CaseOutcome failing = c;
    clh::Finding f;
    f.kind = clh::FindingKind::wrong_result;
    f.summary = "run " + std::to_string(i + 1) + " of the same case differs from run 1";
    f.device = unit.device;
    failing.findings.insert(failing.findings.begin(), f);
    unit.failing = failing;
    unit.status = clh::Status::fail;
    unit.message = "run 1: " + first + "run " + std::to_string(i + 1) + ": " + outcomeKey(c);
    break;
  }
  if (unit.status == clh::Status::pass)
    unit.message = std::to_string(times) + " runs of " + clh::formatSizes(sizes) + ", the same " +
                   "outcome each time: " + first;

  clh::Report report;
  report.devices = {devices.front().displayName()};
  report.units = {unit};
  clh::writeConsoleReport(std::cout, report);
  if (!json.empty() && !clh::writeReportOutputs(report, {{"json", json}})) return clh::kExitUsage;
  return clh::reportPasses(report) ? clh::kExitOk : clh::kExitCheckFailed;
}
