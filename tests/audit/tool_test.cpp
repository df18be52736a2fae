// The audit and scan commands and the out-of-bounds checks, run through the built tool on
// Oclgrind (label simulator) or on PoCL (suites Pocl*, label device).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include "audit/tool_support.hpp"

namespace {

using clh::test::ToolRun;
using namespace clh::test::audit;
const auto run = &clh::test::runTool;

// The devices these tests run on: Oclgrind (label simulator), and PoCL for the suites named Pocl*
// (label device).
const std::string kSimulator = "Oclgrind";
const std::string kPocl = "Portable Computing Language";

TEST(AuditTool, TiledMatmulBothBarriersNecessaryTheSecondARaceOnAShrunkSize) {
  REQUIRE_DEVICE(kSimulator);
  std::string json = temp("gemm_tiled_audit.json");
  ToolRun r =
      run("audit " + root("specs/hackmd/gemm_tiled.yaml") + " --device Oclgrind --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = readJson(json);
  ASSERT_EQ(j["schema"], "clharness-audit/2") << r.out;
  const auto& calls = j["specs"][0]["calls"];
  ASSERT_EQ(calls.size(), 2u) << r.out;
  EXPECT_EQ(calls[0]["line"], 37);
  EXPECT_EQ(calls[1]["line"], 45);
  EXPECT_EQ(calls[0]["verdict"], "necessary") << r.out;
  EXPECT_EQ(calls[1]["verdict"], "necessary") << r.out;

  // Without the second barrier: a read-write race on local memory between the read of the tiles
  // (line 41) and the next step's store into them (line 33 or 34), both lines named.
  const auto& sim = calls[1]["devices"][0];
  const nlohmann::json* race = nullptr;
  for (const auto& f : sim["evidence"])
    if (f["kind"] == "race") race = &f;
  ASSERT_NE(race, nullptr) << sim.dump(2);
  EXPECT_EQ((*race)["address_space"], "local");
  EXPECT_EQ((*race)["summary"].get<std::string>().rfind("Read-write data race at local memory", 0),
            0u);
  std::set<int> lines = lineSet(*race);
  EXPECT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines.count(41)) << race->dump(2);
  EXPECT_TRUE(lines.count(33) || lines.count(34)) << race->dump(2);
  // The smallest case with a race between two tiles: 2 x 2 work-items and two tiles of K.
  EXPECT_EQ(sim["mutant"]["failing_case"]["sizes"],
            (nlohmann::json{{"K", 3}, {"M", 1}, {"N", 1}, {"TS", 2}}));
  // The terminal table says it too, with the source text of both lines.
  EXPECT_NE(r.out.find("acc += Asub[k][row] * Bsub[col][k];"), std::string::npos) << r.out;
  // And the replay command reruns exactly that mutant and case.
  EXPECT_NE(sim["replay"].get<std::string>().find("--call 2"), std::string::npos);
}

TEST(AuditTool, AKernelWrongAsPublishedIsAuditedWhereItPasses) {
  REQUIRE_DEVICE(kSimulator);
  // The published tiled matmul is wrong whenever K is not a multiple of TS; without its second
  // barrier it races also where it is right, which only the cases it passes can show.
  std::string json = temp("gemm_published_audit.json");
  ToolRun r = run("audit " + root("specs/hackmd/gemm_tiled_as_published.yaml") +
                  " --device Oclgrind --call 2 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = readJson(json);
  const auto& call = j["specs"][0]["calls"][0];
  EXPECT_EQ(call["line"], 46);
  EXPECT_EQ(call["verdict"], "necessary") << r.out;
  const auto& sim = call["devices"][0];
  EXPECT_EQ(sim["paired"], true) << r.out;
  EXPECT_EQ(sim["baseline_status"], "expected_failure");
  EXPECT_EQ(sim["evidence"][0]["kind"], "race") << r.out;
  const auto& sizes = sim["mutant"]["failing_case"]["sizes"];
  EXPECT_EQ(sizes["K"].get<int>() % sizes["TS"].get<int>(), 0) << sizes;  // where it passes
}

TEST(AuditTool, ARedundantBarrierIsReportedRedundant) {
  REQUIRE_DEVICE(kSimulator);
  std::string json = temp("redundant_audit.json");
  ToolRun r = run("audit " + fixture("specs/vadd_redundant_barrier.yaml") +
                  " --device Oclgrind --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = readJson(json);
  const auto& calls = j["specs"][0]["calls"];
  ASSERT_EQ(calls.size(), 1u) << r.out;
  EXPECT_EQ(calls[0]["verdict"], "redundant") << r.out;
  EXPECT_EQ(calls[0]["devices"][0]["mutant"]["cases_run"], 4);  // the spec's simulator_cases
}

TEST(OutOfBounds, SimulatorReportsTheInvalidWrite) {
  REQUIRE_DEVICE(kSimulator);
  std::string json = temp("past_end_sim.json");
  ToolRun r =
      run("check " + fixture("specs/vadd_past_end.yaml") + " --device Oclgrind --json " + json);
  EXPECT_EQ(r.code, 1) << r.out;
  auto j = readJson(json);
  const auto& f = j["units"][0]["failing_case"]["findings"][0];
  EXPECT_EQ(f["kind"], "out_of_bounds") << j.dump(2);
  EXPECT_EQ(f["summary"].get<std::string>().rfind("Invalid write", 0), 0u) << f.dump(2);
  // The plugin names the kernel argument whose buffer the address belongs to.
  EXPECT_NE(f["summary"].get<std::string>().find("past the end of buffer argument 'c' (4 bytes)"),
            std::string::npos)
      << f.dump(2);
  EXPECT_EQ(f["address_space"], "global");
  ASSERT_FALSE(f["lines"].empty());
  EXPECT_EQ(f["lines"][0]["line"], 8);
}

TEST(ScanTool, ARacyKernelExitsOneAndListsTheRace) {
  REQUIRE_DEVICE(kSimulator);
  std::string json = temp("scan_race.json");
  ToolRun r = run("scan " + fixture("kernels/local_race.cl") +
                  " --kernel neighbour_sum --global 16 --local 8 --arg n=12 --json " + json);
  EXPECT_EQ(r.code, 1) << r.out;
  auto j = readJson(json);
  ASSERT_EQ(j["results"].size(), 1u) << r.out;
  const nlohmann::json* race = nullptr;
  for (const auto& f : j["results"][0]["findings"])
    if (f["kind"] == "race") race = &f;
  ASSERT_NE(race, nullptr) << r.out;
  EXPECT_EQ((*race)["address_space"], "local");
  EXPECT_EQ(lineSet(*race), (std::set<int>{8, 9}));
  // The arguments came from the kernel's own argument info.
  const auto& args = j["results"][0]["arguments"];
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[2]["name"], "tile");
  EXPECT_EQ(args[2]["address_space"], "local");
  EXPECT_EQ(args[3]["given"], "= 12");
  EXPECT_NE(r.out.find("race (local)"), std::string::npos) << r.out;
}

TEST(ScanTool, ACleanKernelExitsZero) {
  REQUIRE_DEVICE(kSimulator);
  ToolRun r = run("scan " + fixture("kernels/clean_sum.cl") +
                  " --kernel neighbour_sum --global 16 --local 8");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("no diagnostics"), std::string::npos) << r.out;
}

TEST(ScanTool, ACatalogKernelWithItsBuildOptionsIsClean) {
  REQUIRE_DEVICE(kSimulator);
  ToolRun r =
      run("scan " + root("kernels/hackmd/gemm_tiled.cl") +
          " --kernel myGEMM --global 8,8 --local 4,4 --build-options=-DTS=4 --arg M=8 --arg N=8 "
          "--arg K=8 --arg A=64 --arg B=64 --arg C=64");
  EXPECT_EQ(r.code, 0) << r.out;
  // The same kernel with a buffer too small for its accesses: out of bounds, exit 1.
  ToolRun small =
      run("scan " + root("kernels/hackmd/gemm_tiled.cl") +
          " --kernel myGEMM --global 8,8 --local 4,4 --build-options=-DTS=4 --arg M=8 --arg N=8 "
          "--arg K=8 --arg A=60 --arg B=64 --arg C=64");
  EXPECT_EQ(small.code, 1) << small.out;
  EXPECT_NE(small.out.find("out_of_bounds"), std::string::npos) << small.out;
}

TEST(ScanTool, AKnownFalsePositiveCanBeSuppressed) {
  REQUIRE_DEVICE(kSimulator);
  // Oclgrind 21.10 marks what async_work_group_strided_copy copies as uninitialized in the
  // optimised build (the spec of this kernel suppresses it too; the unoptimised build scan uses by
  // default does not show it): listed, exit 1; with --suppress, counted in a note, exit 0.
  std::string args =
      "scan " + root("kernels/handson/mmul_async.cl") +
      " --kernel mmul --global 8 --local 4 \"--build-options=-DNMAX=8 -O2\" --tries 1";
  ToolRun plain = run(args);
  EXPECT_EQ(plain.code, 1) << plain.out;
  EXPECT_NE(plain.out.find("uninitialized"), std::string::npos) << plain.out;
  ToolRun quiet = run(args + " --suppress uninitialized");
  EXPECT_EQ(quiet.code, 0) << quiet.out;
  EXPECT_NE(quiet.out.find("uninitialized finding suppressed"), std::string::npos) << quiet.out;
  EXPECT_EQ(run(args + " --suppress nonsense").code, 2);
}

TEST(ScanTool, UsageErrorsExitTwo) {
  REQUIRE_DEVICE(kSimulator);
  ToolRun unknown = run("scan " + fixture("kernels/clean_sum.cl") +
                        " --kernel neighbour_sum --global 16 --arg m=3");
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("it has: in, out, tile, n"), std::string::npos) << unknown.out;
  ToolRun local = run("scan " + fixture("kernels/clean_sum.cl") +
                      " --kernel neighbour_sum --global 16 --local 5");
  EXPECT_EQ(local.code, 2) << local.out;
}

