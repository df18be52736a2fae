// The check run's journal (JSON lines, flock'ed) and its whole-file report writing.
#include "run/journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/files.hpp"
#include "core/sizes.hpp"
#include "core/spec.hpp"
#include "proc/job.hpp"
#include "report/reporters.hpp"
#include "run/check.hpp"

namespace fs = std::filesystem;

namespace clh {

std::string unitKey(const std::string& family, const std::string& spec_file,
                    const std::string& device) {
  return family + "\n" + spec_file + "\n" + device;
}

std::string unitKey(const UnitResult& u) {
  return unitKey(u.family, u.spec_file, u.device);
}

RunJournal::~RunJournal() {
  if (file_) std::fclose(file_);  // closing the descriptor releases the lock
}

std::string RunJournal::open(const std::string& path, const nlohmann::json& options, bool resume) {
  path_ = path;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return "another clharness run is writing " + path;
  }
  // Read what an earlier run left (only used with resume).
  std::vector<std::pair<UnitResult, nlohmann::json>> earlier;
  if (resume) {
    bool first = true;
    for (const auto& j :
         readJsonLines(path)) {  // whole objects: a line cut short by a kill is none
      if (first) {
        first = false;
        if (j.value("event", "") != "start") break;
        if (j.value("options", nlohmann::json()) != options) {
          ::close(fd);
          // The same options over edited files: name the specs whose text or kernel changed.
          nlohmann::json was = j.value("options", nlohmann::json()), now = options;
          const nlohmann::json was_inputs =
              was.is_object() ? was.value("inputs", nlohmann::json()) : nlohmann::json();
          if (was.is_object() && now.is_object()) {
            was.erase("inputs");
            now.erase("inputs");
          }
          if (was == now && options.contains("inputs")) {
            std::string changed;
            for (const auto& [file, hash] : options["inputs"].items())
              if (!was_inputs.is_object() || was_inputs.value(file, nlohmann::json()) != hash)
                changed += (changed.empty() ? "" : ", ") + file;
            return fmt::format(
                "{} was written before {} or its kernel changed: its units are not this run's; "
                "run without --resume",
                path, changed.empty() ? "the specs" : changed);
          }
          return fmt::format(
              "{} was written by a run with other options ({}); this run has {}: run with the "
              "same options, or without --resume",
              path, j.value("options", nlohmann::json()).dump(), options.dump());
        }
        continue;
      }
      if (j.value("event", "") != "unit") continue;
      try {
        earlier.emplace_back(j.at("unit").get<UnitResult>(), j.value("extra", nlohmann::json()));
      } catch (const std::exception&) {
      }
    }
  }
  // Rewrite it whole (the header and the readable units), then append.
  std::string text = nlohmann::json{{"event", "start"}, {"options", options}}.dump() + "\n";
  for (const auto& [u, extra] : earlier) {
    nlohmann::json line = {{"event", "unit"}, {"unit", u}};
    if (!extra.is_null()) line["extra"] = extra;
    text += line.dump() + "\n";
  }
  if (::ftruncate(fd, 0) != 0 ||
      ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    ::close(fd);
    return "cannot write " + path + ": " + std::strerror(errno);
  }
  ::fsync(fd);
  file_ = ::fdopen(fd, "a");
  if (!file_) {
    ::close(fd);
    return "cannot write " + path;
  }
  fd_ = fd;
  for (auto& e : earlier) done_[unitKey(e.first)] = std::move(e);
  resumed_ = done_.size();
  return "";
}

std::optional<UnitResult> RunJournal::take(const std::string& key, nlohmann::json* extra) {
  auto it = done_.find(key);
  if (it == done_.end()) return std::nullopt;
  UnitResult u = std::move(it->second.first);
  if (extra) *extra = std::move(it->second.second);
  done_.erase(it);
  return u;
}

void RunJournal::append(const UnitResult& u, const nlohmann::json& extra) {
  if (!file_) return;
  nlohmann::json line = {{"event", "unit"}, {"unit", u}};
  if (!extra.is_null()) line["extra"] = extra;
  writeJsonLine(file_, line);
  ::fdatasync(fd_);
}

void RunJournal::finish() {
  if (!file_) return;
  std::error_code ec;
  fs::remove(path_, ec);
  std::fclose(file_);
  file_ = nullptr;
  fd_ = -1;
}

std::string interruptedLine(const Report& report, const std::string& journal) {
  return fmt::format(
      "interrupted by {}: {} of {} units ran (the totals above count only those){}\n",
      report.interrupted_by, report.units.size(), report.units_planned,
      journal.empty() ? std::string()
                      : "; the same command with --resume runs the rest (journal " + journal + ")");
}

namespace {

// The journal of a run that writes a report: beside it ("" when it writes none).
std::string journalPath(const CheckOptions& o) {
  if (!o.reports.empty()) return o.reports.front().path + ".journal";
  return "";
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What a resumed run must share with the run it resumes, for its units to be the same: its
// options, and each spec's text with its kernel's ("inputs": spec file -> hash), so that a journal
// written before a spec or a kernel was edited is refused rather than its old verdicts reused.
nlohmann::json journalOptions(const CheckOptions& o, const std::vector<Spec>& specs) {
  nlohmann::json inputs = nlohmann::json::object();
  for (const auto& s : specs)
    inputs[s.file] = fmt::format(
        "{:016x}", hash64(fileBytes(s.file) + '\0' + fileBytes(s.source_path), 0x6a6f75726eull));
  return {{"inputs", inputs},
          {"seed", o.seed},
          {"cases", o.cases},
          {"sizes", o.sizes.value_or("")},
          {"buffer_mode", o.buffer_mode},
          {"read_mode", o.read_mode},
          {"launch_shapes", o.launch_shapes},
          {"build_programs", o.build_programs},
          {"sanitize", o.sanitize},
          {"shrink", o.shrink}};
}

}  // namespace

bool openCheckJournal(const CheckOptions& o, const std::vector<Spec>& specs, RunJournal& journal) {
  const std::string jpath = journalPath(o);
  if (jpath.empty()) {
    if (!o.resume) return true;
    std::cerr
        << "clharness: --resume needs --json, --junit or --report (the journal is kept beside the "
           "report)\n";
    return false;
  }
  const std::string why = journal.open(jpath, journalOptions(o, specs), o.resume);
  if (!why.empty() && o.resume) {
    std::cerr << "clharness: --resume: " << why << "\n";
    return false;
  }
  if (!why.empty())
    std::cerr << "clharness: " << why << ": this run keeps no journal (it cannot be resumed)\n";
  else if (journal.resumed())
    std::cerr << fmt::format("clharness: resuming: {} finished units in {}\n", journal.resumed(),
                             jpath);
  return true;
}

}  // namespace clh
