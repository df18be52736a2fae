// A fuzz test of the spec loader: rapidcheck-generated mutations of the real specs (lines dropped,
// duplicated and swapped, values swapped, types changed, random bytes, huge numbers, deep nesting,
// cut files) fed to loadSpec(): no crash, no hang, and every error a SpecError naming the file and
// a line. A fixed seed; CLH_FUZZ_INPUTS sets how many inputs (the nightly test runs more).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/spec.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The value part of "key: value" (after the first ": "), or npos.
size_t valueAt(const std::string& line) {
  const auto at = line.find(": ");
  return at == std::string::npos ? at : at + 2;
}

const std::vector<std::string>& replacementValues() {
  static const std::vector<std::string> values = {"",
                                                  "~",
                                                  "null",
                                                  "[]",
                                                  "{}",
                                                  "[1, 2]",
                                                  "{a: 1}",
                                                  "\"text\"",
                                                  "-1",
                                                  "0",
                                                  "1.5",
                                                  "nan",
                                                  ".inf",
                                                  "true",
                                                  "1e308",
                                                  "-1e308",
                                                  "9223372036854775807",
                                                  "99999999999999999999999",
                                                  "N*1000000000000",
                                                  "[4096, 1]",
                                                  "[1, 4096, 7]",
                                                  "&a [1]",
                                                  "*a",
                                                  "!!binary x",
                                                  "'unclosed",
                                                  "\"unclosed",
                                                  "{",
                                                  "[",
                                                  "N/0",
                                                  "sqrt(-1)",
                                                  "N*N*N*N*N*N*N*N*N*N*N*N*N*N*N*N*N*N*N*N",
                                                  "uniform(1, -1)",
                                                  "constant()",
                                                  "exact",
                                                  "{ulp: -3}",
                                                  "float",
                                                  "no_such",
                                                  "role: out",
                                                  "- x",
                                                  "|",
                                                  ">",
                                                  "? x"};
  return values;
}

std::string nested(int depth, bool list) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += list ? "[" : "{a: ";
  s += "1";
  for (int i = 0; i < depth; ++i) s += list ? "]" : "}";
  return s;
}

// One mutation of the text, drawn by rapidcheck.
std::string mutate(std::string text) {
  std::vector<std::string> lines = splitLines(text);
  if (lines.empty()) lines.push_back("");
  const auto line = [&] { return *rc::gen::inRange<size_t>(0, lines.size()); };
  switch (*rc::gen::inRange(0, 10)) {
    case 0:  // a line dropped
      lines.erase(lines.begin() + static_cast<long>(line()));
      break;
    case 1: {  // a line duplicated
      const size_t i = line();
      lines.insert(lines.begin() + static_cast<long>(i), lines[i]);
      break;
    }
    case 2:  // two lines swapped
      std::swap(lines[line()], lines[line()]);
      break;
    case 3: {  // two values swapped
      const size_t i = line(), k = line();
      const size_t vi = valueAt(lines[i]), vk = valueAt(lines[k]);
      if (vi != std::string::npos && vk != std::string::npos) {
        const std::string a = lines[i].substr(vi), b = lines[k].substr(vk);
        lines[i] = lines[i].substr(0, vi) + b;
        lines[k] = lines[k].substr(0, vk) + a;
      }
      break;
    }
    case 4: {  // a value of another type, a huge number, a broken expression
      const size_t i = line();
      const size_t v = valueAt(lines[i]);
      const std::string value = *rc::gen::elementOf(replacementValues());
      lines[i] = v == std::string::npos ? value : lines[i].substr(0, v) + value;
      break;
    }
    case 5: {  // deep nesting
      const size_t i = line();
      const size_t v = valueAt(lines[i]);
      const std::string value = nested(*rc::gen::inRange(1, 3000), *rc::gen::arbitrary<bool>());
      lines[i] = v == std::string::npos ? value : lines[i].substr(0, v) + value;
      break;
    }
    case 6: {  // random bytes at a random place
      std::string joined;
      for (const auto& l : lines) joined += l + "\n";
      const auto bytes = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
      joined.insert(*rc::gen::inRange<size_t>(0, joined.size() + 1), bytes);
      return joined;
    }
    case 7: {  // the file cut short
      std::string joined;
      for (const auto& l : lines) joined += l + "\n";
      return joined.substr(0, *rc::gen::inRange<size_t>(0, joined.size() + 1));
    }
    case 8: {  // indentation changed
      std::string& l = lines[line()];
      if (*rc::gen::arbitrary<bool>())
        l = "  " + l;
      else if (!l.empty() && l[0] == ' ')
        l = l.substr(1);
      break;
    }
    default: {  // a number made huge or negative
      std::string& l = lines[line()];
      const auto digit = l.find_first_of("0123456789");
      if (digit != std::string::npos)
        l.insert(digit,
                 *rc::gen::element<std::string>("-", "99999999999999999999", "1e30*", "0x", "0."));
      break;
    }
  }
  std::string joined;
  for (const auto& l : lines) joined += l + "\n";
  return joined;
}