// ---- issue 20: the kernel as written, driver-like work-groups, exploration ------------------

TEST(ScanAsWritten, AWriteWriteRaceOnALocalNobodyReads) {
  REQUIRE_DEVICE(kSimulator);
  auto s =
      scanJson(fixture("kernels/unread_local_race.cl") + " --kernel last_id --global 8 --local 8",
               "unread_local_race");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ((*race)["address_space"], "local");
  EXPECT_EQ((*race)["summary"].get<std::string>().rfind("Write-write data race", 0), 0u);
  EXPECT_EQ(lineSet(*race), (std::set<int>{6}));
  // The checks ran on the unoptimised build, and the listing says so.
  EXPECT_NE(s.result["build_options"].get<std::string>().find("-cl-opt-disable"),
            std::string::npos);
}

TEST(ScanUniformWrites, ARaceOfEqualValuesIsReportedOnlyWhenAsked) {
  REQUIRE_DEVICE(kSimulator);
  const std::string args = fixture("kernels/same_value_race.cl") +
                           " --kernel reset --global 8 --local 8 --arg out=8 --tries 1";
  auto quiet = scanJson(args, "same_value_race");
  EXPECT_EQ(quiet.run.code, 0) << quiet.run.out;  // Oclgrind's default: a benign race
  auto strict = scanJson(args + " --uniform-writes", "same_value_race_strict");
  EXPECT_EQ(strict.run.code, 1) << strict.run.out;
  const auto* race = strict.find("race");
  ASSERT_NE(race, nullptr) << strict.run.out;
  EXPECT_EQ((*race)["address_space"], "local");
  EXPECT_EQ(lineSet(*race), (std::set<int>{6}));
  EXPECT_NE(strict.result["notes"].dump().find("--uniform-writes"), std::string::npos)
      << strict.result.dump(2);
}

