// Fixture paths for the core tests, and the test-only reference the fixture specs name, so the
// tests do not depend on which kernel references exist in harness/references.
#include "core_test_support.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/reference.hpp"

CLH_REFERENCE(core_test_copy) {
  auto a = c.in<float>("a");
  auto out = c.out<float>("c");
  for (size_t i = 0; i < out.size() && i < a.size(); ++i) out[i] = a[i];
}

namespace clh::test {

std::string coreTestDir() {
  return CLH_CORE_TEST_DIR;
}
std::string sourceRoot() {
  return CLHARNESS_SOURCE_ROOT;
}
std::string specPath(const std::string& name) {
  return coreTestDir() + "/specs/" + name;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace clh::test
