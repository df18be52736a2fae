// `clharness scan` on what it used to refuse or could not set up (issue 18), through the built tool
// on Oclgrind: Oclgrind's .sim files, structs and vectors by value, NULL and uninitialized buffers,
// non-uniform work-groups under OpenCL C 2.0.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "audit/tool_support.hpp"

namespace {

using namespace clh::test::audit;

ScanOut scanInput(const std::string& args, const std::string& name) {
  return scanJson(args, "scan_inputs_" + name);
}

const std::string kKernels = fixture("kernels/scan_inputs.cl");

TEST(ScanInputs, AStructByValueAndBehindAPointerAreSizedByTheCompiler) {
  REQUIRE_OCLGRIND();
  auto s =
      scanInput(kKernels + " --kernel struct_index --global 4 --local 4 --arg out=16", "struct");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
  EXPECT_EQ(s.given("p"), "8 bytes of zero");
  EXPECT_NE(s.given("all").find("(8 bytes each), each 4-byte word random in [0, 100]"),
            std::string::npos)
      << s.given("all");
  // Its bytes arrive: index 16 (10000000), scale 1.0f (0000803f) writes past out's 16 floats.
  auto past = scanInput(kKernels +
                            " --kernel struct_index --global 4 --local 4 --arg out=16 "
                            "--arg p=bytes:100000000000803f",
                        "struct_past");
  EXPECT_EQ(past.run.code, 1) << past.run.out;
  EXPECT_EQ(past.kinds(), std::vector<std::string>{"out_of_bounds"}) << past.run.out;
  auto wrong =
      scanInput(kKernels + " --kernel struct_index --global 4 --arg p=bytes:10", "struct_bad");
  EXPECT_EQ(wrong.run.code, 2) << wrong.run.out;
  EXPECT_NE(wrong.run.out.find("a struct of 8 bytes takes bytes:HEX with 16 hex digits"),
            std::string::npos)
      << wrong.run.out;
}

TEST(ScanInputs, AVectorByValueTakesItsLanes) {
  REQUIRE_OCLGRIND();
  auto inside =
      scanInput(kKernels + " --kernel vector_index --global 4 --arg out=16 --arg v=1,2,3,15",
                "vector_inside");
  EXPECT_EQ(inside.run.code, 0) << inside.run.out;
  auto past = scanInput(
      kKernels + " --kernel vector_index --global 4 --arg out=16 --arg v=1,2,3,16", "vector_past");
  EXPECT_EQ(past.kinds(), std::vector<std::string>{"out_of_bounds"}) << past.run.out;
  // By default every lane is the scalar default (the global size): inside 1024 elements.
  auto byDefault = scanInput(kKernels + " --kernel vector_index --global 4", "vector_default");
  EXPECT_EQ(byDefault.run.code, 0) << byDefault.run.out;
  EXPECT_EQ(byDefault.given("v"), "= (4) in every lane");
}

TEST(ScanInputs, ANullBufferAndAnUninitializedOne) {
  REQUIRE_OCLGRIND();
  auto null = scanInput(kKernels + " --kernel read_first --global 4 --arg p=null", "null");
  EXPECT_EQ(null.given("p"), "NULL");
  // The read of address 0 is invalid (and the value it loads uninitialized).
  EXPECT_EQ(null.first(), "out_of_bounds") << null.run.out;
  auto filled = scanInput(kKernels + " --kernel copy --global 4 --arg in=4 --arg out=4", "filled");
  EXPECT_EQ(filled.run.code, 0) << filled.run.out;
  auto uninit =
      scanInput(kKernels + " --kernel copy --global 4 --arg in=uninit:4 --arg out=4", "uninit");
  EXPECT_EQ(uninit.given("in"), "4 x int, uninitialized");
  EXPECT_EQ(uninit.kinds(), std::vector<std::string>{"uninitialized"}) << uninit.run.out;
  auto scalarNull =
      scanInput(kKernels + " --kernel struct_index --global 4 --arg p=null", "null_bad");
  EXPECT_EQ(scalarNull.run.code, 2) << scalarNull.run.out;
}

TEST(ScanInputs, NonUniformWorkGroupsUnderOpenCLC2) {
  REQUIRE_OCLGRIND();
  auto refused = scanInput(kKernels + " --kernel ids3d --global 3,3,3 --local 2,2,2 --arg out=27",
                           "uniform_only");
  EXPECT_EQ(refused.run.code, 2) << refused.run.out;
  EXPECT_NE(refused.run.out.find("-cl-std=CL2.0"), std::string::npos) << refused.run.out;
  auto ran = scanInput(kKernels +
                           " --kernel ids3d --global 3,3,3 --local 2,2,2 --arg out=27 "
                           "--build-options=-cl-std=CL2.0",
                       "non_uniform");
  EXPECT_EQ(ran.run.code, 0) << ran.run.out;
  EXPECT_EQ(ran.result["local"], (nlohmann::json{2, 2, 2}));
}

TEST(ScanInputs, AnOclgrindSimFileRunsUnchanged) {
  REQUIRE_OCLGRIND();
  // .sim files of the project's own, in Oclgrind's format (the own corpus, tests/corpus/kernels).
  const std::string corpus = std::string(CLHARNESS_SOURCE_ROOT) + "/tests/corpus/kernels/";
  auto bug = scanInput(corpus + "lookup_past_table.sim", "sim_past_table");
  EXPECT_EQ(bug.run.code, 1) << bug.run.out;
  EXPECT_EQ(bug.result["kernel"], "lookup_past_table");
  EXPECT_EQ(bug.result["global"], (nlohmann::json{4, 1, 1}));
  // The read past the table; the value it stores is Oclgrind's uninitialized report beside it.
  EXPECT_NE(bug.find("out_of_bounds"), nullptr) << bug.run.out;
  auto clean = scanInput(corpus + "add_pairs.sim", "sim_add_pairs");
  EXPECT_EQ(clean.run.code, 0) << clean.run.out;
  EXPECT_EQ(clean.given("a"), "4096 bytes of float, range=0:1:1023");
  // A NULL buffer, a read-only one, a buffer never written, a struct's raw bytes and a 2.0 build
  // option from the file's # ARGS: line.
  EXPECT_EQ(scanInput(corpus + "store_through_null.sim", "sim_null").first(), "out_of_bounds");
  EXPECT_EQ(scanInput(corpus + "store_into_input.sim", "sim_ro").first(), "access_mode");
  EXPECT_EQ(scanInput(corpus + "sum_in_place.sim", "sim_noinit").first(), "uninitialized");
  auto by_value = scanInput(corpus + "apply_calibration.sim", "sim_struct");
  EXPECT_EQ(by_value.run.code, 0) << by_value.run.out;
  auto cl20 = scanInput(corpus + "uneven_groups.sim", "sim_cl20");
  EXPECT_EQ(cl20.run.code, 0) << cl20.run.out;
  // The file gives the kernel and the sizes: giving them again is a usage error.
  auto twice = scanInput(corpus + "add_pairs.sim --kernel add_pairs", "sim_twice");
  EXPECT_EQ(twice.run.code, 2) << twice.run.out;
}

}  // namespace