TEST(ScanAsWritten, AReadBeforeItsBoundsCheck) {
  REQUIRE_DEVICE(kSimulator);
  auto s = scanJson(fixture("kernels/read_before_check.cl") +
                        " --kernel copy_guarded --global 8 --local 8 --arg a=4 --arg c=4 --arg n=4",
                    "read_before_check");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_EQ((*oob)["summary"].get<std::string>().rfind("Invalid read", 0), 0u) << oob->dump(2);
  EXPECT_EQ(lineSet(*oob), (std::set<int>{5}));
}

TEST(ScanAsWritten, AStaticLocalArrayOverflow) {
  REQUIRE_DEVICE(kSimulator);
  auto s = scanJson(
      fixture("kernels/static_local_overflow.cl") + " --kernel fill_tile --global 8 --local 8",
      "static_local_overflow");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*oob), (std::set<int>{7})) << oob->dump(2);
  EXPECT_NE(s.run.out.find("exceeds static array size (4)"), std::string::npos) << s.run.out;
}

TEST(ScanAsWritten, AStaticPrivateArrayOverflow) {
  REQUIRE_DEVICE(kSimulator);
  auto s = scanJson(fixture("kernels/static_private_overflow.cl") +
                        " --kernel private_table --global 8 --local 8",
                    "static_private_overflow");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*oob), (std::set<int>{5})) << oob->dump(2);
}

TEST(ScanNamesTheArray, AStaticLocalOverflowBesideAnotherLocalArray) {
  // Issue 18: `local int L[25]; L[get_global_id(0)] = ...` with 64 work-items in one group.
  REQUIRE_DEVICE(kSimulator);
  auto s = scanJson(fixture("kernels/local_overflow_in_block.cl") +
                        " --kernel in_block --global 64 --local 64 --tries 1",
                    "local_overflow_in_block");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_EQ((*oob)["address_space"], "local");
  EXPECT_EQ(lineSet(*oob), (std::set<int>{9})) << oob->dump(2);
  EXPECT_NE((*oob)["summary"].get<std::string>().find(
                "past the end of __local array 'L' (int[25], 100 bytes, declared at line 5)"),
            std::string::npos)
      << oob->dump(2);
  // Only L overflows: M, the other array of the group, is never named.
  EXPECT_EQ(s.run.out.find("array 'M'"), std::string::npos) << s.run.out;
}

TEST(ScanNamesTheArray, ALocalParameterOverflowOnTheUnoptimisedBuild) {
  REQUIRE_DEVICE(kSimulator);
  // At -cl-opt-disable the parameter is read back from its stack slot before each use.
  auto s = scanJson(fixture("kernels/local_argument_overflow.cl") +
                        " --kernel shift --global 8 --local 8 --arg scratch=8 --arg out=8 "
                        "--tries 1",
                    "local_argument_overflow");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_NE((*oob)["summary"].get<std::string>().find(
                "past the end of __local argument 'scratch' (32 bytes)"),
            std::string::npos)
      << oob->dump(2);
  EXPECT_EQ(lineSet(*oob), (std::set<int>{6}));
  // Through a pointer variable set once from it (`shifted = p + 10`).
  auto alias = scanJson(fixture("kernels/local_alias_overflow.cl") +
                            " --kernel alias --global 16 --local 16 --arg p=16 --arg out=16 "
                            "--tries 1",
                        "local_alias_overflow");
  const auto* through = alias.find("out_of_bounds");
  ASSERT_NE(through, nullptr) << alias.run.out;
  EXPECT_NE((*through)["summary"].get<std::string>().find(
                "past the end of __local argument 'p' (64 bytes)"),
            std::string::npos)
      << through->dump(2);
}

