// Turns the Oclgrind plugin's JSON lines into Findings. The plugin's structured fields come first;
// what only Oclgrind's text carries (a race's two work-items and two lines, an API error's function
// and code) is parsed from the text.
#include "sim/oclgrind_log.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

namespace clh {
namespace {

using nlohmann::json;

/// The format version this parser reads (the plugin's kFormatVersion).
constexpr int kFormatVersion = 1;

/// The file name Oclgrind gives every program built from source.
constexpr std::string_view kOclgrindSourceName = "input.cl";

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return std::string(s.substr(first, last - first + 1));
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// The first line that is not blank (Oclgrind's API errors begin with a newline).
std::string firstLine(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!trim(line).empty()) return trim(line);
  }
  return {};
}

std::array<uint64_t, 3> tripleArray(const json& value) {
  std::array<uint64_t, 3> out{};
  if (value.is_array() && value.size() == 3) {
    for (size_t i = 0; i < 3; ++i) out[i] = value[i].get<uint64_t>();
  }
  return out;
}

/// What Oclgrind's message text says, line by line.
struct MessageText {
  std::string header;                   ///< first line
  std::string kernel;                   ///< "Kernel: ..."
  std::vector<std::string> work_items;  ///< entities, in the order the text names them
  std::vector<SourceLine> lines;        ///< "At line N ... of FILE:" + the source line after it
  std::string detail;                   ///< first free-text line after the header
  std::string api_function, api_error;  ///< "Function: ...", "Error: ..."
  std::string address_space;            ///< "... at local memory ..."
};

/// "Global(15,0,0) Local(7,0,0) Group(1,0,0)" or "Group(1,0,0)" -> "global(15,0,0) local(...) ...".
std::string workItemFromEntity(const std::string& entity) {
  static const std::regex item(
      R"(Global(\(\d+,\d+,\d+\))\s*Local(\(\d+,\d+,\d+\))\s*Group(\(\d+,\d+,\d+\)))");
  static const std::regex group(R"(Group(\(\d+,\d+,\d+\)))");
  std::smatch m;
  if (std::regex_search(entity, m, item)) {
    return "global" + m[1].str() + " local" + m[2].str() + " group" + m[3].str();
  }
  if (std::regex_search(entity, m, group)) return "group" + m[1].str();
  return {};
}

MessageText parseText(const std::string& text) {
  static const std::regex at_line(R"(^At line (\d+)(?: \(column \d+\))? of (.*?):?$)");
  static const std::regex space(R"(\bat (global|local|private|constant) memory\b)");
  static const std::regex work_group_line(R"(^Work-group:\s*(\(\d+,\d+,\d+\)))");
  MessageText out;
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      // Oclgrind indents the body with tabs; the instruction and source lines then start with two
      // spaces, which keeps them apart from the "Key: value" lines.
      const auto first = line.find_first_not_of('\t');
      lines.push_back(first == std::string::npos ? std::string() : line.substr(first));
    }
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.empty()) continue;
    if (out.header.empty()) {
      out.header = trim(line);
      continue;
    }
    std::smatch m;
    if (std::regex_match(line, m, at_line)) {
      SourceLine source;
      source.line = std::stoi(m[1].str());
      source.file = m[2].str();
      if (i + 1 < lines.size() && startsWith(lines[i + 1], "  ")) source.text = trim(lines[++i]);
      out.lines.push_back(std::move(source));
    } else if (startsWith(line, "Kernel:")) {
      out.kernel = trim(line.substr(7));
    } else if (startsWith(line, "Entity:") || startsWith(line, "First entity:") ||
               startsWith(line, "Second entity:") || startsWith(line, "Work-item:")) {
      const std::string item = workItemFromEntity(line);
      if (!item.empty()) out.work_items.push_back(item);
    } else if (std::regex_search(line, m, work_group_line)) {
      out.work_items.push_back("group" + m[1].str());
    } else if (startsWith(line, "Function:")) {
      out.api_function = trim(line.substr(9));
    } else if (startsWith(line, "Error:")) {
      out.api_error = trim(line.substr(6));
    } else if (startsWith(line, " ") || line == "Debugging information not available." ||
               line == "(location unknown)") {
      continue;  // an instruction dump, or no location
    } else if (out.detail.empty()) {
      out.detail = trim(line);
    }
  }
  std::smatch m;
  if (std::regex_search(out.header, m, space)) out.address_space = m[1].str();
  return out;
}

