// Unit tests of the vendors folder a user names (CLHARNESS_ICD_DIR): the tool rewrites only the
// .icd files it wrote there, never one of the user's (issue 43). No driver is loaded.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "cl/devices.hpp"

namespace fs = std::filesystem;

namespace {

std::string firstLine(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

// The environment registerIcds sets, put back when the test ends.
struct KeptVariable {
  std::string name;
  std::optional<std::string> value;
  explicit KeptVariable(std::string n) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) value = v;
  }
  ~KeptVariable() {
    if (value)
      setenv(name.c_str(), value->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

TEST(IcdFolder, AUsersOwnFilesAreNeverRemovedOrRewritten) {
  KeptVariable vendors("OCL_ICD_VENDORS"), parent(clh::kIcdFolderVariable);
  const fs::path dir = fs::path(::testing::TempDir()) / ("icd-user-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const fs::path user = dir / "mine", system = dir / "system";
  fs::create_directories(user);
  fs::create_directories(system);
  std::ofstream(user / "mine.icd") << "/opt/mine/libMine.so\n";      // the user's own driver
  std::ofstream(user / "pocl.icd") << "/opt/mine/libpocl-dev.so\n";  // the user's, by the name
  std::ofstream(system / "pocl.icd") << "libpocl.so.2\n";            // of a system file
  std::ofstream(system / "other.icd") << "libother.so\n";
  clh::IcdConfig c;
  c.folder = user.string();
  c.system_vendors = system.string();
  c.extra_libraries = {};
  EXPECT_EQ(clh::registerIcds(c), user.string());
  EXPECT_EQ(firstLine(user / "mine.icd"), "/opt/mine/libMine.so");
  EXPECT_EQ(firstLine(user / "pocl.icd"), "/opt/mine/libpocl-dev.so");  // not overwritten
  EXPECT_EQ(firstLine(user / "other.icd"), "libother.so");              // the tool's
  // The system's list changes: the file the tool wrote goes, the user's stay.
  fs::remove(system / "other.icd");
  clh::registerIcds(c);
  EXPECT_FALSE(fs::exists(user / "other.icd"));
  EXPECT_TRUE(fs::exists(user / "mine.icd"));
  EXPECT_EQ(firstLine(user / "pocl.icd"), "/opt/mine/libpocl-dev.so");
  fs::remove_all(dir);
}

}  // namespace