TEST(ScanNamesTheArray, AStaticPrivateOverflowWithItsDeclaration) {
  REQUIRE_DEVICE(kSimulator);
  auto s = scanJson(fixture("kernels/static_private_overflow.cl") +
                        " --kernel private_table --global 8 --local 8 --tries 1",
                    "static_private_overflow_named");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_EQ((*oob)["address_space"], "private");
  EXPECT_NE((*oob)["summary"].get<std::string>().find(
                "past the end of private array 'p' (16 bytes, declared at line 3)"),
            std::string::npos)
      << oob->dump(2);
}

TEST(ScanNamesTheArray, AnOverflowThroughAHelpersPointerIsStillFoundUnnamed) {
  REQUIRE_DEVICE(kSimulator);
  auto s = scanJson(fixture("kernels/helper_overflow.cl") +
                        " --kernel through_helper --global 8 --local 8 --tries 1",
                    "helper_overflow");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*oob), (std::set<int>{4})) << oob->dump(2);
  EXPECT_EQ((*oob)["summary"].get<std::string>().find(" array "), std::string::npos)
      << oob->dump(2);
}

TEST(ScanNamesTheArray, CorrectTilesStructsVectorsAndHelperPointersAreClean) {
  REQUIRE_DEVICE(kSimulator);
  auto s =
      scanJson(fixture("kernels/local_arrays_correct.cl") + " --kernel tiles --global 16 --local 8",
               "local_arrays_correct");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
  // The catalog's tiled kernels, in the sizes of their specs.
  for (const std::string& args :
       {root("kernels/assignments/mmul_tiled.cl") +
            " --kernel mmul --global 16,16 --local 8,8 --build-options=-DTS=8 --arg N=16 "
            "--arg A=256 --arg B=256 --arg C=256",
        root("kernels/hackmd/gemm_tiled.cl") +
            " --kernel myGEMM --global 16,16 --local 8,8 --build-options=-DTS=8 --arg M=16 "
            "--arg N=16 --arg K=16 --arg A=256 --arg B=256 --arg C=256",
        root("kernels/assignments/pi.cl") +
            " --kernel pi --global 64 --local 16 --arg niters=4 --arg local_sums=16"}) {
    auto tiled = scanJson(args + " --tries 1", "tiled");
    EXPECT_EQ(tiled.run.code, 0) << args << "\n" << tiled.run.out;
  }
}

TEST(ScanExplores, ANullDereferenceThatNeedsAScalarOfZero) {
  REQUIRE_DEVICE(kSimulator);
  const std::string args =
      fixture("kernels/null_unless_flag.cl") + " --kernel pick --global 16 --local 8";
  auto s = scanJson(args, "null_unless_flag");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* oob = s.find("out_of_bounds");
  ASSERT_NE(oob, nullptr) << s.run.out;
  EXPECT_NE((*oob)["summary"].get<std::string>().find("[with use_input=0]"), std::string::npos)
      << oob->dump(2);
  // With the defaults only, it is not seen: the exploration found it.
  auto once = scanJson(args + " --tries 1", "null_unless_flag_once");
  EXPECT_EQ(once.run.code, 0) << once.run.out;
}

TEST(ScanExplores, AnIndexCollisionThatNeedsOneScalarValue) {
  REQUIRE_DEVICE(kSimulator);
  const std::string args =
      fixture("kernels/collide_on_index.cl") + " --kernel mark --global 16 --local 16";
  auto s = scanJson(args, "collide_on_index");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_NE((*race)["summary"].get<std::string>().find("[with k="), std::string::npos)
      << race->dump(2);
  EXPECT_GT(s.result["tries"].size(), 1u);
  auto once = scanJson(args + " --tries 1", "collide_on_index_once");
  EXPECT_EQ(once.run.code, 0) << once.run.out;
  // A range given with --arg is explored at its edges: k = 3 collides.
  auto range = scanJson(args + " --arg k=3..40", "collide_on_index_range");
  EXPECT_EQ(range.run.code, 1) << range.run.out;
}

TEST(ScanExplores, ARaceThatNeedsACounterToStartAtZero) {
  REQUIRE_DEVICE(kSimulator);
  const std::string args =
      fixture("kernels/counter_from_zero.cl") + " --kernel take --global 8 --local 8";
  auto s = scanJson(args, "counter_from_zero");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_NE((*race)["summary"].get<std::string>().find("[with integer buffers 0]"),
            std::string::npos)
      << race->dump(2);
  // The random contents alone (seed 1) do not show it.
  auto once = scanJson(args + " --tries 1", "counter_from_zero_once");
  EXPECT_EQ(once.run.code, 0) << once.run.out;
}

