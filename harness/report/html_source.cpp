// Kernel source in the HTML reports (report/html.hpp): the file a finding names, read when the
// report is written, with the involved lines marked; the lines the finding carries otherwise.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "report/html.hpp"

namespace fs = std::filesystem;

namespace clh::html {

namespace {

std::string trimmed(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

std::string row(int number, const std::string& text, bool marked) {
  return fmt::format("<tr{}><td class=\"ln\">{}</td><td class=\"tx\">{}</td></tr>\n",
                     marked ? " class=\"hl\"" : "", number, escape(text));
}

}  // namespace

std::string findSourceFile(const std::string& file, const std::vector<std::string>& folders) {
  if (file.empty()) return "";
  std::error_code ec;
  auto regular = [&](const fs::path& p) { return fs::is_regular_file(p, ec); };
  if (regular(file)) return file;
  if (fs::path(file).is_absolute()) return "";
  for (const auto& f : folders)
    if (!f.empty() && regular(fs::path(f) / file)) return (fs::path(f) / file).string();
  return "";
}

std::string renderSourceLines(const std::vector<SourceLine>& lines,
                              const std::vector<std::string>& folders, int context) {
  // Per file, in the order the finding names them.
  std::vector<std::string> files;
  std::map<std::string, std::vector<const SourceLine*>> byFile;
  for (const auto& l : lines) {
    if (l.line <= 0 && l.text.empty()) continue;
    if (!byFile.count(l.file)) files.push_back(l.file);
    byFile[l.file].push_back(&l);
  }
  std::string out;
  for (const auto& file : files) {
    const auto& involved = byFile[file];
    std::set<int> marked;
    for (const auto* l : involved) marked.insert(l->line);
    const std::string found = findSourceFile(file, folders);
    std::vector<std::string> text;
    if (!found.empty()) {
      std::ifstream in(found);
      for (std::string s; std::getline(in, s);) text.push_back(s);
    }
    out += "<div class=\"src\"><div class=\"srcfile\">" +
           escape(file.empty() ? "(no file named)" : file);
    if (found.empty()) {
      out +=
          " &mdash; <span class=\"note\">source not found here (a report from another "
          "machine, or a file since moved): the lines the finding carries</span></div>\n"
          "<table class=\"code\">\n";
      std::vector<const SourceLine*> sorted = involved;
      std::sort(sorted.begin(), sorted.end(),
                [](const SourceLine* a, const SourceLine* b) { return a->line < b->line; });
      int last = 0;
      for (const auto* l : sorted) {
        if (l->line == last) continue;
        out += row(l->line, l->text, true);
        last = l->line;
      }
      out += "</table></div>\n";
      continue;
    }
    out += "</div>\n<table class=\"code\">\n";
    // A short kernel whole; a longer one as windows of `context` lines around the marked ones.
    const int n = static_cast<int>(text.size());
    std::vector<bool> shown(static_cast<size_t>(n) + 1, n <= 40);
    for (int m : marked)
      for (int k = std::max(1, m - context); k <= std::min(n, m + context); ++k)
        shown[static_cast<size_t>(k)] = true;
    bool gap = false;
    for (int k = 1; k <= n; ++k) {
      if (!shown[static_cast<size_t>(k)]) {
        gap = true;
        continue;
      }
      if (gap) out += "<tr class=\"gap\"><td class=\"ln\">&#8942;</td><td></td></tr>\n";
      gap = false;
      out += row(k, text[static_cast<size_t>(k - 1)], marked.count(k) > 0);
    }
    out += "</table>\n";
    // A file that changed since the run: say what the finding's line read then.
    for (const auto* l : involved) {
      const bool past = l->line > n || l->line <= 0;
      if (!l->text.empty() &&
          (past || trimmed(text[static_cast<size_t>(l->line - 1)]) != trimmed(l->text)))
        out += fmt::format(
            "<p class=\"note\">line {} of {} read <code>{}</code> when the finding was made: the "
            "file has changed since</p>\n",
            l->line, escape(found), escape(trimmed(l->text)));
    }
    out += "</div>\n";
  }
  return out;
}

std::string formatSizesList(const Sizes& sizes) {
  std::string out;
  for (const auto& [k, v] : sizes) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", k, v);
  return out;
}

std::string renderFinding(const Finding& f, const std::vector<std::string>& folders,
                          bool expected) {
  std::string out =
      fmt::format("<div class=\"finding{}\"><p><b>{}</b>{}: {}", expected ? " expected" : "",
                  escape(toString(f.kind)), expected ? " (expected)" : "", escape(f.summary));
  if (!f.kernel.empty())
    out += " <span class=\"meta\">in kernel <code>" + escape(f.kernel) + "</code></span>";
  if (!f.address_space.empty())
    out += " <span class=\"meta\">(" + escape(f.address_space) + " memory)</span>";
  out += "</p>\n";
  if (!f.mismatches.empty()) {
    out += "<table><tr><th>element</th><th>got</th><th>want</th></tr>\n";
    const size_t shown = std::min<size_t>(f.mismatches.size(), 8);
    for (size_t i = 0; i < shown; ++i) {
      const Mismatch& m = f.mismatches[i];
      std::string index;
      for (auto k : m.index) index += (index.empty() ? "" : ", ") + std::to_string(k);
      out += fmt::format("<tr><td><code>{}[{}]</code></td><td>{}{}</td><td>{}</td></tr>\n",
                         escape(m.buffer), escape(index), escape(m.got),
                         m.unwritten ? " <span class=\"note\">(never written)</span>" : "",
                         escape(m.want));
    }
    out += "</table>\n";
    const int64_t all =
        std::max<int64_t>(f.mismatch_count, static_cast<int64_t>(f.mismatches.size()));
    out +=
        fmt::format("<p class=\"meta\">the first {} of {} mismatching elements</p>\n", shown, all);
  }
  if (!f.work_items.empty()) {
    out += "<p class=\"meta\">work-items: ";
    for (size_t i = 0; i < f.work_items.size(); ++i)
      out += (i ? "; " : "") + ("<code>" + escape(f.work_items[i]) + "</code>");
    out += "</p>\n";
  }
  out += renderSourceLines(f.lines, folders);
  if (!f.raw.empty()) {
    const std::string raw = f.raw.size() > 6000 ? f.raw.substr(0, 6000) + "\n..." : f.raw;
    out += "<details><summary>the tool's own text</summary><pre class=\"cmd\">" + escape(raw) +
           "</pre></details>\n";
  }
  out += "</div>\n";
  return out;
}

}  // namespace clh::html
