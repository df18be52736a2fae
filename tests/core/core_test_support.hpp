// Shared helpers of the core tests: where the fixtures are, reading a file whole, and the name of
// the reference the fixture specs use (registered in core_test_support.cpp).
#pragma once

#include <string>

namespace clh::test {

/// tests/core in the source tree (fixtures: specs/, golden/).
std::string coreTestDir();
/// The repository root, which the tool resolves `source:` paths against.
std::string sourceRoot();
/// tests/core/specs/NAME.
std::string specPath(const std::string& name);
/// The whole file; throws std::runtime_error naming it when it cannot be read.
std::string readFile(const std::string& path);

/// The reference every fixture spec names: copies buffer "a" to "c" when both exist.
inline constexpr const char* kTestReference = "core_test_copy";

}  // namespace clh::test
