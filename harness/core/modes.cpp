// Names of the buffer-flag and read modes, as specs and the command line spell them.
#include "core/modes.hpp"

namespace clh {

namespace {

struct ModeName {
  BufferMode mode;
  const char* name;
};
constexpr ModeName kBufferModes[] = {{BufferMode::write, "write"},
                                     {BufferMode::copy_host_ptr, "copy_host_ptr"},
                                     {BufferMode::use_host_ptr, "use_host_ptr"},
                                     {BufferMode::alloc_host_ptr, "alloc_host_ptr"},
                                     {BufferMode::alloc_copy_host_ptr, "alloc_copy_host_ptr"}};
struct ReadName {
  ReadMode mode;
  const char* name;
};
constexpr ReadName kReadModes[] = {{ReadMode::blocking, "blocking"},
                                   {ReadMode::nonblocking_wait, "nonblocking_wait"},
                                   {ReadMode::nonblocking_finish, "nonblocking_finish"},
                                   {ReadMode::map, "map"},
                                   {ReadMode::host_pointer, "host_pointer"}};

}  // namespace

const char* toString(BufferMode m) {
  for (const auto& e : kBufferModes)
    if (e.mode == m) return e.name;
  return "?";
}
const char* toString(ReadMode m) {
  for (const auto& e : kReadModes)
    if (e.mode == m) return e.name;
  return "?";
}
std::optional<BufferMode> bufferModeFromString(const std::string& s) {
  for (const auto& e : kBufferModes)
    if (s == e.name) return e.mode;
  return std::nullopt;
}
std::optional<ReadMode> readModeFromString(const std::string& s) {
  for (const auto& e : kReadModes)
    if (s == e.name) return e.mode;
  return std::nullopt;
}
const std::vector<BufferMode>& allBufferModes() {
  static const std::vector<BufferMode> all = [] {
    std::vector<BufferMode> v;
    for (const auto& e : kBufferModes) v.push_back(e.mode);
    return v;
  }();
  return all;
}
const std::vector<ReadMode>& allReadModes() {
  static const std::vector<ReadMode> all = [] {
    std::vector<ReadMode> v;
    for (const auto& e : kReadModes) v.push_back(e.mode);
    return v;
  }();
  return all;
}

}  // namespace clh