TEST(ScanReports, AMillionReportsOfOneProblemAreCountedNotWritten) {
  REQUIRE_DEVICE(kSimulator);
  // 64 work-items x 16 stores of a never-written value at one statement: 1024 reports, of which
  // the plugin writes the first 256 and one line standing for the rest.
  auto s = scanJson(fixture("kernels/many_reports.cl") +
                        " --kernel many --global 64 --local 64 --arg n=16 --arg out=1024 --tries 1",
                    "many_reports");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* uninit = s.find("uninitialized");
  ASSERT_NE(uninit, nullptr) << s.run.out;
  EXPECT_NE((*uninit)["summary"].get<std::string>().find("(1024 reports)"), std::string::npos)
      << uninit->dump(2);
  EXPECT_EQ(s.result["findings"].size(), 1u) << s.run.out;
}

TEST(ScanTimeLimit, WhatTheSimulatorFoundBeforeTheLimitIsKept) {
  REQUIRE_DEVICE(kSimulator);
  // Group 0 races and reaches its barrier; group 1 then never ends. The race is reported within
  // the first CPU-milliseconds: the limit only has to be reached.
  auto s = scanJson(fixture("kernels/race_then_hang.cl") +
                        " --kernel race_then_hang --global 16 --local 8 --tries 1 --timeout 2",
                    "race_then_hang");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* timeout = s.find("timeout");
  ASSERT_NE(timeout, nullptr) << s.run.out;
  EXPECT_NE((*timeout)["summary"].get<std::string>().find("before it stopped the scan"),
            std::string::npos)
      << timeout->dump(2);
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*race), (std::set<int>{6}));
  EXPECT_EQ(s.result["global"], (nlohmann::json{16})) << s.result.dump(2);
}

// Busy processes beside a test: `perCore` per core, each spinning until the object goes.
struct BusyMachine {
  std::vector<pid_t> hogs;
  explicit BusyMachine(unsigned perCore) {
    const unsigned n = perCore * std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < n; ++i) {
      const pid_t p = ::fork();
      if (p == 0) {
        std::atomic<unsigned long> spins{0};
        for (;;) spins.fetch_add(1, std::memory_order_relaxed);
      }
      if (p > 0) hogs.push_back(p);
    }
  }
  ~BusyMachine() {
    for (pid_t p : hogs) ::kill(p, SIGKILL);
    for (pid_t p : hogs) ::waitpid(p, nullptr, 0);
  }
};

// scan's --timeout on the simulator (CPU seconds on each of its threads) that gives `times` the CPU
// seconds `cpu` a run measured.
int cpuLimitFor(double cpu, double times) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (const char* n = std::getenv("OCLGRIND_NUM_THREADS"); n && std::atoi(n) > 0)
    threads = static_cast<unsigned>(std::atoi(n));
  return std::max(1, static_cast<int>(std::ceil(times * cpu / threads)));
}

// CPU seconds of the children this process waited for since `since` (the tool and its child).
double childCpuSince(const rusage& since) {
  rusage now{};
  ::getrusage(RUSAGE_CHILDREN, &now);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return sec(now.ru_utime) + sec(now.ru_stime) - sec(since.ru_utime) - sec(since.ru_stime);
}

// On the simulator scan's --timeout counts the simulator's CPU time, so a busy machine does not
// reach it: the kernel's CPU time is measured first, then with three busy processes a core beside
// it, a limit of four times that per simulator thread (the first try has half of it, the rest kept
// for a smaller grid) still lets it finish (by the clock it took more than its share doubled,
// where a limit by the clock would have stopped it twice).
TEST(ScanTimeLimit, ABusyMachineDoesNotReachIt) {
  REQUIRE_DEVICE(kSimulator);
  const std::string args = fixture("kernels/spin.cl") +
                           " --kernel spin --global 16 --local 8 --tries 1 --arg n=5000"
                           " --arg out=16";
  rusage before{};
  ::getrusage(RUSAGE_CHILDREN, &before);
  auto quiet = scanJson(args + " --timeout 600", "spin_quiet");
  ASSERT_EQ(quiet.run.code, 0) << quiet.run.out;
  const double cpu = childCpuSince(before);
  const int limit = cpuLimitFor(cpu, 4);
  BusyMachine busy(3);
  const auto start = std::chrono::steady_clock::now();
  auto loaded = scanJson(args + " --timeout " + std::to_string(limit), "spin_loaded");
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "spin: " << cpu << " CPU s alone, limit " << limit << " s a simulator thread, "
            << wall << " s wall beside " << busy.hogs.size() << " busy processes\n";
  EXPECT_EQ(loaded.run.code, 0) << loaded.run.out;
  EXPECT_EQ(loaded.find("timeout"), nullptr) << loaded.run.out;
}

