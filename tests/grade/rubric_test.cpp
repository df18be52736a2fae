// Tests of the rubric loader and assignment lookup: every shipped assignment loads with its rubric,
// and each kind of mistake in a rubric is refused with "FILE:LINE: field: what is wrong".
#include "grade/rubric.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace clh::grade {
namespace {

namespace fs = std::filesystem;

const std::string kRubricRoot = CLHARNESS_SOURCE_ROOT;

std::string writeTemp(const std::string& name, const std::string& text) {
  fs::path dir = fs::path(::testing::TempDir()) / "rubric_test";
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

// The message of the SpecError that loading `text` as a rubric throws; "" when it loads.
std::string rubricError(const std::string& text) {
  std::string path = writeTemp("bad.rubric", text);
  try {
    loadRubric(path);
  } catch (const SpecError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ":", 0), 0u) << what;  // the file comes first
    return what.substr(path.size() + 1);
  }
  return "";
}

const char* kGood = R"(title: t
items:
  - id: builds
    points: 10
    check: build
  - id: correct
    points: 60
    check: results
)";

TEST(Rubric, EveryShippedAssignmentLoadsWithItsRubric) {
  for (const char* name : {"vadd", "mmul", "mmul_tiled", "pi"}) {
    SCOPED_TRACE(name);
    Assignment a = loadAssignment(name, kRubricRoot);
    EXPECT_EQ(a.name, name);
    EXPECT_EQ(a.argument, name);
    EXPECT_TRUE(fs::exists(a.spec.source_path)) << "the reference solution";
    EXPECT_EQ(fs::path(a.spec.source_path).parent_path().filename(), "assignments");
    EXPECT_EQ(a.rubric.maxPoints(), 100);
    ASSERT_NE(a.rubric.firstOf(ItemCheck::build), nullptr);
    ASSERT_NE(a.rubric.firstOf(ItemCheck::results), nullptr);
    ASSERT_NE(a.rubric.firstOf(ItemCheck::simulator), nullptr);
    EXPECT_EQ(a.rubric.itemFor(FindingKind::race), a.rubric.firstOf(ItemCheck::simulator));
    EXPECT_EQ(a.rubric.itemFor(FindingKind::timeout), a.rubric.firstOf(ItemCheck::results));
    EXPECT_EQ(a.rubric.itemFor(FindingKind::build_error), a.rubric.firstOf(ItemCheck::build));
    EXPECT_FALSE(a.spec_text.empty());
    EXPECT_FALSE(a.rubric_text.empty());
    EXPECT_FALSE(a.reference_text.empty());
  }
}

TEST(Rubric, TiledAssignmentTimesAgainstTheReference) {
  Assignment a = loadAssignment("mmul_tiled", kRubricRoot);
  const RubricItem* speed = a.rubric.firstOf(ItemCheck::speed);
  ASSERT_NE(speed, nullptr);
  ASSERT_TRUE(speed->speed);
  EXPECT_TRUE(speed->kinds.empty());
  EXPECT_EQ(speed->speed->full_within, 2);
  EXPECT_EQ(speed->speed->none_beyond, 4);
  EXPECT_EQ(a.spec.build_options, "-DTS={TS}");
}

TEST(Rubric, AssignmentBySpecPathFindsTheSiblingRubric) {
  std::string spec = kRubricRoot + "/specs/assignments/pi.yaml";
  Assignment a = loadAssignment(spec, kRubricRoot);
  EXPECT_EQ(a.name, "pi");
  EXPECT_EQ(a.argument, spec);  // replay commands repeat it as given
  EXPECT_EQ(a.rubric_file, kRubricRoot + "/specs/assignments/pi.rubric");
}

TEST(Rubric, UnknownAssignmentListsTheKnownOnes) {
  try {
    loadAssignment("no_such_assignment", kRubricRoot);
    FAIL() << "loaded a missing assignment";
  } catch (const SpecError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("no such spec"), std::string::npos) << what;
    EXPECT_NE(what.find("vadd"), std::string::npos) << what;
  }
}

TEST(Rubric, DefaultKindsFollowTheCheck) {
  std::string path = writeTemp("good.rubric", kGood);
  Rubric r = loadRubric(path);
  ASSERT_EQ(r.items.size(), 2u);
  EXPECT_EQ(r.title, "t");
  EXPECT_EQ(r.items[0].kinds, defaultKinds(ItemCheck::build));
  EXPECT_EQ(r.items[1].title, "correct");  // the id when no title is given
  EXPECT_EQ(r.items[1].line, 6);
  EXPECT_EQ(r.itemFor(FindingKind::crash), &r.items[1]);
  EXPECT_EQ(r.itemFor(FindingKind::race), nullptr);  // no simulator item: races cost nothing
  EXPECT_EQ(r.maxPoints(), 70);
  EXPECT_EQ(r.cases, 0);
}