std::vector<std::string> realSpecs() {
  std::vector<std::string> out =
      clh::findSpecFiles({std::string(CLHARNESS_SOURCE_ROOT) + "/specs"});
  return out;
}

TEST(SpecFuzz, MutatedRealSpecsGiveSpecErrorsWithFileAndLineNeverACrash) {
  const char* env = std::getenv("CLH_FUZZ_INPUTS");
  const int inputs = env ? std::atoi(env) : 2000;
  const std::vector<std::string> specs = realSpecs();
  ASSERT_FALSE(specs.empty());
  std::vector<std::string> originals;
  for (const auto& s : specs) originals.push_back(readFile(s));
  const fs::path dir = fs::path(::testing::TempDir()) / "clh-spec-fuzz";
  fs::create_directories(dir);
  const std::string path = (dir / "mutant.yaml").string();

  int tried = 0, accepted = 0, rejected = 0;
  auto property = [&] {
    const size_t which = *rc::gen::inRange<size_t>(0, originals.size());
    std::string text = originals[which];
    const int n = *rc::gen::inRange(1, 5);
    for (int i = 0; i < n; ++i) text = mutate(text);
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << text;
    }
    ++tried;
    try {
      clh::loadSpec(path, CLHARNESS_SOURCE_ROOT);
      ++accepted;
    } catch (const clh::SpecError& e) {
      ++rejected;
      const std::string prefix = path + ":" + std::to_string(e.line()) + ": ";
      if (e.file() != path || e.line() < 1 || std::string(e.what()).rfind(prefix, 0) != 0)
        RC_FAIL(std::string("an error without its file and line: ") + e.what() +
                "\n--- input (from " + specs[which] + ") ---\n" + text);
    } catch (const std::exception& e) {
      RC_FAIL(std::string("not a SpecError (") + typeid(e).name() + "): " + e.what() +
              "\n--- input (from " + specs[which] + ") ---\n" + text);
    }
  };
  rc::detail::TestParams params;
  params.seed = 20261121;
  params.maxSuccess = inputs;
  params.maxSize = 100;
  rc::detail::TestListenerAdapter quiet;
  rc::detail::TestMetadata meta;
  meta.id = "spec-fuzz";
  const auto result =
      rc::detail::checkProperty(rc::detail::toProperty(property), meta, params, quiet, {});
  std::cout << "spec fuzz: " << tried << " inputs tried (" << accepted << " accepted, " << rejected
            << " rejected with file and line), seed " << params.seed << "\n";
  rc::detail::FailureResult failure;
  if (result.match(failure)) FAIL() << failure.description;
  rc::detail::Error error;
  if (result.match(error)) FAIL() << error.description;
  EXPECT_GE(tried, inputs);
  EXPECT_GT(rejected, 0);  // the mutations do reach the loader's checks
  fs::remove_all(dir);
}

}  // namespace