/// The header without the address ("... at local memory address 0x10" -> "... at local memory"):
/// reports of one problem at different addresses then read the same.
std::string headerWithoutAddress(const std::string& header) {
  static const std::regex address(R"(\s+address\s+0x[0-9a-fA-F]+)");
  return std::regex_replace(header, address, "");
}

std::string where(const std::vector<SourceLine>& lines) {
  auto name = [](const SourceLine& s) { return s.file + ":" + std::to_string(s.line); };
  if (lines.empty()) return {};
  if (lines.size() == 1) return " at " + name(lines[0]);
  if (lines.size() == 2 && lines[0].line == lines[1].line && lines[0].file == lines[1].file) {
    return " at " + name(lines[0]) + " (both accesses)";
  }
  return " between " + name(lines[0]) + " and " + name(lines[1]);
}

/// Which buffer a global or constant address lies in, from the plugin's "buffer" field: "in buffer
/// argument 'c' (64 bytes)", or "past the end of ..." / "before the start of ..." for an address
/// outside it. Empty when the record has none. The byte itself stays out, so the reports of one
/// bug at many addresses still merge into one finding.
std::string bufferPhrase(const json& record) {
  if (!record.contains("buffer") || !record["buffer"].is_object()) return {};
  const json& buffer = record["buffer"];
  const std::string name = buffer.value("name", "");
  const long long size = buffer.value("size", 0LL), offset = buffer.value("offset", 0LL);
  std::string what =
      "buffer argument " +
      (name.empty() ? "#" + std::to_string(buffer.value("argument", 0)) : "'" + name + "'") + " (" +
      std::to_string(size) + " bytes)";
  if (offset < 0) return "before the start of " + what;
  if (offset >= size) return "past the end of " + what;
  return "in " + what;
}

/// Which __local or private array an out-of-bounds access was derived from, from the plugin's
/// "array" field: "past the end of __local array 'L' (int[25], 100 bytes, declared at line 6)",
/// "before the start of ...", or "in ..." when the access lies inside it (an index past one
/// dimension of a multi-dimensional array). Empty when the record has none.
std::string arrayPhrase(const json& record) {
  if (!record.contains("array") || !record["array"].is_object()) return {};
  const json& array = record["array"];
  const std::string space = array.value("address_space", "");
  const std::string name = array.value("name", "");
  const std::string type = array.value("type", "");
  const long long size = array.value("size", 0LL);
  std::string what =
      (space == "local"     ? "__local "
       : space == "private" ? "private "
                            : "") +
      std::string(array.contains("argument") ? "argument" : "array") +
      (name.empty() ? "" : " '" + name + "'") + " (" + (type.empty() ? "" : type + ", ") +
      std::to_string(size) + " bytes" +
      (array.value("line", 0) > 0 ? ", declared at line " + std::to_string(array.value("line", 0))
                                  : "") +
      ")";
  if (!array.contains("offset")) return "in " + what;
  const long long offset = array.value("offset", 0LL);
  if (offset < 0) return "before the start of " + what;
  if (offset >= size) return "past the end of " + what;
  return "in " + what;
}

