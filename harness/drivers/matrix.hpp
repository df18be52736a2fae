// The semantics matrix: rows are driver checks, columns are devices. Rendered as a terminal table
// and as JSON; a device's column compared with its committed baseline lists every change.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "drivers/checks.hpp"

namespace clh::drivers {

/// One device's results: a column of the matrix, and the content of a baseline file.
struct DeviceColumn {
  std::string slug;     ///< DeviceInfo::slug(): the baseline's file name without ".json"
  std::string name;     ///< DeviceInfo::displayName()
  std::string version;  ///< CL_DEVICE_VERSION
  std::string driver;   ///< CL_DRIVER_VERSION
  std::vector<CheckResult> results;
};

/// The columns, in device order.
using Matrix = std::vector<DeviceColumn>;

/// A column for a device and its results.
DeviceColumn makeColumn(const clh::DeviceInfo& device, std::vector<CheckResult> results);

/// A cell as a person reads it: "conforms", "deviates: got X, spec requires Y", "observed: V",
/// "skipped: why".
std::string cellText(const CheckResult& result);

/// A table for a terminal: one row per check (in the order of first appearance), one column per
/// device, cells wrapped to `cell_width`; a legend names each device column.
std::string renderTable(const Matrix& matrix, size_t cell_width = 34);

/// JSON of one column (what a baseline file holds) and of a whole matrix.
nlohmann::json toJson(const DeviceColumn& column);
nlohmann::json toJson(const Matrix& matrix);
/// Reads what toJson wrote; throws std::runtime_error naming the missing or bad field.
DeviceColumn columnFromJson(const nlohmann::json& json);
/// Reads a matrix, or a single column as a matrix of one.
Matrix matrixFromJson(const nlohmann::json& json);

/// What changed for one check of one device.
struct Change {
  enum class Kind {
    regression,  ///< conforms before, deviates now
    fix,         ///< deviates before, conforms now
    changed,     ///< any other difference (another code, another observed value, skipped)
    added,       ///< a check the baseline does not have
    removed,     ///< a check of the baseline that did not run
  };
  Kind kind = Kind::changed;
  std::string device;  ///< slug
  std::string check;   ///< check id
  std::string before;  ///< cellText in the baseline ("" for added)
  std::string after;   ///< cellText now ("" for removed)
  /// "regression  pocl-...  buffer.invalid.use_and_copy: conforms -> deviates: got ...".
  std::string toString() const;
};
const char* toString(Change::Kind kind);

/// Every change of `current` against `baseline` (same device), in the current check order, then
/// removed checks. Compares verdict, got, required and observed; never `detail`.
std::vector<Change> compareWithBaseline(const DeviceColumn& current, const DeviceColumn& baseline);

}  // namespace clh::drivers