TEST(Rubric, MistakesAreRefusedWithLineAndField) {
  EXPECT_EQ(rubricError("items: []\n"), "1: items: a list of at least one rubric item");
  EXPECT_EQ(rubricError(std::string(kGood) + "colour: red\n"),
            "9: rubric: unknown field 'colour' (expected: title, cases, simulator_cases, items)");
  EXPECT_EQ(rubricError("items:\n  - {id: a, points: 1, check: smell}\n"),
            "2: check: unknown check 'smell' (expected: build, results, simulator, speed, uses)");
  EXPECT_EQ(rubricError("items:\n  - {id: a, points: -1, check: build}\n"),
            "2: points: must be at least 0.000000");
  EXPECT_EQ(
      rubricError(
          "items:\n  - {id: a, points: 1, check: build}\n  - {id: a, points: 1, check: results}\n"),
      "3: items: two items have the id 'a'");
  EXPECT_EQ(rubricError("items:\n  - {id: 'a b', points: 1, check: build}\n"),
            "2: id: 'a b' may hold only letters, digits, '_' and '-'");
  EXPECT_EQ(rubricError("items:\n  - {id: a, points: 1, check: results}\n"
                        "  - {id: b, points: 1, check: simulator, kinds: [race, timeout]}\n"),
            "3: kinds: 'timeout' already belongs to item 'a'");
  EXPECT_NE(rubricError("items:\n  - {id: a, points: 1, check: simulator, kinds: [rase]}\n")
                .find("2: kinds: unknown finding kind 'rase'"),
            std::string::npos);
  EXPECT_EQ(rubricError("items:\n  - {id: a, points: 1, check: results, sizes: 'N=4'}\n"),
            "2: sizes: only a speed item takes 'sizes'");
  EXPECT_EQ(rubricError("items:\n  - {id: s, points: 1, check: speed}\n"),
            "2: sizes: a speed item names the case it times, e.g. \"TS=16,N=256\"");
  EXPECT_EQ(rubricError("items:\n  - {id: s, points: 1, check: speed, sizes: 'N=4', full_within: "
                        "3, none_beyond: 2}\n"),
            "2: none_beyond: must exceed full_within (or be 0: all or nothing)");
  EXPECT_EQ(rubricError("items:\n  - {id: a, points: 1, check: speed, sizes: 'N=4'}\n"
                        "  - {id: b, points: 1, check: speed, sizes: 'N=8'}\n"),
            "3: check: a rubric has at most one speed item");
  EXPECT_EQ(rubricError("cases: lots\nitems:\n  - {id: a, points: 1, check: build}\n"),
            "1: cases: expected an integer, got 'lots'");
  EXPECT_NE(rubricError("title: [\n").find("not valid YAML"), std::string::npos);
}

TEST(Rubric, SpeedCaseMustLieInTheSpecsDomain) {
  fs::path dir = fs::path(::testing::TempDir()) / "rubric_domain";
  fs::create_directories(dir);
  fs::copy_file(kRubricRoot + "/specs/assignments/mmul_tiled.yaml", dir / "tiled.yaml",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "tiled.rubric")
      << "items:\n  - {id: s, points: 1, check: speed, sizes: 'TS=16,N=4096'}\n";
  try {
    loadAssignment((dir / "tiled.yaml").string(), kRubricRoot);
    FAIL() << "accepted a timed case outside the spec's domain";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "tiled.rubric:2: sizes: 'TS=16,N=4096' is outside the spec's domain"),
              std::string::npos)
        << e.what();
  }
}

TEST(Rubric, AMissingRubricIsNamed) {
  fs::path dir = fs::path(::testing::TempDir()) / "rubric_missing";
  fs::create_directories(dir);
  fs::copy_file(kRubricRoot + "/specs/assignments/vadd.yaml", dir / "lonely.yaml",
                fs::copy_options::overwrite_existing);
  try {
    loadAssignment((dir / "lonely.yaml").string(), kRubricRoot);
    FAIL() << "an assignment without a rubric loaded";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("lonely.rubric:0: rubric: missing"), std::string::npos)
        << e.what();
  }
}

TEST(Rubric, AUsesItemNamesKnownTechniques) {
  std::string path = writeTemp("uses.rubric", std::string(kGood) + R"(  - id: tiles
    points: 10
    check: uses
    uses: [local_memory, barrier]
)");
  Rubric r = loadRubric(path);
  ASSERT_EQ(r.items.size(), 3u);
  EXPECT_EQ(r.items[2].check, ItemCheck::uses);
  EXPECT_EQ(r.items[2].uses, (std::vector<std::string>{"local_memory", "barrier"}));
  EXPECT_TRUE(r.items[2].kinds.empty());

  EXPECT_NE(rubricError(std::string(kGood) + "  - {id: t, points: 1, check: uses}\n")
                .find("uses: item 't' names the techniques it requires"),
            std::string::npos);
  EXPECT_NE(rubricError(std::string(kGood) + "  - {id: t, points: 1, check: uses, uses: [tiles]}\n")
                .find("unknown technique 'tiles'"),
            std::string::npos);
  EXPECT_NE(rubricError(std::string(kGood) +
                        "  - {id: t, points: 1, check: results, uses: [barrier], kinds: [race]}\n")
                .find("only a 'check: uses' item takes 'uses'"),
            std::string::npos);
}

}  // namespace
}  // namespace clh::grade