/// The one-line summary of a finding (before merging adds its count).
std::string summarize(FindingKind kind, const MessageText& text, const Finding& finding,
                      const std::string& buffer) {
  std::string head = headerWithoutAddress(text.header);
  if (kind == FindingKind::api_error) {
    head = "OpenCL API error in " + (text.api_function.empty() ? "?" : text.api_function) + ": " +
           (text.api_error.empty() ? "?" : text.api_error);
    if (!text.detail.empty()) head += " (" + text.detail + ")";
  } else if (kind == FindingKind::tool_error) {
    head = "Oclgrind failed: " + (text.detail.empty() ? head : text.detail);
  } else if (kind == FindingKind::divergence && !text.detail.empty()) {
    head += ": " + text.detail;
  }
  if (!buffer.empty()) head += ", " + buffer;
  std::string out = head + where(finding.lines);
  if (!finding.kernel.empty() && kind != FindingKind::api_error)
    out += " in kernel " + finding.kernel;
  return out;
}

/// Builds the finding of one "message" record; nullopt for info messages.
std::optional<Finding> findingFromRecord(const json& record, const OclgrindParseOptions& options) {
  const std::string type = record.value("type", "error");
  if (type != "error" && type != "warning") return std::nullopt;
  const std::string raw = record.value("text", "");
  const MessageText text = parseText(raw);

  Finding finding;
  finding.kind = classifyOclgrindMessage(raw);
  finding.raw = raw;
  finding.device = options.device;
  finding.kernel = record.value("kernel", text.kernel);
  if (finding.kernel.empty()) finding.kernel = text.kernel;

  // Address space: Oclgrind's wording names it; else the pointer the instruction touched.
  finding.address_space = text.address_space;
  if (finding.address_space.empty()) finding.address_space = record.value("address_space", "");

  // Work-items and lines: the text names every entity (a race has two); the plugin's view of the
  // current work-item and instruction fills in when the text has none.
  finding.work_items = text.work_items;
  if (finding.work_items.empty()) {
    if (record.contains("work_item")) {
      const json& item = record["work_item"];
      std::string description = "global" + oclgrindTriple(item.value("global", json())) + " local" +
                                oclgrindTriple(item.value("local", json()));
      if (record.contains("work_group"))
        description += " group" + oclgrindTriple(record["work_group"]);
      finding.work_items.push_back(description);
    } else if (record.contains("work_group")) {
      finding.work_items.push_back("group" + oclgrindTriple(record["work_group"]));
    }
  }
  finding.lines = text.lines;
  if (finding.lines.empty() && record.contains("location") && record["location"].is_object()) {
    const json& location = record["location"];
    SourceLine source;
    source.file = location.value("file", "");
    source.line = location.value("line", 0);
    source.text = trim(location.value("source", ""));
    if (source.line > 0) finding.lines.push_back(std::move(source));
  }
  if (!options.source_file.empty()) {
    for (SourceLine& line : finding.lines) {
      if (line.file == kOclgrindSourceName) line.file = options.source_file;
    }
  }
  std::string place = bufferPhrase(record);
  if (place.empty()) place = arrayPhrase(record);
  finding.summary = summarize(finding.kind, text, finding, place);
  return finding;
}

OclgrindChecks checksOf(const json& record) {
  const json checks = record.value("checks", json::object());
  return OclgrindChecks{checks.value("data_races", false), checks.value("uninitialized", false),
                        checks.value("check_api", false), checks.value("uniform_writes", false),
                        checks.value("quick", false)};
}

/// Folds reports of one problem into one finding, in first-seen order.
class Merger {
 public:
  explicit Merger(const OclgrindParseOptions& options) : options_(options) {}

  /// `reports`: how many of Oclgrind's reports the finding stands for (a record with "repeats").
  void add(Finding finding, long reports = 1) {
    if (!options_.merge) {
      findings_.push_back(std::move(finding));
      counts_.push_back(reports);
      return;
    }
    const std::string key = keyOf(finding);
    auto found = index_.find(key);
    if (found == index_.end()) {
      index_.emplace(key, findings_.size());
      if (finding.work_items.size() > options_.max_work_items) {
        finding.work_items.resize(options_.max_work_items);
      }
      findings_.push_back(std::move(finding));
      counts_.push_back(reports);
      return;
    }
    Finding& kept = findings_[found->second];
    counts_[found->second] += reports;
    for (const std::string& item : finding.work_items) {
      if (kept.work_items.size() >= options_.max_work_items) break;
      if (std::find(kept.work_items.begin(), kept.work_items.end(), item) ==
          kept.work_items.end()) {
        kept.work_items.push_back(item);
      }
    }
  }

