// What scan tries for a kernel's arguments: scalar values, ranges, a default local size, and the
// OpenCL C type of each argument (scan/scan.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <numeric>
#include <random>
#include <regex>
#include <set>
#include <type_traits>

#include "core/reference.hpp"
#include "core/result.hpp"
#include "core/text.hpp"
#include "scan/scan.hpp"
#include "sim/work_groups.hpp"

namespace clh::scan {

namespace {

bool isSigned(ElemType t) {
  return visitElemType(
      t, []<class T>(TypeTag<T>) { return std::is_integral_v<T> && std::is_signed_v<T>; });
}

}  // namespace

std::vector<double> scalarValuesToTry(ElemType type, double first, size_t global_x, uint64_t seed) {
  std::vector<double> candidates;
  if (isFloat(type)) {
    candidates = {0.0, -1.0, 0.5};
  } else {
    candidates = {0.0, 1.0};
    if (isSigned(type)) candidates.push_back(-1.0);
    if (global_x > 1) candidates.push_back(static_cast<double>(global_x - 1));
    if (global_x > 3) {
      std::mt19937_64 rng(seed);
      candidates.push_back(
          static_cast<double>(std::uniform_int_distribution<size_t>(2, global_x - 1)(rng)));
    }
  }
  std::vector<double> out;
  for (double v : candidates)
    if (v != first && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

std::vector<double> rangeValuesToTry(ElemType type, double lo, double hi, uint64_t seed) {
  std::vector<double> candidates = {lo, hi};
  if (!isFloat(type)) {
    candidates.push_back(lo + 1);
    candidates.push_back(hi - 1);
    if (hi - lo > 2) {
      std::mt19937_64 rng(seed);
      candidates.push_back(static_cast<double>(std::uniform_int_distribution<long long>(
          static_cast<long long>(lo) + 1, static_cast<long long>(hi) - 1)(rng)));
    }
  } else {
    std::mt19937_64 rng(seed);
    candidates.push_back(std::uniform_real_distribution<double>(lo, hi)(rng));
  }
  std::vector<double> out;
  for (double v : candidates)
    if (v >= lo && v <= hi && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

std::vector<size_t> defaultLocalSize(const std::vector<size_t>& global, size_t max_items,
                                     const std::vector<size_t>& max_dims) {
  std::vector<size_t> local;
  size_t room = std::max<size_t>(max_items, 1);
  for (size_t d = 0; d < global.size(); ++d) {
    size_t cap = room;
    if (d < max_dims.size() && max_dims[d] > 0) cap = std::min(cap, max_dims[d]);
    size_t best = 1;
    for (size_t l = std::min(cap, global[d]); l >= 1; --l)
      if (global[d] % l == 0) {
        best = l;
        break;
      }
    local.push_back(best);
    room /= best;
  }
  return local;
}

bool parseArgType(const std::string& type_name, ElemType& type, int& width) {
  // Words: qualifiers go; what is left is the base type, then array dimensions, then '*'.
  std::string t;
  std::string word;
  auto flush = [&] {
    static const std::vector<std::string> qualifiers = {
        "const",    "volatile", "restrict", "__global",  "global", "__constant",
        "constant", "__local",  "local",    "__private", "private"};
    if (!word.empty() && std::find(qualifiers.begin(), qualifiers.end(), word) == qualifiers.end())
      t += (t.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : type_name) {
    if (std::isspace(static_cast<unsigned char>(c)))
      flush();
    else
      word += c;
  }
  flush();
  while (!t.empty() && (t.back() == '*' || std::isspace(static_cast<unsigned char>(t.back()))))
    t.pop_back();
  width = 1;
  // A pointer to an array (a parameter declared `int A[N][N]`): each element is a whole row.
  while (!t.empty() && t.back() == ']') {
    size_t open = t.rfind('[');
    if (open == std::string::npos) return false;
    try {
      size_t used = 0;
      int n = std::stoi(t.substr(open + 1, t.size() - open - 2), &used);
      if (n <= 0 || used != t.size() - open - 2) return false;
      width *= n;
    } catch (const std::exception&) {
      return false;
    }
    t = trim(t.substr(0, open));
  }
  if (t.rfind("unsigned ", 0) == 0) t = "u" + trim(t.substr(9));
  size_t digits = t.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(t[digits - 1]))) --digits;
  if (digits < t.size()) {
    int lanes = std::stoi(t.substr(digits));
    if (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16) return false;
    width *= lanes == 3 ? 4 : lanes;  // a 3-component vector occupies 4 in memory
    t = t.substr(0, digits);
  }
  auto e = elemTypeFromString(t);
  if (!e) return false;
  type = *e;
  return true;
}

bool allowsNonUniformGroups(const std::string& build_options) {
  static const std::regex std20(R"((^|\s)-cl-std=CL([2-9]|[1-9][0-9])\.\d+(\s|$))");
  return std::regex_search(build_options, std20) &&
         build_options.find("-cl-uniform-work-group-size") == std::string::npos;
}

namespace {
template <class T>
void appendAs(std::vector<uint8_t>& out, double v) {
  const T x = static_cast<T>(v);
  const auto* p = reinterpret_cast<const uint8_t*>(&x);
  out.insert(out.end(), p, p + sizeof(T));
}
}  // namespace

std::vector<uint8_t> vectorBytes(ElemType type, int width, const std::vector<double>& lanes) {
  std::vector<uint8_t> out;
  for (int i = 0; i < width; ++i) {
    const double v = lanes.empty() ? 0.0 : lanes[lanes.size() == 1 ? 0 : static_cast<size_t>(i)];
    visitElemType(type, [&]<class T>(TypeTag<T>) { appendAs<T>(out, v); });
  }
  return out;
}

bool fillableType(const std::string& type_name) {
  static const std::regex opaque(
      R"(\b(image1d_(array|buffer)\w*|image2d_(array|depth|msaa)\w*|pipe|queue_t|clk_event_t|)"
      R"(event_t|reserve_id_t)\b)");
  return !std::regex_search(type_name, opaque);
}

int imageDimensions(const std::string& type_name) {
  static const std::regex image(R"(\bimage([123])d_t\b)");
  std::smatch m;
  return std::regex_search(type_name, m, image) ? m[1].str()[0] - '0' : 0;
}

bool isSampler(const std::string& type_name) {
  static const std::regex sampler(R"(\bsampler_t\b)");
  return std::regex_search(type_name, sampler);
}

}  // namespace clh::scan
