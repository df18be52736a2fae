// Findings: what a check found, as plain values. Nothing in the library prints; reporters and the
// command-line tool turn these values into text, JSON and JUnit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clh {

/// The closed vocabulary of findings. Specs name these words in `expect:`; reports print them.
enum class FindingKind {
  wrong_result,   ///< an output element differs from the reference
  unwritten,      ///< an output element still holds the poison written before the launch
  build_error,    ///< the kernel source did not build on a device that builds correct kernels
  race,           ///< a data race (simulator)
  out_of_bounds,  ///< an access outside a buffer (simulator, or a guard zone on a real device)
  uninitialized,  ///< a read of an uninitialized value (simulator)
  divergence,     ///< work-group or barrier divergence (simulator)
  missing_wait,   ///< a work-item ended with async copies it never waited for (simulator)
  misaligned,     ///< a load or store through a pointer not aligned to its type (simulator)
  access_mode,    ///< a read of a write-only buffer or a write of a read-only one (simulator)
  api_error,      ///< an OpenCL API misuse reported by the simulator
  launch_error,   ///< an enqueue failed with an error code nobody expected
  timeout,        ///< the kernel or its process ran past its time limit
  crash,          ///< the process running the kernel died from a signal
  tool_error,     ///< the simulator or driver failed; never the kernel author's fault
  other,          ///< anything the tool reported that fits none of the above
};

/// The spelling used in specs and reports ("wrong_result", ...).
std::string_view toString(FindingKind kind);
/// Parses a spelling; nullopt for an unknown word.
std::optional<FindingKind> findingKindFromString(std::string_view word);
/// Every kind, in declaration order (for messages listing the vocabulary).
const std::vector<FindingKind>& allFindingKinds();

/// One mismatching output element.
struct Mismatch {
  std::string buffer;
  std::vector<int64_t> index;  ///< in the buffer's own shape (row-major), e.g. {i, j}
  std::string got;
  std::string want;
  bool unwritten = false;  ///< `got` is the poison value: the kernel never wrote the element
};

/// A source location in a kernel file.
struct SourceLine {
  std::string file;
  int line = 0;
  std::string text;  ///< the source text of that line, when known
};

/// A finding: kind, where, who, a one-line summary and the tool's raw text.
struct Finding {
  FindingKind kind = FindingKind::other;
  std::string summary;                  ///< one line, for a person
  std::string device;                   ///< device display name, when known
  std::string kernel;                   ///< kernel name, when known
  std::string address_space;            ///< "global", "local", "private", "constant" (simulator)
  std::vector<SourceLine> lines;        ///< the source lines involved (a race has two)
  std::vector<std::string> work_items;  ///< e.g. "global(3,0,0) local(3,0,0) group(0,0,0)"
  std::vector<Mismatch> mismatches;     ///< the first few mismatches (wrong_result, unwritten)
  int64_t mismatch_count = 0;           ///< all mismatches, not only the ones listed
  std::string raw;                      ///< the tool's own text (build log, simulator message)
};

}  // namespace clh
