// The recipes of docs/architecture.md done once through the built tool: a kernel and its spec in a
// folder of their own (the reference is one the tool has) are checked and pass, a broken copy of
// the kernel fails with a replay command; and an output format is chosen by name with --report.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/tool_run.hpp"

namespace fs = std::filesystem;
using clh::test::runTool;

namespace {

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// A new kernel: the sum of two vectors written another way than the catalog's vadd, checked
// against the tool's vadd_f32 reference, from a folder outside the repository.
fs::path newKernel(const std::string& body) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("clh-recipe-" + std::to_string(getpid()));
  fs::create_directories(dir);
  write(dir / "vsum.cl",
        "__kernel void vsum(__global const float* x, __global const float* y,\n"
        "                   __global float* z, const unsigned n) {\n"
        "  size_t i = get_global_id(0);\n"
        "  if (i < n) " +
            body + "\n}\n");
  write(dir / "vsum.yaml",
        "name: recipe_vsum\n"
        "source: vsum.cl\n"
        "reference: vadd_f32\n"
        "params:\n"
        "  N: {range: [1, 4096], simulator: [1, 64]}\n"
        "  L: {one_of: [1, 16, 64]}\n"
        "  G: {value: ceil(N / L) * L}\n"
        "buffers:\n"
        "  a: {type: float, count: N, init: \"uniform(-1, 1)\"}\n"
        "  b: {type: float, count: N, init: \"uniform(-1, 1)\"}\n"
        "  c: {type: float, count: N, role: out, compare: exact}\n"
        "kernel: vsum\n"
        "args: [a, b, c, {scalar: uint, name: count, value: N}]\n"
        "global: [G]\n"
        "local: [L]\n");
  return dir;
}

TEST(Recipes, AddAKernelInAFolderOfItsOwn) {
  const fs::path dir = newKernel("z[i] = y[i] + x[i];");
  const auto ok = runTool("check " + (dir / "vsum.yaml").string() +
                          " --device pocl --cases 20 --launch-shapes 0 --no-driver-checks");
  if (ok.code == 3) GTEST_SKIP() << "no PoCL here";
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("recipe_vsum"), std::string::npos) << ok.out;

  const fs::path broken = newKernel("z[i] = y[i] - x[i];");
  const auto bad = runTool("check " + (broken / "vsum.yaml").string() +
                           " --device pocl --cases 20 --launch-shapes 0 --no-driver-checks");
  EXPECT_EQ(bad.code, 1) << bad.out;
  EXPECT_NE(bad.out.find("--sizes"), std::string::npos) << "no replay command:\n" << bad.out;
  fs::remove_all(dir);
}

TEST(Recipes, AnOutputFormatIsChosenByName) {
  const fs::path dir = newKernel("z[i] = x[i] + y[i];");
  const fs::path xml = dir / "r.xml", js = dir / "r.json";
  const auto r = runTool("check " + (dir / "vsum.yaml").string() +
                         " --device pocl --cases 5 --launch-shapes 0 --no-driver-checks "
                         "--report junit=" +
                         xml.string() + " --report json=" + js.string());
  if (r.code == 3) GTEST_SKIP() << "no PoCL here";
  EXPECT_EQ(r.code, 0) << r.out;
  std::ifstream in(js);
  const auto j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "no JSON report";
  EXPECT_EQ(j["units"].size(), 1u);
  EXPECT_TRUE(fs::exists(xml));

  const auto unknown = runTool("check " + (dir / "vsum.yaml").string() + " --report yaml=x");
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("junit"), std::string::npos) << unknown.out;
  fs::remove_all(dir);
}

}  // namespace
