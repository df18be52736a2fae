// The watch request file and the plugin's "watch" lines (sim/oclgrind_watch.hpp).
#include "sim/oclgrind_watch.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "sim/oclgrind_log.hpp"

namespace clh {

namespace {

using nlohmann::json;

SourceLine lineOf(const json& location, const std::string& source_file) {
  SourceLine l;
  if (!location.is_object()) return l;
  l.line = location.value("line", 0);
  l.file = location.value("file", "");
  if (!source_file.empty() && (l.file == "input.cl" || l.file.empty())) l.file = source_file;
  std::string text = location.value("source", "");
  const auto a = text.find_first_not_of(" \t\r");
  l.text = a == std::string::npos ? "" : text.substr(a, text.find_last_not_of(" \t\r") - a + 1);
  return l;
}

}  // namespace

void writeWatchRequest(const std::string& path, const std::vector<WatchedElement>& elements) {
  json watch = json::array();
  for (const auto& e : elements)
    watch.push_back({{"kernel", e.kernel},
                     {"argument", e.argument},
                     {"offset", e.offset},
                     {"size", e.size},
                     {"element", e.element}});
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << json{{"watch", watch}}.dump() << "\n";
    if (!out) throw std::runtime_error("cannot write the simulator's watch request " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot write the simulator's watch request " + path);
}

std::vector<ElementStores> parseWatchLines(std::istream& in, const std::string& source_file) {
  std::vector<ElementStores> out;
  std::string line;
  while (std::getline(in, line)) {
    const json record = json::parse(line, nullptr, false);
    if (!record.is_object() || record.value("event", "") != "watch") continue;
    try {
      ElementStores e;
      e.element = record.value("element", "");
      e.kernel = record.value("kernel", "");
      e.launch = record["launch"].is_number_integer() ? record["launch"].get<long>() : 0;
      e.stores = record.value("stores", 0L);
      for (const json& l : record.value("lines", json::array()))
        if (SourceLine s = lineOf(l, source_file); s.line > 0) e.lines.push_back(std::move(s));
      if (record.contains("last") && record["last"].is_object()) {
        const json& last = record["last"];
        e.last_line = lineOf(last.value("location", json()), source_file);
        if (last.contains("work_item"))
          e.last_work_item = "global" + oclgrindTriple(last["work_item"].value("global", json())) +
                             " local" + oclgrindTriple(last["work_item"].value("local", json()));
      }
      out.push_back(std::move(e));
    } catch (const json::exception&) {
      continue;  // a damaged line says nothing
    }
  }
  return out;
}

}  // namespace clh