// A grid that runs past the time limit runs again with two work-groups a dimension (issue 27's
// grids that keep the fault): the kernel's CPU time on two work-groups is measured first, the
// limit set at eight times it, so the given 64 work-groups (32 times the work) pass the first
// try's half while the two fit in a half of what is left; the report says which grid ran and
// why. CPU time, so a busy machine changes nothing.
TEST(ScanTimeLimit, AGridPastTheLimitRunsAgainSmallerAndSaysSo) {
  REQUIRE_DEVICE(kSimulator);
  const std::string kernel =
      fixture("kernels/spin.cl") + " --kernel spin --local 8 --tries 1 --arg n=5000";
  rusage before{};
  ::getrusage(RUSAGE_CHILDREN, &before);
  auto two = scanJson(kernel + " --global 16 --timeout 600", "spin_two_groups");
  ASSERT_EQ(two.run.code, 0) << two.run.out;
  const int limit = cpuLimitFor(childCpuSince(before), 8);
  auto s = scanJson(kernel + " --global 512 --timeout " + std::to_string(limit), "spin_shrunk");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
  EXPECT_EQ(s.find("timeout"), nullptr) << s.run.out;
  EXPECT_EQ(s.result["global"], (nlohmann::json{16})) << s.run.out;
  EXPECT_NE(s.run.out.find("the grid 512 (64 work-groups of 8) ran past the time limit "
                           "(--timeout): ran 16 instead"),
            std::string::npos)
      << s.run.out;
}

// A kernel that runs past the limit on one work-group too is checked once more in the
// optimised build, where its loop without effect is gone; the report says what that leaves out.
// The limit is the whole scan's: the optimised build has a quarter of it (after the first try's
// half and the one work-group's quarter), which its build and launch fit (at --timeout 4, 1 CPU
// second a simulator thread: the never-ending tries before it wait out the other 3). Each child
// ends at its share (proc/cpu_limit.hpp: the simulator's compiler catches SIGXCPU and had run each
// a CPU-second past it, which left the last stage nothing on a CI machine).
// A scan of the never-ending `idle` kernel (a loop without effect) with these options.
ScanOut idleScan(const std::string& options, const std::string& name) {
  return scanJson(fixture("kernels/spin.cl") +
                      " --kernel idle --local 8 --tries 1 --arg n=2000000000 --arg out=16 " +
                      options,
                  name);
}

TEST(ScanTimeLimit, PastTheLimitOnTheSmallestGridTheOptimisedBuildIsChecked) {
  REQUIRE_DEVICE(kSimulator);
  auto s = idleScan("--global 16 --timeout 4", "idle_optimised");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
  EXPECT_EQ(s.find("timeout"), nullptr) << s.run.out;
  EXPECT_EQ(s.result["global"], (nlohmann::json{8})) << s.run.out;
  EXPECT_NE(s.run.out.find("the simulator checked the optimised build"), std::string::npos)
      << s.run.out;
  // Built as the user asked (-cl-opt-disable), it stays a timeout.
  auto asked = idleScan("--global 8 --timeout 1 --build-options=-cl-opt-disable", "idle_as_asked");
  EXPECT_EQ(asked.run.code, 1) << asked.run.out;
  EXPECT_NE(asked.find("timeout"), nullptr) << asked.run.out;
}

// A later stage the limit has no time left for is named, not left out in silence: at 1 s, the
// first try's half and the one work-group's share leave less than half a second of it.
TEST(ScanTimeLimit, AStageWithNoTimeLeftIsSaidNotTried) {
  REQUIRE_DEVICE(kSimulator);
  auto s = idleScan("--global 16 --timeout 1", "idle_no_time_left");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  EXPECT_NE(s.find("timeout"), nullptr) << s.run.out;
  EXPECT_NE(s.run.out.find("not tried, with less than 0.5 s of the limit left:"), std::string::npos)
      << s.run.out;
  EXPECT_NE(s.run.out.find("the optimised build"), std::string::npos) << s.run.out;
}

TEST(ScanExplores, ALocalSizeOverTheSimulatorsDefaultLimit) {
  REQUIRE_DEVICE(kSimulator);
  auto s = scanJson(fixture("kernels/clean_sum.cl") +
                        " --kernel neighbour_sum --global 2048 --local 2048 --arg n=2048 "
                        "--arg tile=2048 --tries 1",
                    "local_2048");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
  EXPECT_EQ(s.result["local"], (nlohmann::json{2048})) << s.run.out;
  EXPECT_TRUE(s.result["findings"].empty()) << s.run.out;
}