  std::vector<Finding> take() {
    for (size_t i = 0; i < findings_.size(); ++i) {
      if (counts_[i] > 1) findings_[i].summary += " (" + std::to_string(counts_[i]) + " reports)";
    }
    return std::move(findings_);
  }

 private:
  /// Reports of one problem share a key. A race's two accesses come in either order, so its key
  /// uses the set of its lines; every other report's summary already names all that identifies it.
  static std::string keyOf(const Finding& finding) {
    std::string key = std::to_string(static_cast<int>(finding.kind)) + '\n' +
                      finding.address_space + '\n' + finding.kernel + '\n';
    // "Index (12) exceeds static array size (10)": one statement's reports at many indices are
    // one problem.
    static const std::regex index(R"(^Index \(-?[0-9]+\))");
    if (finding.kind != FindingKind::race)
      return key + std::regex_replace(finding.summary, index, "Index (N)");
    std::set<std::pair<std::string, int>> lines;
    for (const SourceLine& line : finding.lines) lines.emplace(line.file, line.line);
    key += headerWithoutAddress(firstLine(finding.raw));
    for (const auto& [file, line] : lines) key += '\n' + file + ':' + std::to_string(line);
    return key;
  }

  const OclgrindParseOptions& options_;
  std::map<std::string, size_t> index_;
  std::vector<Finding> findings_;
  std::vector<long> counts_;
};

}  // namespace

std::string oclgrindTriple(const json& value) {
  if (!value.is_array() || value.size() != 3) return "(?)";
  std::ostringstream out;
  out << '(' << value[0].get<uint64_t>() << ',' << value[1].get<uint64_t>() << ','
      << value[2].get<uint64_t>() << ')';
  return out.str();
}

const std::vector<OclgrindMessageRule>& oclgrindMessageRules() {
  // First match wins: the read-only / write-only and alignment texts also start "Invalid ...".
  static const std::vector<OclgrindMessageRule> rules = {
      {"oclgrind fatal error", false, FindingKind::tool_error},
      {"opencl runtime error detected", false, FindingKind::api_error},
      {"data race", false, FindingKind::race},
      {"exceeds static array size", false, FindingKind::out_of_bounds},
      {"invalid read from write-only buffer", true, FindingKind::access_mode},
      {"invalid write to read-only buffer", true, FindingKind::access_mode},
      {"invalid read from buffer mapped for writing", true, FindingKind::access_mode},
      {"invalid write to mapped buffer", true, FindingKind::access_mode},
      {"not aligned to the pointed type", false, FindingKind::misaligned},
      {"unaligned address", true, FindingKind::misaligned},
      {"invalid read", true, FindingKind::out_of_bounds},
      {"invalid write", true, FindingKind::out_of_bounds},
      {"uninitiali", false, FindingKind::uninitialized},
      {"work-item finished without waiting for events", true, FindingKind::missing_wait},
      {"invalid wait event", true, FindingKind::api_error},
      {"divergence", false, FindingKind::divergence},
  };
  return rules;
}

FindingKind classifyOclgrindMessage(const std::string& text) {
  const std::string header = lower(firstLine(text));
  for (const auto& rule : oclgrindMessageRules())
    if (rule.at_start ? startsWith(header, rule.text) : header.find(rule.text) != std::string::npos)
      return rule.kind;
  return FindingKind::other;
}

std::vector<Finding> OclgrindLog::allFindings() const {
  std::vector<Finding> out;
  for (const OclgrindLaunch& launch : launches) {
    out.insert(out.end(), launch.findings.begin(), launch.findings.end());
  }
  out.insert(out.end(), outside_launches.begin(), outside_launches.end());
  if (!malformed.empty()) {
    Finding damaged;
    damaged.kind = FindingKind::tool_error;
    damaged.summary = std::to_string(malformed.size()) +
                      " line(s) of the Oclgrind plugin's log could not be read";
    damaged.raw = malformed.front();
    out.push_back(std::move(damaged));
  }
  return out;
}

