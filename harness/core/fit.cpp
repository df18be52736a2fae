// Case sizes against the device's and the host's memory (see fit.hpp).
#include "core/fit.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace clh {

uint64_t hostMemoryBytes() {
  // Asked once per process: runners check every case against it (a system call each time).
  static const uint64_t bytes = [] {
    const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(size) : 0;
  }();
  return bytes;
}

std::optional<std::string> caseTooLarge(const Spec& spec, const ResolvedCase& rc,
                                        const MemoryLimits& limits) {
  // In long double: a count near 2^63 times an element size does not wrap.
  long double device_total = 0, host_total = 0;
  for (size_t i = 0; i < spec.buffers.size() && i < rc.counts.size(); ++i) {
    const BufferSpec& b = spec.buffers[i];
    const long double bytes =
        static_cast<long double>(rc.counts[i]) * static_cast<long double>(sizeOf(b.type));
    auto what = [&] {  // formatted for a refusal only: every case is checked
      return fmt::format("buffers.{} (line {}): {} {} elements = {:.0f} bytes", b.name, b.line,
                         rc.counts[i], toString(b.type), static_cast<double>(bytes));
    };
    const long double on_device = bytes + 2.0L * static_cast<long double>(limits.guard_bytes);
    if (limits.max_alloc && on_device > static_cast<long double>(limits.max_alloc))
      return fmt::format("{}, over the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE of {} bytes", what(),
                         limits.max_alloc);
    if (bytes > static_cast<long double>(SIZE_MAX / 4))
      return fmt::format("{}, more than this process can address", what());
    device_total += on_device;
    host_total += bytes;
  }
  if (limits.global_mem && device_total > static_cast<long double>(limits.global_mem))
    return fmt::format(
        "the buffers together take {:.0f} bytes, over the device's CL_DEVICE_GLOBAL_MEM_SIZE of {} "
        "bytes",
        static_cast<double>(device_total), limits.global_mem);
  if (limits.host_mem && 3.0L * host_total > static_cast<long double>(limits.host_mem))
    return fmt::format(
        "the buffers together take {:.0f} bytes, and the host keeps about three copies of them "
        "(inputs, the reference's answer, what is read back): over this machine's {} bytes of "
        "memory",
        static_cast<double>(host_total), limits.host_mem);
  return std::nullopt;
}

}  // namespace clh
