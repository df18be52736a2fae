// Reads Oclgrind's .sim files (scan/sim_file.hpp) with oclgrind-kernel's grammar and makes each
// argument's bytes as it does.
#include "scan/sim_file.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "scan/scan.hpp"

namespace fs = std::filesystem;

namespace clh::scan {

namespace {

struct Token {
  std::string text;
  int line = 0;
  bool header = false;  ///< a `<...>` argument header (text without the brackets)
};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw ScanUsageError(fmt::format("{}:{}: {}", path, line, what));
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The line's tokens: `#` starts a comment; `<` opens a header that ends at the line's last `>`.
void tokenize(const std::string& path, const std::string& raw, int line, std::vector<Token>& out) {
  const std::string text = raw.substr(0, raw.find('#'));
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text[i] == '<') {
      const size_t end = text.find_last_of('>');
      if (end == std::string::npos || end < i)
        fail(path, line, "missing '>' at the end of the argument header");
      out.push_back({text.substr(i + 1, end - i - 1), line, true});
      i = end + 1;
    } else {
      size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
      out.push_back({text.substr(i, j - i), line, false});
      i = j;
    }
  }
}

SimArgument parseHeader(const std::string& path, const Token& t) {
  SimArgument a;
  a.line = t.line;
  for (const std::string& w : words(t.text)) {
    if (simTypeSize(w) != 0) {
      if (!a.type.empty()) fail(path, t.line, "argument type defined multiple times");
      a.type = w;
    } else if (w.rfind("dump", 0) == 0) {
      a.dump = true;
    } else if (w.rfind("fill", 0) == 0) {
      if (w.size() < 6 || w[4] != '=') fail(path, t.line, "expected =VALUE after 'fill'");
      a.fill = w.substr(5);
    } else if (w == "hex") {
      a.hex = true;
    } else if (w == "noinit") {
      a.noinit = true;
    } else if (w == "null") {
      a.null = true;
    } else if (w.rfind("range", 0) == 0) {
      if (w.size() < 7 || w[5] != '=') fail(path, t.line, "expected =START:INC:END after 'range'");
      a.range = w.substr(6);
    } else if (w == "ro" || w == "wo") {
      if (a.ro || a.wo) fail(path, t.line, "'ro' and 'wo' are mutually exclusive");
      (w == "ro" ? a.ro : a.wo) = true;
    } else if (w.rfind("size", 0) == 0) {
      size_t used = 0;
      try {
        if (w.size() < 6 || w[4] != '=') throw std::invalid_argument("size");
        a.size = std::stoull(w.substr(5), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != w.size() - 5 || w[5] == '-')
        fail(path, t.line, "invalid value for 'size'");
      a.sized = true;
    } else {
      fail(path, t.line, "unrecognised header token '" + w + "'");
    }
  }
  if (a.null) {
    if (a.sized || !a.fill.empty() || !a.range.empty() || a.noinit || a.dump)
      fail(path, t.line, "'null' not valid with other argument descriptors");
  } else if (!a.sized) {
    fail(path, t.line, "size required");
  }
  if (a.noinit + !a.fill.empty() + !a.range.empty() > 1)
    fail(path, t.line, "multiple initializers present");
  return a;
}

size_t toSize(const std::string& path, const Token& t, const char* what) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(t.text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != t.text.size() || t.text[0] == '-' || v == 0)
    fail(path, t.line, fmt::format("failed to parse {}: '{}'", what, t.text));
  return v;
}

template <class T>
void append(std::vector<uint8_t>& out, T v) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}

// One value of `type` as oclgrind-kernel reads it (istream >>; chars as integers in range).
template <class T>
T readValue(const std::string& text, bool hex, const std::string& where) {
  size_t used = 0;
  T v{};
  try {
    if constexpr (std::is_floating_point_v<T>) {
      v = static_cast<T>(std::stod(text, &used));
    } else if constexpr (std::is_signed_v<T>) {
      long long x = std::stoll(text, &used, hex ? 16 : 10);
      if (x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max())
        throw ScanUsageError(where + ": value '" + text + "' out of range");
      v = static_cast<T>(x);
    } else {
      long long x = text[0] == '-'
                        ? std::stoll(text, &used, hex ? 16 : 10)
                        : static_cast<long long>(std::stoull(text, &used, hex ? 16 : 10));
      if (sizeof(T) == 1 && (x < -128 || x > 255))
        throw ScanUsageError(where + ": value '" + text + "' out of range");
      v = static_cast<T>(x);
    }
  } catch (const ScanUsageError&) {
    throw;
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw ScanUsageError(where + ": cannot read '" + text + "' as a value");
  return v;
}

template <class T>
std::vector<uint8_t> typedBytes(const SimArgument& a, size_t n, const std::string& where) {
  std::vector<uint8_t> out;
  out.reserve(n * sizeof(T));
  if (!a.fill.empty()) {
    const T v = readValue<T>(a.fill, a.hex, where + ": invalid fill value");
    for (size_t i = 0; i < n; ++i) append(out, v);
  } else if (!a.range.empty()) {
    const size_t c1 = a.range.find(':'), c2 = a.range.find(':', c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos)
      throw ScanUsageError(where + ": invalid range format (START:INC:END)");
    const T start = readValue<T>(a.range.substr(0, c1), a.hex, where);
    const T inc = readValue<T>(a.range.substr(c1 + 1, c2 - c1 - 1), a.hex, where);
    const T end = readValue<T>(a.range.substr(c2 + 1), a.hex, where);
    const double num =
        (static_cast<double>(end) - static_cast<double>(start) + static_cast<double>(inc)) /
        static_cast<double>(inc);
    if (std::ceil(num) != num || static_cast<size_t>(num) != n)
      throw ScanUsageError(where + ": range doesn't produce correct buffer size");
    T v = start;
    for (size_t i = 0; i < n; ++i, v = static_cast<T>(v + inc)) append(out, v);
  } else if (!a.noinit) {
    if (a.values.size() != n)
      throw ScanUsageError(
          fmt::format("{}: {} value{} of the argument's {} (size {} / {}), found {}", where, n,
                      n == 1 ? "" : "s", n, a.size, sizeof(T), a.values.size()));
    for (const auto& text : a.values) append(out, readValue<T>(text, a.hex, where));
  } else {
    out.assign(n * sizeof(T), 0);
  }
  return out;
}

}  // namespace

