// The sanitizer's records (runtime.hpp's layout) read back as the project's findings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "sanitize/rewrite.hpp"

namespace clh::sanitize {

/// The findings in the record buffer `records` of a launch of `inst` (runtime.hpp's layout),
/// with `source_lines` the original file's lines (for SourceLine::text) and each global
/// buffer's element count by table index (`global_bytes`).
std::vector<Finding> decodeRecords(const Instrumented& inst, const std::vector<uint32_t>& records,
                                   const std::vector<uint64_t>& global_bytes,
                                   const std::vector<uint64_t>& local_bytes,
                                   const std::string& shown_path,
                                   const std::vector<std::string>& source_lines);

}  // namespace clh::sanitize
