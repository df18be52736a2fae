// Both ends of the one child protocol (proc/job.hpp): the registry and `__child`'s body, and the
// parent's run of a job with the reading of its JSON lines.
#include "proc/job.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "proc/cpu_limit.hpp"

namespace clh {

namespace {

std::map<std::string, JobHandler>& registry() {
  static std::map<std::string, JobHandler> handlers;
  return handlers;
}

// The last `bytes` of a file ("" when there is none).
std::string fileTail(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  const auto size = static_cast<size_t>(in.tellg());
  const size_t from = size > bytes ? size - bytes : 0;
  in.seekg(static_cast<std::streamoff>(from));
  std::string s(size - from, '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  return s;
}

}  // namespace

void JobChannel::send(const std::string& event, nlohmann::json fields) {
  nlohmann::json line = {{"event", event}};
  for (auto& [k, v] : fields.items()) line[k] = std::move(v);
  writeJsonLine(file_, line);
}

void JobChannel::write(const nlohmann::json& line) {
  writeJsonLine(file_, line);
}

void registerJob(const std::string& kind, JobHandler handler) {
  registry()[kind] = std::move(handler);
}

int runJobChild(const std::string& kind, const std::string& events, const std::string& job_text) {
  holdToCpuLimit();  // the parent's CPU-time limit, to the second, whatever the job loads
  std::FILE* out = std::fopen(events.c_str(), "w");
  if (!out) throw std::runtime_error("cannot write " + events);
  // The driver's and the simulator's own messages (Oclgrind prints each error it reports, up to a
  // thousand) go to a file: the parent quotes its end when this process dies.
  const int fd = ::open((events + ".stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
  JobChannel channel(out, events);
  int code = 2;
  try {
    const auto handler = registry().find(kind);
    if (handler == registry().end()) throw std::invalid_argument("no job of the kind " + kind);
    code = handler->second(nlohmann::json::parse(job_text), channel);
  } catch (const std::exception& e) {
    channel.send("error", {{"message", e.what()}});
    code = 2;
  }
  std::fclose(out);
  return code;
}

std::string JobRun::lastWords(size_t n, size_t width) const {
  return lastLinesOf(stderr_text, n, width);
}

JobRun runJob(const std::vector<std::string>& program, const std::string& kind,
              const nlohmann::json& job, const std::string& events, ChildOptions options) {
  std::vector<std::string> argv = program;
  argv.insert(argv.end(), {kChildCommand, kind, events, job.dump()});
  std::error_code ec;
  std::filesystem::remove(events, ec);
  if (options.idle_s > 0 && options.progress.empty()) options.progress = events;
  JobRun run;
  run.child = runChild(argv, options);
  run.events = readJsonLines(events);
  for (const auto& e : run.events)
    if (e.value("event", "") == "error") run.error = e.value("message", "");
  run.stderr_text = fileTail(events + ".stderr", 64 * 1024);
  std::filesystem::remove(events, ec);
  std::filesystem::remove(events + ".stderr", ec);
  return run;
}

std::vector<nlohmann::json> readJsonLines(const std::string& path) {
  std::ifstream in(path);
  return readJsonLines(in);
}

std::vector<nlohmann::json> readJsonLines(std::istream& in) {
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object()) out.push_back(std::move(j));  // a line cut short by a crash: none
  }
  return out;
}

std::vector<std::string> LineTail::readNew() {
  std::vector<std::string> out;
  std::ifstream in(path_, std::ios::binary);
  if (!in) return out;
  in.seekg(offset_);
  std::string chunk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  offset_ += static_cast<long long>(chunk.size());
  partial_ += chunk;
  size_t start = 0;
  for (size_t nl; (nl = partial_.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(partial_.substr(start, nl - start));
  partial_.erase(0, start);
  return out;
}

}  // namespace clh
