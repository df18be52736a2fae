// Tests of the YAML spec loader: a full spec keeps every field, a minimal one gets the documented
// defaults, and every file under specs/bad/ fails with the "FILE:LINE: field: message" it states in
// its first line ("# expect-error: LINE: field: message start").
#include "core/spec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core_test_support.hpp"

namespace clh {
namespace {

namespace fs = std::filesystem;
using test::sourceRoot;
using test::specPath;

Spec loadFixture(const std::string& name) {
  return loadSpec(specPath(name), sourceRoot());
}

TEST(SpecLoad, FullSpecKeepsEveryField) {
  Spec s = loadFixture("full.yaml");
  EXPECT_EQ(s.file, specPath("full.yaml"));
  EXPECT_EQ(s.root, sourceRoot());
  EXPECT_EQ(s.name, "core.full-spec_1");
  EXPECT_EQ(s.origin, "tests/core fixture, section 1.2");
  EXPECT_EQ(s.description, "two launches over shared buffers");
  EXPECT_EQ(s.source, "tests/core/specs/kernels/tiled.cl");
  EXPECT_TRUE(fs::equivalent(s.source_path, specPath("kernels/tiled.cl"))) << s.source_path;
  EXPECT_EQ(s.reference, test::kTestReference);

  ASSERT_EQ(s.params.size(), 3u);
  const ParamSpec& ts = s.params[0];
  EXPECT_EQ(ts.name, "TS");
  EXPECT_EQ(ts.line, 8);
  EXPECT_EQ(ts.one_of, (std::vector<int64_t>{2, 4, 8}));
  EXPECT_FALSE(ts.range || ts.value || ts.multiple_of || ts.sim_range);
  const ParamSpec& n = s.params[1];
  EXPECT_EQ(n.name, "N");
  EXPECT_EQ(n.line, 9);
  ASSERT_TRUE(n.range);
  EXPECT_EQ(n.range->first.text, "1");
  EXPECT_EQ(n.range->second.text, "64");
  EXPECT_EQ(n.range->second.line, 9);
  ASSERT_TRUE(n.multiple_of);
  EXPECT_EQ(n.multiple_of->text, "TS");
  ASSERT_TRUE(n.sim_range);
  EXPECT_EQ(n.sim_range->first.text, "TS");
  EXPECT_EQ(n.sim_range->second.text, "16");
  EXPECT_TRUE(n.one_of.empty());
  const ParamSpec& g = s.params[2];
  EXPECT_EQ(g.name, "G");
  ASSERT_TRUE(g.value);
  EXPECT_EQ(g.value->text, "N / TS");
  EXPECT_EQ(g.value->line, 10);

  ASSERT_EQ(s.constraints.size(), 2u);
  EXPECT_EQ(s.constraints[0].text, "N*N <= 4096");
  EXPECT_EQ(s.constraints[1].text, "G >= 1");
  EXPECT_EQ(s.constraints[1].line, 11);
  EXPECT_EQ(s.build_options, "-DTS={TS} -cl-fast-relaxed-math");

  ASSERT_EQ(s.buffers.size(), 4u);
  const BufferSpec& a = s.buffers[0];
  EXPECT_EQ(a.name, "A");
  EXPECT_EQ(a.line, 14);
  EXPECT_EQ(a.type, ElemType::f64);
  EXPECT_EQ(a.count.text, "N*N");
  ASSERT_EQ(a.shape.size(), 2u);
  EXPECT_EQ(a.shape[0].text, "N");
  EXPECT_EQ(a.role, Role::in);
  EXPECT_EQ(a.init.kind, InitSpec::Kind::uniform);
  EXPECT_EQ(a.init.a, -1.0);
  EXPECT_EQ(a.init.b, 1.0);
  EXPECT_EQ(a.init.text, "uniform(-1, 1)");
  EXPECT_EQ(a.compare.kind, CompareSpec::Kind::exact);
  const BufferSpec& b = s.buffers[1];
  EXPECT_EQ(b.name, "B");
  EXPECT_EQ(b.type, ElemType::i32);
  EXPECT_EQ(b.role, Role::inout);
  EXPECT_EQ(b.init.kind, InitSpec::Kind::constant);
  EXPECT_EQ(b.init.a, 7.0);
  EXPECT_EQ(b.compare.kind, CompareSpec::Kind::tolerance);
  EXPECT_EQ(b.compare.abs.text, "1");
  EXPECT_EQ(b.compare.rel.text, "0.5");
  const BufferSpec& c = s.buffers[2];
  EXPECT_EQ(c.name, "C");
  EXPECT_EQ(c.type, ElemType::f32);
  EXPECT_EQ(c.role, Role::out);
  EXPECT_EQ(c.compare.kind, CompareSpec::Kind::ulp);
  EXPECT_EQ(c.compare.ulp, 4);
  const BufferSpec& t = s.buffers[3];
  EXPECT_EQ(t.type, ElemType::u8);
  EXPECT_EQ(t.role, Role::scratch);
  EXPECT_EQ(t.init.kind, InitSpec::Kind::iota);
  EXPECT_TRUE(t.shape.empty());
  EXPECT_EQ(s.findBuffer("C"), &s.buffers[2]);
  EXPECT_EQ(s.findBuffer("nope"), nullptr);

  ASSERT_EQ(s.launches.size(), 2u);
  const LaunchSpec& l0 = s.launches[0];
  EXPECT_EQ(l0.kernel, "first");
  ASSERT_EQ(l0.args.size(), 4u);
  EXPECT_EQ(l0.args[0].kind, ArgSpec::Kind::buffer);
  EXPECT_EQ(l0.args[0].buffer, "A");
  EXPECT_EQ(l0.args[1].buffer, "B");
  EXPECT_EQ(l0.args[2].kind, ArgSpec::Kind::scalar);
  EXPECT_EQ(l0.args[2].type, ElemType::f32);
  EXPECT_EQ(l0.args[2].name, "alpha");
  EXPECT_EQ(l0.args[2].value.text, "0.5 * N");
  EXPECT_EQ(l0.args[3].kind, ArgSpec::Kind::local);
  EXPECT_EQ(l0.args[3].type, ElemType::f32);
  EXPECT_EQ(l0.args[3].value.text, "TS*TS");
  ASSERT_EQ(l0.global.size(), 2u);
  EXPECT_EQ(l0.global[1].text, "N");
  ASSERT_EQ(l0.local.size(), 2u);
  EXPECT_EQ(l0.local[0].text, "TS");
  ASSERT_EQ(l0.offset.size(), 2u);
  EXPECT_EQ(l0.offset[1].text, "1");
  const LaunchSpec& l1 = s.launches[1];
  EXPECT_EQ(l1.kernel, "second");
  ASSERT_EQ(l1.global.size(), 1u);  // a scalar global is one dimension
  EXPECT_EQ(l1.global[0].text, "G");
  EXPECT_TRUE(l1.local.empty());
  EXPECT_TRUE(l1.offset.empty());

  ASSERT_TRUE(s.expect);
  EXPECT_EQ(s.expect->any_of,
            (std::vector<FindingKind>{FindingKind::race, FindingKind::out_of_bounds}));
  EXPECT_EQ(s.expect->devices, "oclgrind.*");
  EXPECT_EQ(s.expect->reason, "the published kernel forgets a barrier");
  EXPECT_EQ(s.expect->line, 28);
  EXPECT_EQ(s.cases, 7);
  EXPECT_EQ(s.sim_cases, 3);
  ASSERT_TRUE(s.flops);
  EXPECT_EQ(s.flops->text, "2*N*N*N");
  ASSERT_TRUE(s.bytes);
  EXPECT_EQ(s.bytes->text, "12*N*N");
  EXPECT_EQ(s.labels, (std::map<std::string, std::string>{{"level", "3"}, {"seed", "handson"}}));
}

TEST(SpecLoad, MinimalSpecGetsTheDocumentedDefaults) {
  // Loaded without a repository root: `source:` resolves against the spec's own folder.
  Spec s = loadSpec(specPath("minimal.yaml"));
  EXPECT_TRUE(fs::equivalent(s.source_path, specPath("kernels/copy.cl"))) << s.source_path;
  EXPECT_EQ(s.origin, "");
  EXPECT_EQ(s.description, "");
  EXPECT_TRUE(s.params.empty());
  EXPECT_TRUE(s.constraints.empty());
  EXPECT_EQ(s.build_options, "");
  ASSERT_EQ(s.buffers.size(), 1u);
  const BufferSpec& c = s.buffers[0];
  EXPECT_EQ(c.type, ElemType::f32);  // docs: float unless stated
  EXPECT_EQ(c.role, Role::out);
  EXPECT_EQ(c.init.kind, InitSpec::Kind::zero);
  EXPECT_EQ(c.compare.kind, CompareSpec::Kind::exact);
  ASSERT_EQ(s.launches.size(), 1u);
  EXPECT_EQ(s.launches[0].kernel, "fill");
  EXPECT_TRUE(s.launches[0].local.empty());  // NULL local size: the driver chooses
  EXPECT_TRUE(s.launches[0].offset.empty());
  EXPECT_FALSE(s.expect);
  EXPECT_EQ(s.cases, 100);
  EXPECT_EQ(s.sim_cases, 10);
  EXPECT_FALSE(s.flops);
  EXPECT_FALSE(s.bytes);
  EXPECT_TRUE(s.labels.empty());
}

TEST(SpecTypes, SpellingsAndSizes) {
  const std::pair<const char*, size_t> types[] = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
      {"uint", 4}, {"long", 8},  {"ulong", 8}, {"float", 4},  {"double", 8}};
  for (const auto& [name, size] : types) {
    auto t = elemTypeFromString(name);
    ASSERT_TRUE(t) << name;
    EXPECT_EQ(toString(*t), name);
    EXPECT_EQ(sizeOf(*t), size) << name;
    EXPECT_EQ(isFloat(*t), std::string(name) == "float" || std::string(name) == "double");
  }
  EXPECT_FALSE(elemTypeFromString("float4"));
  EXPECT_FALSE(elemTypeFromString("half"));
}

TEST(SpecFiles, FindsYamlRecursivelySortedAndRejectsMissingPaths) {
  auto files = findSpecFiles({specPath("bad"), specPath("minimal.yaml"), specPath("bad")});
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end()));
  EXPECT_EQ(std::adjacent_find(files.begin(), files.end()), files.end()) << "duplicates kept";
  EXPECT_NE(std::find(files.begin(), files.end(), specPath("minimal.yaml")), files.end());
  EXPECT_NE(std::find(files.begin(), files.end(), specPath("bad/unknown_compare.yaml")),
            files.end());
  for (const auto& f : files) EXPECT_EQ(fs::path(f).extension(), ".yaml") << f;  // not kernels/

  try {
    findSpecFiles({specPath("does_not_exist")});
    FAIL() << "no error for a missing path";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.file(), specPath("does_not_exist"));
    EXPECT_EQ(std::string(e.what()),
              specPath("does_not_exist") + ":0: no such spec file or directory");
  }
}