// ---- issue 27: a free grid size, a bodiless call, 3-element vectors ------------------------

const std::string kIssue27 = fixture("kernels/scan_free_and_bodiless.cl");

TEST(ScanInputs, AFreeGlobalSizeIsExplored) {
  REQUIRE_OCLGRIND();
  // '*': two work-groups first, then one and three; the note says which ran.
  auto clean = scanInput(kIssue27 + " --kernel per_group --global '*' --local 8", "free_clean");
  EXPECT_EQ(clean.run.code, 0) << clean.run.out;
  EXPECT_EQ(clean.result["global"], (nlohmann::json{16}));
  ASSERT_GE(clean.result["tries"].size(), 3u) << clean.run.out;
  EXPECT_NE(
      clean.run.out.find("global size free ('*') in dimension 0: ran 16 first, then 8 and 24"),
      std::string::npos)
      << clean.run.out;
  // The race between groups 0 and 2 shows only with three work-groups.
  auto race =
      scanInput(kIssue27 + " --kernel third_group_collides --global '*' --local 8", "free_race");
  EXPECT_EQ(race.run.code, 1) << race.run.out;
  EXPECT_EQ(race.first(), "race") << race.run.out;
  EXPECT_NE(race.run.out.find("[with global 24]"), std::string::npos) << race.run.out;
  // A size of 0 is still refused, and '*' only in --global.
  EXPECT_EQ(scanInput(kIssue27 + " --kernel per_group --global 0", "zero").run.code, 2);
  EXPECT_EQ(
      scanInput(kIssue27 + " --kernel per_group --global 16 --local '*'", "star_local").run.code,
      2);
}