size_t simTypeSize(const std::string& type) {
  static const std::vector<std::pair<std::string, size_t>> sizes = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
      {"uint", 4}, {"long", 8},  {"ulong", 8}, {"float", 4},  {"double", 8}};
  for (const auto& [name, size] : sizes)
    if (name == type) return size;
  return 0;
}

std::string simDefaultType(const std::string& arg_type_name) {
  // oclgrind-kernel: the first of these the type name starts with.
  for (const char* t :
       {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"})
    if (arg_type_name.rfind(t, 0) == 0) return t;
  if (arg_type_name.rfind("void*", 0) == 0) return "uchar";
  return {};
}

std::vector<uint8_t> simArgumentBytes(const SimArgument& a, const std::string& type,
                                      const std::string& sim_path, const std::string& name) {
  const std::string where = fmt::format("{}:{}: argument '{}'", sim_path, a.line, name);
  const size_t typeSize = simTypeSize(type);
  if (typeSize == 0)
    throw ScanUsageError(where + ": no element type (give one in the header, e.g. <size=" +
                         std::to_string(a.size) + " uchar>)");
  if (a.size % typeSize)
    throw ScanUsageError(where + ": initialiser type must exactly divide argument size");
  const size_t n = a.size / typeSize;
  if (type == "char") return typedBytes<int8_t>(a, n, where);
  if (type == "uchar") return typedBytes<uint8_t>(a, n, where);
  if (type == "short") return typedBytes<int16_t>(a, n, where);
  if (type == "ushort") return typedBytes<uint16_t>(a, n, where);
  if (type == "int") return typedBytes<int32_t>(a, n, where);
  if (type == "uint") return typedBytes<uint32_t>(a, n, where);
  if (type == "long") return typedBytes<int64_t>(a, n, where);
  if (type == "ulong") return typedBytes<uint64_t>(a, n, where);
  if (type == "float") return typedBytes<float>(a, n, where);
  return typedBytes<double>(a, n, where);
}

SimFile parseSimFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ScanUsageError("cannot read " + path);
  SimFile sim;
  sim.path = path;
  std::vector<Token> tokens;
  int line = 0;
  for (std::string text; std::getline(in, text);) {
    ++line;
    if (line == 1 && text.rfind("# ARGS:", 0) == 0) {  // oclgrind-kernel's options for the test
      const auto w = words(text.substr(7));
      for (size_t i = 0; i < w.size(); ++i) {
        if ((w[i] == "--build-options" || w[i] == "-b") && i + 1 < w.size())
          sim.build_options += (sim.build_options.empty() ? "" : " ") + w[++i];
        else
          sim.ignored_args.push_back(w[i]);
      }
      continue;
    }
    tokenize(path, text, line, tokens);
  }
  const char* header[] = {"program file", "kernel",          "NDRange",         "NDRange",
                          "NDRange",      "work-group size", "work-group size", "work-group size"};
  size_t i = 0;
  for (; i < 8; ++i) {
    if (i >= tokens.size())
      fail(path, line, fmt::format("unexpected end when reading the {}", header[i]));
    if (tokens[i].header) fail(path, tokens[i].line, fmt::format("expected the {}", header[i]));
  }
  sim.kernel_file = (fs::path(path).parent_path() / tokens[0].text).lexically_normal().string();
  sim.kernel = tokens[1].text;
  for (size_t d = 0; d < 3; ++d) sim.global.push_back(toSize(path, tokens[2 + d], "NDRange"));
  for (size_t d = 0; d < 3; ++d)
    sim.local.push_back(toSize(path, tokens[5 + d], "work-group size"));
  for (; i < tokens.size(); ++i) {
    if (tokens[i].header) {
      sim.args.push_back(parseHeader(path, tokens[i]));
    } else if (sim.args.empty()) {
      fail(path, tokens[i].line, "expected argument header <...>, found '" + tokens[i].text + "'");
    } else {
      sim.args.back().values.push_back(tokens[i].text);
      sim.args.back().value_lines.push_back(tokens[i].line);
    }
  }
  return sim;
}

}  // namespace clh::scan
