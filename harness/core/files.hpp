// Writing a file whole: what a reader (or a second run writing the same file) sees is the old file
// or the new one, never part of one.
#pragma once

#include <string>

namespace clh {

/// Writes `content` to a temporary file beside `path` (its folder made if missing) and renames it
/// over `path`. Throws std::runtime_error naming the file.
void writeFileAtomically(const std::string& path, const std::string& content);

}  // namespace clh
