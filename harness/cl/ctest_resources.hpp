// CTest's resource allocation as clharness reads and writes it: `--device ctest:TYPE` (the device
// ctest gave a test with RESOURCE_GROUPS "TYPE:1") and the resource spec file of
// `clharness devices --ctest-resources TYPE` (docs/ci.md).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cl/devices.hpp"

namespace clh {

/// `--device ctest:TYPE`: the device ctest allocated to the test, of resource type TYPE.
inline constexpr const char* kCtestDevicePrefix = "ctest:";

/// The environment variables ctest sets for a test with RESOURCE_GROUPS begin with this; main()
/// hands them to the commands in ToolConfig::ctest_resources.
inline constexpr const char* kCtestResourceVariablePrefix = "CTEST_RESOURCE_GROUP";

/// Environment variables by name.
using EnvironmentVariables = std::map<std::string, std::string>;

/// Whether ctest accepts `type` as a resource type name: a lower-case letter or '_', then
/// lower-case letters, digits or '_'.
bool isCtestResourceType(const std::string& type);

/// Throws std::invalid_argument ("OPTION: 'T' is not a CTest resource type (...)") when `type` is
/// not one.
void requireCtestResourceType(const std::string& option, const std::string& type);

/// The row number of `clharness devices` that ctest allocated to this test for resource type
/// `type`: the id of CTEST_RESOURCE_GROUP_0_<TYPE in upper case> ("id:2,slots:1"), after
/// CTEST_RESOURCE_GROUP_COUNT (at least 1) and CTEST_RESOURCE_GROUP_0 (a list naming `type`).
/// Throws std::invalid_argument (a usage error) when `type` is no resource type name or a
/// variable is missing or malformed; the message says what ctest must be given (the test's
/// RESOURCE_GROUPS "TYPE:1" and `ctest --resource-spec-file FILE`). The row itself is not looked
/// up: an id that is no row is for the caller to report.
int ctestAllocatedRow(const std::string& type, const EnvironmentVariables& env);

/// A CTest resource spec file (JSON, version 1.0) with one resource of type `type` per device, its
/// id the device's row number (DeviceInfo::number), 1 slot each. Throws std::invalid_argument when
/// `type` is no resource type name.
std::string ctestResourceSpec(const std::string& type, const std::vector<DeviceInfo>& devices);

}  // namespace clh