TEST(ScanFallback, ACheckThatCrashesTheSimulatorIsLeftOffAndSaid) {
  REQUIRE_DEVICE(kSimulator);
  // Oclgrind 21.10's uninitialized-value check dies (SIGSEGV) on this float4 kernel when it is
  // optimised: the scan runs again without that check, the other checks run, and a note says so.
  auto s = scanJson(root("kernels/handson/pi_vec.cl") +
                        " --kernel pi --global 4 --local 4 --arg niters=16 --build-options=-O2 "
                        "--tries 1",
                    "pi_vec_fallback");
  const std::string notes = s.result["notes"].dump();
  if (notes.find("could not run") == std::string::npos)
    GTEST_SKIP() << "this Oclgrind did not crash with its uninitialized-value check: " << s.run.out;
  EXPECT_EQ(s.run.code, 0) << s.run.out;  // nothing charged to the kernel
  EXPECT_NE(notes.find("uninitialized-value check"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("data-race check"), std::string::npos) << notes;
}

TEST(CheckOnSimulator, AnIntraGroupRaceInASpecWithNoLocalSize) {
  REQUIRE_DEVICE(kSimulator);
  std::string json = temp("null_local_race.json");
  ToolRun r = run("check " + fixture("specs/null_local_race.yaml") + " --device Oclgrind " +
                  "--launch-shapes 0 --json " + json);
  EXPECT_EQ(r.code, 1) << r.out;
  auto j = readJson(json);
  const auto& u = j["units"][0];
  ASSERT_TRUE(u.contains("failing_case")) << j.dump(2);
  bool race = false;
  for (const auto& f : u["failing_case"]["findings"]) race = race || f["kind"] == "race";
  EXPECT_TRUE(race) << u.dump(2);
  // The report says the simulator chose the work-groups.
  EXPECT_NE(u["observations"].dump().find("not Oclgrind's 1x1"), std::string::npos) << u.dump(2);
  EXPECT_EQ(u["observations"].dump().find("data-race check was left off"), std::string::npos);
}

// The same kernel as a single work-item on the simulator: nothing to race with, so the unit's
// process leaves Oclgrind's race detector off (a third of such a case's time) and says so.
TEST(CheckOnSimulator, OneWorkItemLeavesTheRaceCheckOffAndSaysWhy) {
  REQUIRE_DEVICE(kSimulator);
  std::string json = temp("one_item_shared_slot.json");
  ToolRun r = run("check " + fixture("specs/one_item_shared_slot.yaml") + " --device Oclgrind " +
                  "--launch-shapes 0 --no-driver-checks --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  const auto j = readJson(json);
  const auto& u = j["units"][0];
  EXPECT_EQ(u["status"], "pass") << u.dump(2);
  EXPECT_NE(u["observations"].dump().find("data-race check was left off: every case launches a "
                                          "single work-item"),
            std::string::npos)
      << u.dump(2);
}

// Units start on the simulator largest case first (a spec's flops at its simulator maxima), so
// that a long one does not start last: one job, the spec without flops named first, starts second.
TEST(CheckOnSimulator, TheUnitWithTheLargestCaseStartsFirst) {
  REQUIRE_DEVICE(kSimulator);
  ToolRun r = run("check " + fixture("specs/null_local_race.yaml") + " " +
                  fixture("specs/one_item_shared_slot.yaml") +
                  " --device Oclgrind --launch-shapes 0 --no-driver-checks --jobs 1");
  const auto first = r.out.find("[1/2] sim_one_item_shared_slot on Oclgrind");
  EXPECT_NE(first, std::string::npos) << r.out;
  EXPECT_LT(first, r.out.find("[2/2] sim_null_local_race on Oclgrind")) << r.out;
}

// The driver checks are a task of their device, handed out before its units: on one thread they
// end before the first unit does (they ran after every unit, while the other cores idled).
TEST(CheckOnSimulator, TheDriverChecksStartBeforeTheUnits) {
  REQUIRE_DEVICE(kSimulator);
  ToolRun r = run("check " + fixture("specs/one_item_shared_slot.yaml") +
                  " --device Oclgrind --launch-shapes 0 --jobs 1");
  EXPECT_EQ(r.code, 0) << r.out;
  const auto drivers = r.out.find("[drivers] Oclgrind");
  ASSERT_NE(drivers, std::string::npos) << r.out;
  EXPECT_LT(drivers, r.out.find("[1/1] sim_one_item_shared_slot on Oclgrind")) << r.out;
}

// On PoCL (label device).

TEST(PoclOutOfBounds, GuardZonesNameTheBuffer) {
  REQUIRE_DEVICE(kPocl);
  std::string json = temp("past_end_pocl.json");
  ToolRun r = run("check " + fixture("specs/vadd_past_end.yaml") + " --device '" + kPocl +
                  "' --json " + json);
  EXPECT_EQ(r.code, 1) << r.out;
  auto j = readJson(json);
  const auto& f = j["units"][0]["failing_case"]["findings"][0];
  EXPECT_EQ(f["kind"], "out_of_bounds") << j.dump(2);
  EXPECT_NE(f["summary"].get<std::string>().find("'c'"), std::string::npos) << f.dump(2);
  EXPECT_NE(f["summary"].get<std::string>().find("guard zone"), std::string::npos) << f.dump(2);
}

TEST(PoclAuditTool, MulLocalWithoutItsFirstBarrierIsWrongOnTheDevice) {
  REQUIRE_DEVICE(kPocl);
  // On PoCL a work-group of 16 x 16 reads tiles before the other work-items wrote them.
  std::string json = temp("mul_local_pocl.json");
  ToolRun r = run("audit " + root("specs/intermediate/mul_local.yaml") + " --device '" + kPocl +
                  "' --call 1 --sizes BSIDE=16,Blk=1 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = readJson(json);
  const auto& call = j["specs"][0]["calls"][0];
  EXPECT_EQ(call["line"], 34);
  EXPECT_EQ(call["verdict"], "necessary") << r.out;
  EXPECT_EQ(call["devices"][0]["evidence"][0]["kind"], "wrong_result") << r.out;
}

// Beside another device, the simulator's largest case still starts first, and the other device
// keeps spec order and its place in each turn: each device's first task starts before either's
// second, whichever device the machine lists first.
TEST(PoclAuditTool, TheSimulatorsOrderLeavesTheOtherDeviceItsTurn) {
  REQUIRE_DEVICE(kPocl);
  REQUIRE_DEVICE(kSimulator);
  ToolRun r = run("check " + fixture("specs/null_local_race.yaml") + " " +
                  fixture("specs/one_item_shared_slot.yaml") + " --device 'Oclgrind|" + kPocl +
                  "' --launch-shapes 0 --no-driver-checks --jobs 1");
  auto at = [&](const std::string& spec, const std::string& device) {
    const std::regex line("\\[([0-9])/4\\] " + spec + " on " + device);
    std::smatch m;
    return std::regex_search(r.out, m, line) ? std::stoi(m[1]) : 0;
  };
  const int simFirst = at("sim_one_item_shared_slot", "Oclgrind"),
            simSecond = at("sim_null_local_race", "Oclgrind"),
            poclFirst = at("sim_null_local_race", kPocl),
            poclSecond = at("sim_one_item_shared_slot", kPocl);
  EXPECT_EQ(std::set<int>({simFirst, poclFirst}), std::set<int>({1, 2})) << r.out;
  EXPECT_EQ(std::set<int>({simSecond, poclSecond}), std::set<int>({3, 4})) << r.out;
}

// With no simulator, the sanitizer's runs on PoCL decide where they can look: __local races.
TEST(PoclAuditTool, TheSanitizersRaceMakesABarrierNecessaryWithNoSimulator) {
  REQUIRE_DEVICE(kPocl);
  // Without the second barrier PoCL's results stay right; the sanitized mutant races on the tiles.
  std::string json = temp("mul_local_sanitized.json");
  ToolRun r = run("audit " + root("specs/intermediate/mul_local.yaml") + " --device '" + kPocl +
                  "' --call 2 --sizes BSIDE=16,Blk=2 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = readJson(json);
  const auto& call = j["specs"][0]["calls"][0];
  EXPECT_EQ(call["line"], 38);
  EXPECT_EQ(call["verdict"], "necessary") << r.out;
  nlohmann::json sanitized;
  for (const auto& d : call["devices"])
    if (d["sanitized"] == true) sanitized = d;
  ASSERT_TRUE(sanitized.is_object()) << call.dump(2);
  ASSERT_FALSE(sanitized["evidence"].empty()) << sanitized.dump(2);
  EXPECT_EQ(sanitized["evidence"][0]["kind"], "race") << sanitized.dump(2);
  EXPECT_EQ(lineSet(sanitized["evidence"][0]), (std::set<int>{30, 37})) << sanitized.dump(2);
  EXPECT_NE(r.out.find("[sanitize]  race (local)"), std::string::npos) << r.out;
}

TEST(PoclAuditTool, ALocalBarrierThatOrdersNothingIsRedundantFromTheSanitizer) {
  REQUIRE_DEVICE(kPocl);
  const std::string args = "audit " + fixture("specs/own_slot_redundant_barrier.yaml") +
                           " --device '" + kPocl + "' --cases 3 --json ";
  std::string json = temp("own_slot_pocl.json");
  ToolRun r = run(args + json);
  ASSERT_EQ(r.code, 0) << r.out;
  auto call = readJson(json)["specs"][0]["calls"][0];
  EXPECT_EQ(call["verdict"], "redundant") << r.out;
  EXPECT_NE(call["reason"].get<std::string>().find("PoCL [sanitize]"), std::string::npos) << r.out;
  // Without the sanitizer a CPU device cannot say.
  ToolRun plain = run(args + json + " --no-sanitize");
  ASSERT_EQ(plain.code, 0) << plain.out;
  call = readJson(json)["specs"][0]["calls"][0];
  EXPECT_EQ(call["verdict"], "undetermined") << plain.out;
  EXPECT_EQ(call["devices"].size(), 1u) << plain.out;
}

TEST(PoclAuditTool, ABarrierOrderingGlobalMemoryStaysUndeterminedWithoutASimulator) {
  REQUIRE_DEVICE(kPocl);
  // The sanitizer does not look at __global races within a work-group: its pass cannot vouch.
  std::string json = temp("redundant_pocl.json");
  ToolRun r = run("audit " + fixture("specs/vadd_redundant_barrier.yaml") + " --device '" + kPocl +
                  "' --cases 3 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = readJson(json);
  const auto& call = j["specs"][0]["calls"][0];
  EXPECT_EQ(call["verdict"], "undetermined") << r.out;
  EXPECT_NE(call["reason"].get<std::string>().find("CLK_GLOBAL_MEM_FENCE"), std::string::npos)
      << r.out;
}

TEST(AuditTool, NoDeviceExitsThree) {
  EXPECT_EQ(run("audit " + root("specs/hackmd/gemm_tiled.yaml") + " --device no-such-device").code,
            3);
  EXPECT_EQ(run("scan " + fixture("kernels/clean_sum.cl") +
                " --kernel k --global 4 --device no-such-device")
                .code,
            3);
}

}  // namespace