TEST(SpecErrors, UnreadableFileNamesTheFile) {
  try {
    loadSpec(specPath("missing.yaml"));
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.file(), specPath("missing.yaml"));
    EXPECT_NE(std::string(e.what()).find("cannot read the file"), std::string::npos) << e.what();
  }
}

TEST(SpecErrors, AScalarDocumentIsNotASpec) {
  const std::string path = ::testing::TempDir() + "/clh_core_scalar.yaml";
  std::ofstream(path) << "just a string\n";
  try {
    loadSpec(path);
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":1: a spec is a YAML mapping of fields");
  }
}

// ---- specs/bad/*.yaml: one error path per file ----

struct BadSpec {
  std::string path;
  int line = 0;
  std::string message;  ///< "field: message" start, as the file's first line states it
};

std::vector<BadSpec> badSpecs(bool knownBugs) {
  std::vector<BadSpec> out;
  for (const auto& file : findSpecFiles({specPath("bad")})) {
    bool bug = fs::path(file).filename().string().rfind("bug_", 0) == 0;
    if (bug != knownBugs) continue;
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    const std::string tag = "# expect-error: ";
    BadSpec b;
    b.path = file;
    if (first.rfind(tag, 0) == 0) {
      std::string rest = first.substr(tag.size());
      size_t colon = rest.find(": ");
      b.line = std::stoi(rest.substr(0, colon));
      b.message = rest.substr(colon + 2);
    }
    out.push_back(b);
  }
  return out;
}

