// Names of the buffer-flag and read modes, as specs and the command line spell them.
#include "core/modes.hpp"

#include "core/enum_words.hpp"

namespace clh {

namespace {

constexpr EnumWord<BufferMode> kBufferModes[] = {
    {BufferMode::write, "write"},
    {BufferMode::copy_host_ptr, "copy_host_ptr"},
    {BufferMode::use_host_ptr, "use_host_ptr"},
    {BufferMode::alloc_host_ptr, "alloc_host_ptr"},
    {BufferMode::alloc_copy_host_ptr, "alloc_copy_host_ptr"}};
constexpr EnumWord<ReadMode> kReadModes[] = {{ReadMode::blocking, "blocking"},
                                             {ReadMode::nonblocking_wait, "nonblocking_wait"},
                                             {ReadMode::nonblocking_finish, "nonblocking_finish"},
                                             {ReadMode::map, "map"},
                                             {ReadMode::host_pointer, "host_pointer"}};

}  // namespace

const char* toString(BufferMode m) {
  return wordOf(kBufferModes, m, "?");
}
const char* toString(ReadMode m) {
  return wordOf(kReadModes, m, "?");
}
std::optional<BufferMode> bufferModeFromString(const std::string& s) {
  return valueOf(kBufferModes, s);
}
std::optional<ReadMode> readModeFromString(const std::string& s) {
  return valueOf(kReadModes, s);
}
const std::vector<BufferMode>& allBufferModes() {
  static const std::vector<BufferMode> all = valuesOf(kBufferModes);
  return all;
}
const std::vector<ReadMode>& allReadModes() {
  static const std::vector<ReadMode> all = valuesOf(kReadModes);
  return all;
}

}  // namespace clh
