// `clharness scan` on image kernels and on barriers whose flags differ between work-items (issue
// 40), through the built tool on Oclgrind: correct image kernels are clean (Oclgrind 21.10 marks
// what read_image* returns uninitialized at random), a read outside an image that the specification
// leaves undefined is reported, and values never written stay reported where they meet a pixel.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "audit/tool_support.hpp"

namespace {

using namespace clh::test::audit;

const std::string kImages = fixture("kernels/images_checked.cl");
const std::string kFlags = fixture("kernels/barrier_flags.cl");

ScanOut scanImage(const std::string& kernel, const std::string& sizes) {
  return scanJson(kImages + " --kernel " + kernel + " " + sizes + " --tries 1", "images_" + kernel);
}

bool hasNote(const ScanOut& s, const std::string& text) {
  if (!s.result.is_object()) return false;
  for (const auto& n : s.result["notes"])
    if (n.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

TEST(ScanImages, CorrectImageKernelsAreClean) {
  REQUIRE_OCLGRIND();
  // 2-D without a sampler, with a sampler argument, normalised and linear, through a helper with
  // a buffer's weights; 1-D grids too; 3-D with integer and with normalised coordinates; 1-D.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"plain", "--global 16,4 --local 16,4"},
      {"plain", "--global 64 --local 16"},
      {"with_sampler", "--global 16,4 --local 8,2"},
      {"normalised", "--global 16,4 --local 4,4"},
      {"weighted", "--global 8,8 --local 8,8"},
      {"volume", "--global 8,4,2 --local 8,4,2"},
      {"volume_copy", "--global 8,4 --local 8,4"},
      {"right_clamped", "--global 16,4 --local 16,4"},
      {"line", "--global 32 --local 16"}};
  for (const auto& [kernel, sizes] : cases) {
    auto s = scanImage(kernel, sizes);
    EXPECT_EQ(s.run.code, 0) << kernel << " " << sizes << "\n" << s.run.out;
    EXPECT_TRUE(s.kinds().empty()) << kernel << " " << sizes << "\n" << s.run.out;
    // Silence is a verdict: what the simulator cannot follow is said.
    EXPECT_TRUE(hasNote(s, "does not follow which pixels were written")) << s.run.out;
  }
}

TEST(ScanImages, AReadOutsideTheImageWithAddressNoneIsReported) {
  REQUIRE_OCLGRIND();
  auto s = scanImage("right_none", "--global 16,4 --local 16,4");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  EXPECT_EQ(s.kinds(), std::vector<std::string>{"out_of_bounds"}) << s.run.out;
  const auto* f = s.find("out_of_bounds");
  ASSERT_NE(f, nullptr) << s.run.out;
  EXPECT_NE((*f)["summary"].get<std::string>().find("outside its 16x4 pixels"), std::string::npos)
      << (*f)["summary"];
  EXPECT_EQ(lineSet(*f), std::set<int>{68}) << (*f)["summary"];
  // Only the last column reads outside: one work-item a row.
  EXPECT_NE((*f)["summary"].get<std::string>().find("(4 reports)"), std::string::npos)
      << (*f)["summary"];
}

TEST(ScanImages, AValueNeverWrittenBesideAPixelStaysReported) {
  REQUIRE_OCLGRIND();
  auto unset = scanImage("unset_plus_pixel", "--global 16,4 --local 16,4");
  EXPECT_EQ(unset.run.code, 1) << unset.run.out;
  EXPECT_EQ(unset.first(), "uninitialized") << unset.run.out;
  // The weights' buffer never written: what it holds meets the pixels.
  auto weights = scanImage("weighted", "--global 8,8 --local 8,8 --arg w=uninit:4");
  EXPECT_EQ(weights.run.code, 1) << weights.run.out;
  EXPECT_EQ(weights.first(), "uninitialized") << weights.run.out;
  auto tile = scanImage("tile_short", "--global 16 --local 16");
  EXPECT_EQ(tile.run.code, 1) << tile.run.out;
  EXPECT_EQ(tile.first(), "uninitialized") << tile.run.out;
}

ScanOut scanFlags(const std::string& kernel) {
  return scanJson(kFlags + " --kernel " + kernel + " --global 8 --local 8 --tries 1",
                  "flags_" + kernel);
}

TEST(ScanBarrierFlags, FlagsThatDifferBetweenWorkItemsAreReportedAsSuch) {
  REQUIRE_OCLGRIND();
  auto s = scanFlags("fenced_writer");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  EXPECT_EQ(s.kinds(), std::vector<std::string>{"divergence"}) << s.run.out;
  const auto* f = s.find("divergence");
  ASSERT_NE(f, nullptr) << s.run.out;
  const std::string summary = (*f)["summary"];
  EXPECT_NE(summary.find("different flags to one barrier"), std::string::npos) << summary;
  EXPECT_NE(summary.find("CLK_LOCAL_MEM_FENCE"), std::string::npos) << summary;
  EXPECT_EQ(lineSet(*f), std::set<int>{11}) << summary;
}

TEST(ScanBarrierFlags, TheRaceBehindTheFirstWorkItemsFlagsIsFound) {
  REQUIRE_OCLGRIND();
  auto s = scanFlags("unfenced_readers");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*race), (std::set<int>{23, 25})) << (*race)["summary"];
  EXPECT_EQ((*race)["address_space"], "local") << (*race)["summary"];
  EXPECT_NE(s.find("divergence"), nullptr) << s.run.out;
}

TEST(ScanBarrierFlags, SameValueRacesNotLookedForAreSaid) {
  REQUIRE_OCLGRIND();
  auto s = scanFlags("fenced_writer");
  EXPECT_TRUE(hasNote(s, "races in which every work-item stores the same value are not looked for"))
      << s.run.out;
  auto asked = scanJson(kFlags +
                            " --kernel fenced_writer --global 8 --local 8 --tries 1 "
                            "--uniform-writes",
                        "flags_uniform");
  EXPECT_FALSE(hasNote(asked, "are not looked for")) << asked.run.out;
  EXPECT_TRUE(hasNote(asked, "(--uniform-writes)")) << asked.run.out;
}

}  // namespace
