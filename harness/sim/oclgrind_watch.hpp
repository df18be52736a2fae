// Which statements stored to chosen output elements on the simulator: the request the Oclgrind
// plugin reads (a file named by CLHARNESS_OCLGRIND_WATCH) and the "watch" lines it writes at the
// end of each launch of a watched kernel, one per element.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "core/finding.hpp"

namespace clh {

/// The environment variable naming the watch request file (OclgrindSession::setWatchFile).
inline constexpr const char* kOclgrindWatchVariable = "CLHARNESS_OCLGRIND_WATCH";

/// One element to watch: bytes [offset, offset + size) of the buffer passed as argument
/// `argument` (0-based) of kernel `kernel`.
struct WatchedElement {
  std::string kernel;
  unsigned argument = 0;
  uint64_t offset = 0, size = 0;
  std::string element;  ///< the caller's label, repeated in the report
};

/// Writes the request the plugin reads at the start of every launch (atomically: a launch sees
/// the whole request or none). An empty list stops watching.
void writeWatchRequest(const std::string& path, const std::vector<WatchedElement>& elements);

/// What one launch stored to one watched element.
struct ElementStores {
  std::string element;  ///< the label of the request
  std::string kernel;
  long launch = 0;
  long stores = 0;                ///< stores seen (atomic ones included)
  std::vector<SourceLine> lines;  ///< the distinct statements that stored, first seen first
  SourceLine last_line;           ///< the statement of the last store seen (line 0: unknown)
  std::string last_work_item;     ///< "global(5,0,0) local(1,0,0)", when known
};

/// The "watch" lines of a stretch of the plugin's log, in order; other lines are skipped.
/// `source_file` replaces Oclgrind's "input.cl" in the lines' file names, when given.
std::vector<ElementStores> parseWatchLines(std::istream& in, const std::string& source_file = {});

}  // namespace clh
