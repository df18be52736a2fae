// A word-level scan of OpenCL C for the features that tie a kernel to its work-group shape.
#include "launch/kernel_scan.hpp"

#include <algorithm>
#include <cctype>

namespace clh::launch {

std::string stripCommentsAndStrings(const std::string& s) {
  std::string out = s;
  size_t i = 0;
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      size_t end = s.find('\n', i);
      if (end == std::string::npos) end = s.size();
      blank(i, end);
      i = end;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t end = s.find("*/", i + 2);
      end = end == std::string::npos ? s.size() : end + 2;
      blank(i, end);
      i = end;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char quote = s[i];
      size_t k = i + 1;
      while (k < s.size() && s[k] != quote && s[k] != '\n') k += s[k] == '\\' ? 2 : 1;
      size_t end = std::min(k + 1, s.size());
      blank(i, end);
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

std::vector<std::string> workGroupFeatures(const std::string& source) {
  // Whole words; a prefix ending in '_' matches every word that starts with it.
  static const std::vector<std::string> exact = {"get_local_id",
                                                 "get_group_id",
                                                 "get_local_size",
                                                 "get_num_groups",
                                                 "get_enqueued_local_size",
                                                 "get_local_linear_id",
                                                 "barrier",
                                                 "work_group_barrier",
                                                 "mem_fence",
                                                 "read_mem_fence",
                                                 "write_mem_fence",
                                                 "async_work_group_copy",
                                                 "async_work_group_strided_copy",
                                                 "wait_group_events",
                                                 "__local",
                                                 "local",
                                                 "reqd_work_group_size",
                                                 "get_sub_group_size",
                                                 "get_sub_group_local_id",
                                                 "get_num_sub_groups",
                                                 "get_sub_group_id",
                                                 "get_max_sub_group_size",
                                                 "get_enqueued_num_sub_groups"};
  static const std::vector<std::string> prefixes = {"work_group_", "sub_group_"};
  const std::string text = stripCommentsAndStrings(source);
  std::vector<std::string> found;
  auto note = [&](const std::string& w) {
    if (std::find(found.begin(), found.end(), w) == found.end()) found.push_back(w);
  };
  auto isWord = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  size_t i = 0;
  while (i < text.size()) {
    if (!isWord(text[i]) || std::isdigit(static_cast<unsigned char>(text[i]))) {
      // Skip a number whole so "1local" never reads as a word.
      size_t k = i + 1;
      if (std::isdigit(static_cast<unsigned char>(text[i])))
        while (k < text.size() && isWord(text[k])) ++k;
      i = k;
      continue;
    }
    size_t k = i;
    while (k < text.size() && isWord(text[k])) ++k;
    std::string word = text.substr(i, k - i);
    i = k;
    if (std::find(exact.begin(), exact.end(), word) != exact.end()) {
      note(word == "local" ? "__local" : word);
      continue;
    }
    for (const auto& p : prefixes)
      if (word.size() > p.size() && word.compare(0, p.size(), p) == 0) note(word);
  }
  return found;
}

}  // namespace clh::launch