OclgrindLog parseOclgrindLogDetailed(std::istream& in, const OclgrindParseOptions& options) {
  OclgrindLog log;
  // Launches are keyed by (pid, launch id): several processes may append to one log.
  std::map<std::pair<long, long>, size_t> launch_index;
  std::vector<Merger> launch_mergers;
  Merger outside(options);

  auto launchFor = [&](const json& record) -> size_t {
    const std::pair<long, long> key{record.value("pid", 0L), record["launch"].get<long>()};
    auto found = launch_index.find(key);
    if (found != launch_index.end()) return found->second;
    // A launch whose kernel_begin lies before this stretch of the log.
    OclgrindLaunch launch;
    launch.pid = key.first;
    launch.id = key.second;
    launch.context = record.value("context", 0L);
    launch.kernel = record.value("kernel", "");
    log.launches.push_back(std::move(launch));
    launch_mergers.emplace_back(options);
    launch_index.emplace(key, log.launches.size() - 1);
    return log.launches.size() - 1;
  };

  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    json record = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object() || record.value("v", 0) != kFormatVersion ||
        !record.contains("event")) {
      log.malformed.push_back(line);
      continue;
    }
    try {
      const std::string event = record["event"].get<std::string>();
      const bool in_launch = record.contains("launch") && record["launch"].is_number_integer();
      if (event == "plugin_loaded") {
        ++log.plugin_loads;
        log.checks = checksOf(record);
      } else if (event == "kernel_begin" && in_launch) {
        OclgrindLaunch& launch = log.launches[launchFor(record)];
        if (record.contains("checks")) launch.checks = log.checks = checksOf(record);
        launch.work_dim = record.value("work_dim", 0);
        launch.global_size = tripleArray(record.value("global_size", json()));
        launch.local_size = tripleArray(record.value("local_size", json()));
        launch.global_offset = tripleArray(record.value("global_offset", json()));
      } else if (event == "kernel_end" && in_launch) {
        OclgrindLaunch& launch = log.launches[launchFor(record)];
        launch.ended = true;
        if (record.contains("images") && record["images"].is_object())
          launch.image_reports_left_out = record["images"].value("uninitialized_left_out", 0L);
      } else if (event == "message") {
        std::optional<Finding> finding = findingFromRecord(record, options);
        if (!finding) continue;
        // The plugin writes a problem's first reports at one instruction, then one line standing
        // for the rest ("repeats": how many).
        const long reports = std::max<long>(1, record.value("repeats", 1L));
        if (in_launch) {
          launch_mergers[launchFor(record)].add(std::move(*finding), reports);
        } else {
          outside.add(std::move(*finding), reports);
        }
      }
      // Unknown events of a known version are skipped: later plugins may add some.
    } catch (const json::exception&) {
      log.malformed.push_back(line);
    }
  }
  for (size_t i = 0; i < log.launches.size(); ++i) {
    log.launches[i].findings = launch_mergers[i].take();
  }
  log.outside_launches = outside.take();
  return log;
}

std::string imagePixelsNote(const OclgrindLaunch& launch) {
  if (launch.image_reports_left_out < 0) return {};
  std::string note = "'" + launch.kernel +
                     "' uses images: the simulator does not follow which pixels were written, so "
                     "a pixel read before anything wrote it is not looked for";
  if (launch.image_reports_left_out > 0)
    note +=
        "; its uninitialized-value reports of values read from images the host wrote were "
        "left out (Oclgrind 21.10 marks such values at random)";
  return note;
}

std::vector<Finding> parseOclgrindLog(std::istream& in, const OclgrindParseOptions& options) {
  return parseOclgrindLogDetailed(in, options).allFindings();
}

}  // namespace clh
