// CTest's resource variables read, and its resource spec file written (cl/ctest_resources.hpp).
#include "cl/ctest_resources.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace clh {

namespace {

bool allDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool isCtestResourceType(const std::string& type) {
  if (type.empty() || !(std::islower(static_cast<unsigned char>(type[0])) || type[0] == '_'))
    return false;
  return std::all_of(type.begin(), type.end(), [](char ch) {
    const unsigned char c = static_cast<unsigned char>(ch);
    return std::islower(c) || std::isdigit(c) || c == '_';
  });
}

void requireCtestResourceType(const std::string& option, const std::string& type) {
  if (!isCtestResourceType(type))
    throw std::invalid_argument(option + ": '" + type +
                                "' is not a CTest resource type (a lower-case letter or '_', "
                                "then lower-case letters, digits or '_')");
}

int ctestAllocatedRow(const std::string& type, const EnvironmentVariables& env) {
  const std::string what = std::string("--device ") + kCtestDevicePrefix + type + ": ";
  requireCtestResourceType(std::string("--device ") + kCtestDevicePrefix + type, type);
  const std::string hint = "ctest sets it for a test with RESOURCE_GROUPS \"" + type +
                           ":1\" when it runs with --resource-spec-file FILE (`clharness devices "
                           "--device WHAT --ctest-resources " +
                           type + " > FILE` writes one; docs/ci.md)";
  auto get = [&](const std::string& name) {
    auto it = env.find(name);
    if (it == env.end() || it->second.empty())
      throw std::invalid_argument(what + name + " is not set: " + hint);
    return it->second;
  };
  auto malformed = [&](const std::string& name, const std::string& value, const std::string& why) {
    return std::invalid_argument(what + name + "='" + value + "' " + why + ": " + hint);
  };

  const std::string countName = std::string(kCtestResourceVariablePrefix) + "_COUNT";
  const std::string count = get(countName);
  if (!allDigits(count) || count.size() > 6 || std::stoi(count) < 1)
    throw malformed(countName, count, "is not a number of resource groups");

  const std::string groupName = std::string(kCtestResourceVariablePrefix) + "_0";
  const std::string group = get(groupName);
  const auto types = split(group, ',');
  if (std::find(types.begin(), types.end(), type) == types.end())
    throw malformed(groupName, group, "names no resource of type " + type);

  const std::string allocName = groupName + "_" + upper(type);
  const std::string alloc = get(allocName);
  const auto resources = split(alloc, ';');
  if (resources.size() != 1)
    throw malformed(allocName, alloc, "names more than one resource, not one device");
  std::string id, slots;
  for (const auto& field : split(resources[0], ',')) {
    const auto colon = field.find(':');
    const std::string key = field.substr(0, colon);
    const std::string value = colon == std::string::npos ? "" : field.substr(colon + 1);
    if (colon == std::string::npos || (key != "id" && key != "slots") ||
        !(key == "id" ? id : slots).empty())
      throw malformed(allocName, alloc, "is not of the form id:ID,slots:N");
    (key == "id" ? id : slots) = value;
  }
  if (id.empty() || !allDigits(slots))
    throw malformed(allocName, alloc, "is not of the form id:ID,slots:N");
  if (!allDigits(id) || id.size() > 6)
    throw malformed(allocName, alloc,
                    "has an id that is not a row number of `clharness devices` (the resource "
                    "spec file was not written by `clharness devices --ctest-resources`)");
  return std::stoi(id);
}

std::string ctestResourceSpec(const std::string& type, const std::vector<DeviceInfo>& devices) {
  requireCtestResourceType("--ctest-resources", type);
  std::string out =
      "{\n  \"version\": {\"major\": 1, \"minor\": 0},\n  \"local\": [\n    {\n      \"" + type +
      "\": [";
  for (size_t i = 0; i < devices.size(); ++i) {
    out += std::string(i ? "," : "") + "\n        {\"id\": \"" + std::to_string(devices[i].number) +
           "\", \"slots\": 1}";
  }
  out += devices.empty() ? "]" : "\n      ]";
  out += "\n    }\n  ]\n}\n";
  return out;
}

}  // namespace clh
