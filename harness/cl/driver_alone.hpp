// A child process that works on one device loads that device's driver alone: which ICD library
// provides a device, and the environment that names it alone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cl/devices.hpp"

namespace clh {

/// A vendors folder that names the driver of `device` alone (made once a driver in this process,
/// cl/devices.hpp makeDriverAloneFolder), for a child that works on that device only: the child
/// then loads and starts no other driver (some 45 ms of CPU each for PoCL and Oclgrind, whose
/// LLVM the dynamic loader relocates). Empty where the driver cannot be told, in a child of the
/// tool (it uses its parent's folders), or where the user names drivers in OCL_ICD_FILENAMES (the
/// loader adds those to any folder).
std::string driverAloneFolder(const DeviceInfo& device);

/// `env` ("NAME=VALUE" each) with OCL_ICD_VENDORS and kIcdFolderVariable naming `folder` (the
/// child uses it as it is) in place of any values they had.
std::vector<std::string> withIcdFolder(std::vector<std::string> env, const std::string& folder);

/// ChildOptions::env of a child that works on `device` alone: `env` (none: this process's) with
/// driverAloneFolder(device) as its vendors folder; `env` unchanged where there is no such folder.
std::optional<std::vector<std::string>> deviceChildEnvironment(
    const DeviceInfo& device, std::optional<std::vector<std::string>> env = std::nullopt);

}  // namespace clh
