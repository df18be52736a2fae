// The simulator's builds (unoptimised first), the simulator-failure rule: which texts and error
// codes are the tool's, and the single retry with the other build.
#include "sim/tool_failure.hpp"

#include <array>
#include <cstdlib>
#include <functional>

namespace clh {
namespace {

constexpr int kInvalidKernelName = -46;  // CL_INVALID_KERNEL_NAME, without pulling in OpenCL here

bool hasOption(const std::string& options, std::string_view option) {
  size_t at = 0;
  while ((at = options.find(option, at)) != std::string::npos) {
    const bool starts = at == 0 || options[at - 1] == ' ';
    const size_t end = at + option.size();
    const bool ends = end == options.size() || options[end] == ' ';
    if (starts && ends) return true;
    at = end;
  }
  return false;
}

bool hasOptLevel(const std::string& options) {
  size_t at = 0;
  while ((at = options.find("-O", at)) != std::string::npos) {
    if (at == 0 || options[at - 1] == ' ') return true;
    at += 2;
  }
  return false;
}

// The options without the words `drop` says to leave out.
std::string keepWords(const std::string& options,
                      const std::function<bool(const std::string&)>& drop) {
  std::string out;
  size_t begin = 0;
  while (begin <= options.size()) {
    size_t end = options.find(' ', begin);
    if (end == std::string::npos) end = options.size();
    const std::string word = options.substr(begin, end - begin);
    if (!word.empty() && !drop(word)) out += (out.empty() ? "" : " ") + word;
    begin = end + 1;
  }
  return out;
}

std::string withoutOption(const std::string& options, std::string_view option) {
  return keepWords(options, [&](const std::string& w) { return w == option; });
}

std::string withOption(const std::string& options, std::string_view option) {
  return options.empty() ? std::string(option) : options + " " + std::string(option);
}

std::string firstLineOf(const std::string& text) {
  const size_t begin = text.find_first_not_of("\n\r\t ");
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find('\n', begin) - begin);
}

}  // namespace

bool isSimulatorToolFailure(const std::string& buildLogOrError) {
  // Texts of Oclgrind's own failures (its FATAL_ERROR messages and its plugin loader). A compiler
  // diagnostic about the kernel reads "input.cl:3:5: error: ..." and matches none of them.
  static constexpr std::array<std::string_view, 6> kPatterns = {
      "OCLGRIND FATAL ERROR",    "Undefined external function",    "Unsupported intrinsic",
      "Unsupported instruction", "Loading Oclgrind plugin failed", "Unhandled operand type",
  };
  for (std::string_view pattern : kPatterns) {
    if (buildLogOrError.find(pattern) != std::string::npos) return true;
  }
  return false;
}

bool isSimulatorToolFailure(const SimulatorFailure& failure) {
  if (isSimulatorToolFailure(failure.text)) return true;
  return failure.function == "clCreateKernel" && failure.error_code == kInvalidKernelName &&
         failure.kernel_listed;
}

std::string preferredSimulatorOptions(const std::string& build_options) {
  if (hasOption(build_options, kSimulatorRetryOption) || hasOptLevel(build_options))
    return build_options;
  // For measuring what the unoptimised build costs and finds (docs/performance.md).
  if (const char* build = std::getenv(kSimulatorBuildVariable);
      build != nullptr && std::string_view(build) == "optimised")
    return build_options;
  return withOption(build_options, kSimulatorRetryOption);
}

std::string otherSimulatorOptions(const std::string& options) {
  if (hasOption(options, kSimulatorRetryOption))
    return withoutOption(options, kSimulatorRetryOption);
  // An optimisation level of the user's stays in force beside -cl-opt-disable: it goes.
  const std::string out =
      keepWords(options, [](const std::string& w) { return w.rfind("-O", 0) == 0; });
  return withOption(out, kSimulatorRetryOption);
}

bool isUnoptimisedBuild(const std::string& options) {
  return hasOption(options, kSimulatorRetryOption) || hasOption(options, "-O0");
}

std::string describeSimulatorBuild(const std::string& options) {
  if (isUnoptimisedBuild(options)) return "unoptimised (-cl-opt-disable)";
  size_t at = 0;
  while ((at = options.find("-O", at)) != std::string::npos) {
    if (at == 0 || options[at - 1] == ' ')
      return "optimised (" + options.substr(at, options.find(' ', at) - at) + ")";
    at += 2;
  }
  return "optimised (Oclgrind's -Oz)";
}

std::optional<std::string> simulatorRetryOptions(const SimulatorFailure& failure,
                                                 const std::string& build_options) {
  if (!isSimulatorToolFailure(failure)) return std::nullopt;
  return otherSimulatorOptions(build_options);
}

SimulatorBuildResult prepareOnSimulator(
    const std::string& build_options,
    const std::function<std::optional<SimulatorFailure>(const std::string& options)>& attempt) {
  SimulatorBuildResult result;
  result.options = preferredSimulatorOptions(build_options);
  result.failure = attempt(result.options);
  if (result.failure) {
    if (std::optional<std::string> retry = simulatorRetryOptions(*result.failure, result.options)) {
      result.retried = true;
      result.first_options = result.options;
      result.first_failure = firstLineOf(result.failure->text);
      result.options = *retry;
      result.failure = attempt(result.options);
    }
  }
  if (!result.failure) return result;

  const SimulatorFailure& failure = *result.failure;
  Finding finding;
  finding.raw = failure.text;
  const std::string what =
      failure.function.empty() ? std::string("preparing the kernel") : failure.function;
  if (isSimulatorToolFailure(failure)) {
    finding.kind = FindingKind::tool_error;
    finding.summary = "the simulator failed in " + what + " (error " +
                      std::to_string(failure.error_code) + ")" +
                      (result.retried ? " on both builds (unoptimised and optimised)" : "");
  } else {
    finding.kind = FindingKind::build_error;
    finding.summary = what + " failed (error " + std::to_string(failure.error_code) + ")";
  }
  const std::string first = firstLineOf(failure.text);
  if (!first.empty()) finding.summary += ": " + first;
  result.finding = std::move(finding);
  return result;
}

}  // namespace clh