TEST(ScanInputs, AGridOverTheBudgetRunsSmallerAndSaysSo) {
  REQUIRE_OCLGRIND();
  // 512 work-groups of 8 over a budget of 64 work-items: 8 work-groups of 8 run, and the note
  // gives the grid asked for, the budget and the grid that ran.
  auto s =
      scanInput(kIssue27 + " --kernel per_group --global 4096 --local 8 --max-items 64", "budget");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
  EXPECT_EQ(s.result["global"], (nlohmann::json{64})) << s.run.out;
  EXPECT_NE(s.run.out.find("the grid given, 4096 in work-groups of 8 (512 work-groups), is over "
                           "scan's budget of 64 work-items"),
            std::string::npos)
      << s.run.out;
  // The faulty kernel's race between groups 0 and 2 stays in the smaller grid.
  auto race = scanInput(
      kIssue27 + " --kernel third_group_collides --global 4096 --local 8 --max-items 64 --tries 1",
      "budget_race");
  EXPECT_EQ(race.first(), "race") << race.run.out;
}

TEST(ScanInputs, ABodilessCallIsTheKernelsBuildError) {
  REQUIRE_OCLGRIND();
  auto s = scanInput(kIssue27 + " --kernel calls_bodiless --global 4", "bodiless");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  EXPECT_EQ(s.kinds(), std::vector<std::string>{"build_error"}) << s.run.out;
  ASSERT_TRUE(s.result.is_object()) << s.run.out;
  const auto& f = s.result["findings"][0];
  EXPECT_NE(f["summary"].get<std::string>().find("'arbitrary', declared at line 15 without a body"),
            std::string::npos)
      << f.dump(2);
  EXPECT_EQ(f["lines"][0]["line"], 15);
}

TEST(ScanInputs, StubBodilessRunsTheKernelWithACallReturningZero) {
  REQUIRE_OCLGRIND();
  // `arbitrary` returns a NULL pointer: the read through it is out of bounds, at its line.
  auto s = scanInput(kIssue27 + " --kernel calls_bodiless --global 4 --stub-bodiless", "stubbed");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  EXPECT_EQ(s.first(), "out_of_bounds") << s.run.out;
  ASSERT_TRUE(s.result.is_object()) << s.run.out;
  EXPECT_EQ(s.result["findings"][0]["lines"][0]["line"], 21) << s.result.dump(2);
  EXPECT_EQ(s.result["findings"][0]["lines"][0]["file"], kIssue27) << s.result.dump(2);
  EXPECT_NE(s.run.out.find("'arbitrary' (line 15)"), std::string::npos) << s.run.out;
  EXPECT_NE(s.run.out.find("--stub-bodiless"), std::string::npos) << s.run.out;
  // Unnamed parameters, a void function and a vector result get their bodies too: it runs clean.
  auto clean =
      scanInput(kIssue27 + " --kernel calls_unnamed --global 4 --stub-bodiless", "unnamed");
  EXPECT_EQ(clean.run.code, 0) << clean.run.out;
}

TEST(ScanInputs, ImagesAndSamplersAreMade) {
  REQUIRE_OCLGRIND();
  const std::string images = fixture("kernels/scan_images.cl");
  auto copy =
      scanInput(images + " --kernel copy_image --global 8,8 --local 4,4 --tries 1", "img_copy");
  EXPECT_EQ(copy.run.code, 0) << copy.run.out;
  EXPECT_EQ(copy.given("src"), "8x8 image of RGBA floats, random in [-1, 1]") << copy.run.out;
  // Every work-item of a row writes pixel (0, y), each a value of its own.
  auto race = scanInput(images + " --kernel row_to_one_pixel --global 8,8 --local 4,4 --tries 1",
                        "img_race");
  EXPECT_EQ(race.run.code, 1) << race.run.out;
  EXPECT_EQ(race.first(), "race") << race.run.out;
  // A sampler argument; the pixels read into a buffer are no uninitialized values (Oclgrind
  // 21.10 marks them so at random: docs/races.md, "Images on the simulator").
  auto sampled = scanInput(images + " --kernel read_through --global 8,4 --local 4,2 --tries 1",
                           "img_sampler");
  EXPECT_EQ(sampled.run.code, 0) << sampled.run.out;
  EXPECT_EQ(sampled.given("img"), "8x4 image of RGBA floats, random in [-1, 1]");
  EXPECT_EQ(sampled.given("s"), "sampler: unnormalized coordinates, clamp to edge, nearest");
}

TEST(ScanInputs, ThreeElementVectors) {
  REQUIRE_OCLGRIND();
  auto s = scanInput(kIssue27 + " --kernel vectors3 --global 8 --arg v=1,2,3", "vectors3");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
  EXPECT_EQ(s.given("v"), "= (1,2,3)");
}
