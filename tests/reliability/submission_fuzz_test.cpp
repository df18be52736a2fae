// A fuzz test of the submission reader and of every reading the grading parent makes of a
// student's text: rapidcheck-generated files (kernel tokens, comments, splices, directives,
// diagnostics, runs of one character up to megabytes, random bytes; sometimes over the size cap)
// read with readSubmissionFile, then the include guard, the parameter and technique scanners, the
// interface comparison, the build-log filter, the compiler-name renaming and the declaration
// finder over them: no crash, no hang, and what was read is the file's bytes. A fixed seed;
// CLH_FUZZ_INPUTS sets how many inputs (the nightly test runs more).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "grade/explain.hpp"
#include "grade/grade.hpp"
#include "grade/source_guard.hpp"
#include "grade/submission_file.hpp"

namespace fs = std::filesystem;

namespace {

const std::vector<std::string>& pieces() {
  static const std::vector<std::string> all = {"__kernel",
                                               "kernel",
                                               " ",
                                               "\t",
                                               "\n",
                                               "void",
                                               "vadd",
                                               "(",
                                               ")",
                                               ",",
                                               ";",
                                               "{",
                                               "}",
                                               "[",
                                               "]",
                                               "*",
                                               "global",
                                               "__local",
                                               "local",
                                               "float",
                                               "int x",
                                               "float t;",
                                               "barrier",
                                               "(0)",
                                               "atomic_add",
                                               "work_group_barrier",
                                               "/*",
                                               "*/",
                                               "//",
                                               "\"",
                                               "'",
                                               "\\\n",
                                               "#",
                                               "%:",
                                               "?\?=",
                                               "include",
                                               "#include \"/etc/passwd\"\n",
                                               "__has_include",
                                               "input.cl",
                                               "tempfile_aB3.cl",
                                               "/root/.cache/pocl/kcache/",
                                               "a.cl:3:5: error: x\n",
                                               "error: a.cl:1:2: y\n",
                                               ":12:",
                                               "1 error generated.\n",
                                               "In file included from x\n",
                                               "\r\n",
                                               "\xff\xfe",
                                               std::string(1, '\0')};
  return all;
}

// A run of one character or piece, up to `most` bytes: what overflowed std::regex before.
std::string run(size_t most) {
  const std::string unit = *rc::gen::elementOf(pieces());
  const size_t n = *rc::gen::inRange<size_t>(1, most / std::max<size_t>(1, unit.size()) + 1);
  std::string out;
  out.reserve(n * unit.size());
  for (size_t i = 0; i < n; ++i) out += unit;
  return out;
}

std::string submissionText() {
  std::string text;
  const int parts = *rc::gen::inRange(1, 40);
  for (int i = 0; i < parts; ++i) {
    switch (*rc::gen::inRange(0, 10)) {
      case 0:  // a long run, sometimes past the cap
        text += run(*rc::gen::element<size_t>(4096, 300000, clh::grade::kMaxSubmissionBytes + 10));
        break;
      case 1:  // random bytes
        text += *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
        break;
      case 2:  // a whole kernel head
        text += "__kernel void vadd(global const float* a, global float* c, const int n)";
        break;
      default:
        text += *rc::gen::elementOf(pieces());
    }
  }
  return text;
}

TEST(SubmissionFuzz, HostileFilesAreReadAndScannedNeverACrash) {
  const char* env = std::getenv("CLH_FUZZ_INPUTS");
  const int inputs = env ? std::atoi(env) : 300;
  const fs::path dir = fs::path(::testing::TempDir()) / "clh-submission-fuzz";
  fs::create_directories(dir);
  const std::string path = (dir / "alice.cl").string();
  const clh::grade::Submission sub{"alice", path, {}};
  const auto reference =
      *clh::grade::kernelParameters("__kernel void vadd(global const float* a, int n) {}", "vadd");

  int tried = 0, refused = 0;
  auto property = [&] {
    const std::string text = submissionText();
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << text;
    }
    ++tried;
    const clh::grade::SubmissionBytes b = clh::grade::readSubmissionFile(path);
    if (text.size() > clh::grade::kMaxSubmissionBytes) {
      RC_ASSERT(!b.refused.empty());
      RC_ASSERT(b.text.empty());
      ++refused;
      return;
    }
    RC_ASSERT(b.refused.empty());
    RC_ASSERT(b.text == text);
    clh::grade::refusedSource(b.text);
    if (auto got = clh::grade::kernelParameters(b.text, "vadd"))
      clh::grade::interfaceDifferences(reference, *got);
    clh::grade::techniquesUsed(b.text);
    clh::grade::studentBuildLog(clh::grade::studentPaths(b.text, sub), "alice.cl");
    clh::grade::withoutHostPaths(b.text.substr(0, 4096));
    const int lines = static_cast<int>(std::count(b.text.begin(), b.text.end(), '\n')) + 1;
    clh::grade::uninitializedDeclarations(b.text, *rc::gen::inRange(1, lines + 1));
  };
  rc::detail::TestParams params;
  params.seed = 20261125;
  params.maxSuccess = inputs;
  params.maxSize = 100;
  params.disableShrinking = true;  // a failure prints its input's seed; shrinking megabytes is slow
  rc::detail::TestListenerAdapter quiet;
  rc::detail::TestMetadata meta;
  meta.id = "submission-fuzz";
  const auto result =
      rc::detail::checkProperty(rc::detail::toProperty(property), meta, params, quiet, {});
  std::cout << "submission fuzz: " << tried << " inputs tried (" << refused
            << " over the size cap, refused), seed " << params.seed << "\n";
  rc::detail::FailureResult failure;
  if (result.match(failure)) FAIL() << failure.description;
  rc::detail::Error error;
  if (result.match(error)) FAIL() << error.description;
  EXPECT_GE(tried, inputs);
  EXPECT_GT(refused, 0);  // the cap is reached
  fs::remove_all(dir);
}

}  // namespace