// Short, so that ctest's test names (which include the parameter) stay readable.
void PrintTo(const BadSpec& b, std::ostream* os) {
  *os << fs::path(b.path).filename().string();
}

class BadSpecTest : public ::testing::TestWithParam<BadSpec> {};

TEST_P(BadSpecTest, FailsWithFileLineFieldAndMessage) {
  const BadSpec& b = GetParam();
  ASSERT_FALSE(b.message.empty()) << b.path << " lacks its '# expect-error: LINE: ...' line";
  try {
    Spec s = loadSpec(b.path, sourceRoot());
    FAIL() << b.path << " loaded without an error";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.file(), b.path);
    EXPECT_EQ(e.line(), b.line) << e.what();
    const std::string want = b.path + ":" + std::to_string(b.line) + ": " + b.message;
    EXPECT_EQ(std::string(e.what()).substr(0, want.size()), want) << "full message: " << e.what();
  }
}

std::string badSpecName(const ::testing::TestParamInfo<BadSpec>& info) {
  return fs::path(info.param.path).stem().string();
}

INSTANTIATE_TEST_SUITE_P(Files, BadSpecTest, ::testing::ValuesIn(badSpecs(false)), badSpecName);
// Files named bug_*.yaml state the right error for a loader bug not fixed yet; each file's second
// line says what goes wrong. Run them with --gtest_also_run_disabled_tests.
INSTANTIATE_TEST_SUITE_P(DISABLED_KnownBugs, BadSpecTest, ::testing::ValuesIn(badSpecs(true)),
                         badSpecName);

}  // namespace
}  // namespace clh
