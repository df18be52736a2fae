// The one child protocol: a typed job goes to `clharness __child KIND EVENTS JOB`, which runs the
// handler registered for KIND; the child answers in JSON lines (events, then a typed result).
#pragma once

#include <cstdio>
#include <functional>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "proc/child.hpp"

namespace clh {

/// The one hidden command every family's child runs: `EXE __child KIND EVENTS JOB`, where JOB is
/// the job as one JSON value (seeds and sizes are numbers in it, never options to parse again).
/// KIND words are those of the hidden commands they replaced (`__unit`, `__launch`, ...), so a
/// process listing still says what a child does.
inline constexpr const char* kChildCommand = "__child";

/// The child's end of the protocol: JSON lines to the events file, each flushed whole, so that a
/// parent reading after a crash sees every line the child finished.
class JobChannel {
 public:
  JobChannel(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  /// One line `{"event": EVENT, ...fields}`.
  void send(const std::string& event, nlohmann::json fields = nlohmann::json::object());
  /// One line already whole (an object with its "event").
  void write(const nlohmann::json& line);
  /// The job's result: the line `{"event": "result", "value": ...}`.
  template <class Result>
  void result(const Result& r) {
    send("result", {{"value", r}});
  }
  /// The events file's descriptor, for a line written from a signal handler (each send is
  /// flushed, so nothing of the stream's is pending there).
  int fd() const { return fileno(file_); }
  /// The events file: a family names its side files after it (`EVENTS.oclgrind.jsonl`).
  const std::string& path() const { return path_; }

 private:
  std::FILE* file_;
  std::string path_;
};

/// A job's handler in the child: the job's JSON and the channel; returns the exit code.
using JobHandler = std::function<int(const nlohmann::json& job, JobChannel& channel)>;

/// Registers the handler of `kind` (the program's main registers every family's, app/).
void registerJob(const std::string& kind, JobHandler handler);

/// The same, for a handler of a typed job (read from the JSON by its from_json).
template <class Job>
void registerTypedJob(const std::string& kind,
                      std::function<int(const Job& job, JobChannel& channel)> handler) {
  registerJob(kind, [handler = std::move(handler)](const nlohmann::json& j, JobChannel& c) {
    return handler(j.get<Job>(), c);
  });
}

/// `__child`'s body: opens EVENTS, sends this process's stdout and stderr to `EVENTS.stderr` (the
/// driver's and the simulator's own messages: the parent quotes its end when the child dies) and
/// runs the handler of `kind` on the job. An exception becomes an `error` event and exit code 2;
/// throws std::runtime_error when EVENTS cannot be written.
int runJobChild(const std::string& kind, const std::string& events, const std::string& job_text);

/// What came back from a job's child.
struct JobRun {
  ChildOutcome child;
  std::vector<nlohmann::json> events;  ///< its whole lines, in order (a line cut by a crash: none)
  std::string error;                   ///< the message of its `error` event, if any
  std::string stderr_text;             ///< the end of its stdout and stderr (at most 64 KiB)

  /// The value of its last `result` event, when there is one.
  template <class Result>
  std::optional<Result> result() const {
    for (auto it = events.rbegin(); it != events.rend(); ++it)
      if (it->value("event", "") == "result" && it->contains("value"))
        return it->at("value").get<Result>();
    return std::nullopt;
  }
  /// The last `n` non-blank lines of stderr_text, each cut to `width` characters.
  std::string lastWords(size_t n, size_t width = 200) const;
};

/// Runs `job` as `kind` in a child of `program` (the tool's path, and any options before the
/// command), its events in the file `events`; reads them when it has ended and removes the file
/// and its `.stderr`. The options are runChild's (limits, sandbox, watchdog); with an `idle_s` and
/// no `progress` file, the watchdog watches the events file.
JobRun runJob(const std::vector<std::string>& program, const std::string& kind,
              const nlohmann::json& job, const std::string& events, ChildOptions options);

/// A job's optional field in its JSON: written only when set, read only when there.
template <class T>
void putOptional(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}
template <class T>
void getOptional(const nlohmann::json& j, const char* key, std::optional<T>& v) {
  if (j.contains(key)) v = j.at(key).get<T>();
}

/// Reads the complete lines a child added to a file since the last call (while it runs).
class LineTail {
 public:
  explicit LineTail(std::string path) : path_(std::move(path)) {}
  template <class F>
  void poll(F&& onLine) {
    for (const auto& l : readNew()) onLine(l);
  }
  /// The same, each line that is a whole JSON object, parsed.
  template <class F>
  void pollJson(F&& onObject) {
    for (const auto& l : readNew()) {
      nlohmann::json j = nlohmann::json::parse(l, nullptr, false);
      if (j.is_object()) onObject(j);
    }
  }

 private:
  std::vector<std::string> readNew();
  std::string path_;
  long long offset_ = 0;
  std::string partial_;
};

/// Every whole JSON object of a JSON-lines file, in order (a line cut short is left out).
std::vector<nlohmann::json> readJsonLines(const std::string& path);
/// The same, from a stream.
std::vector<nlohmann::json> readJsonLines(std::istream& in);

}  // namespace clh
