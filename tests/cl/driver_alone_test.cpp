// Tests of the vendors folder a unit's process gets (cl/driver_alone.hpp): the variables it
// replaces in an environment (no driver), and on the drivers here each device's folder names the
// library that gives its platform, one folder a driver (label cl;device).
#include "cl/driver_alone.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/kinds.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> icdFiles(const fs::path& folder) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(folder)) out.push_back(e.path().filename().string());
  return out;
}

std::string namedLibrary(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(DriverAlone, TheFolderReplacesBothVariablesAndNothingElse) {
  const std::string inherited = clh::kIcdFolderVariable;
  const std::vector<std::string> env = {"PATH=/bin", "OCL_ICD_VENDORS=/run/all", "HOME=/h",
                                        inherited + "=/run/all", "POCL_DEBUG=1"};
  const auto out = clh::withIcdFolder(env, "/run/pocl-alone");
  auto count = [&](const std::string& v) { return std::count(out.begin(), out.end(), v); };
  EXPECT_EQ(out.size(), env.size());
  EXPECT_EQ(count("OCL_ICD_VENDORS=/run/pocl-alone"), 1);
  EXPECT_EQ(count(inherited + "=/run/pocl-alone"), 1);
  EXPECT_EQ(count("OCL_ICD_VENDORS=/run/all"), 0);
  for (const char* kept : {"PATH=/bin", "HOME=/h", "POCL_DEBUG=1"}) EXPECT_EQ(count(kept), 1);
  // With neither variable set, both are added.
  EXPECT_EQ(clh::withIcdFolder({"PATH=/bin"}, "/f").size(), 3u);
}

// Every device of this process (a private ICD folder, as a top-level run makes) gets a folder
// whose one .icd file names the library its platform came from; devices of one driver share it,
// and no two drivers do. OCL_ICD_FILENAMES, which the loader adds to any folder, turns it off.
TEST(DriverAloneOnDevices, EachDriverGetsAFolderNamingItAlone) {
  const auto& all = clh::test::allDevices();
  if (all.empty()) GTEST_SKIP() << "no OpenCL device here";
  std::map<std::string, std::string> folderOf;  // platform -> folder
  for (const auto& d : all) {
    SCOPED_TRACE(d.displayName());
    const std::string lib = d.icdLibrary();
    ASSERT_FALSE(lib.empty());
    const std::string folder = clh::driverAloneFolder(d);
    ASSERT_FALSE(folder.empty());
    EXPECT_EQ(icdFiles(folder), std::vector<std::string>{"driver.icd"});
    EXPECT_EQ(namedLibrary(fs::path(folder) / "driver.icd"), lib);
    EXPECT_EQ(clh::driverAloneFolder(d), folder) << "made once a driver";
    if (folderOf.count(d.platform)) EXPECT_EQ(folderOf[d.platform], folder);
    folderOf[d.platform] = folder;
  }
  std::vector<std::string> folders;
  for (const auto& [platform, folder] : folderOf) folders.push_back(folder);
  std::sort(folders.begin(), folders.end());
  EXPECT_EQ(std::unique(folders.begin(), folders.end()), folders.end()) << "one a driver";
  ::setenv("OCL_ICD_FILENAMES", "/opt/other/libOther.so", 1);
  EXPECT_EQ(clh::driverAloneFolder(all.front()), "");
  EXPECT_EQ(clh::deviceChildEnvironment(all.front()), std::nullopt);
  ::unsetenv("OCL_ICD_FILENAMES");
}

}  // namespace
