// Reading a submission's bytes as the file itself: a regular file, not through a symbolic link,
// not a device or a pipe, and no larger than a kernel file can sensibly be (docs/grading.md).
#pragma once

#include <cstddef>
#include <string>

namespace clh::grade {

/// The largest submission read: 1 MiB, far beyond any kernel an assignment asks for, and small
/// enough for every check the grading parent runs over the text.
inline constexpr size_t kMaxSubmissionBytes = size_t{1} << 20;

/// What reading a submission gave: its bytes, or why it was refused (a sentence a student may
/// see: it names no path of the grading machine).
struct SubmissionBytes {
  std::string text;
  std::string refused;  ///< empty: `text` is the file's content
};

/// Reads `path` without following a symbolic link at its last component (O_NOFOLLOW), without
/// blocking on a pipe (O_NONBLOCK), and only when it is a regular file of at most `max_bytes`
/// bytes; otherwise says why not. Never throws for what the file is.
SubmissionBytes readSubmissionFile(const std::string& path, size_t max_bytes = kMaxSubmissionBytes);

}  // namespace clh::grade
