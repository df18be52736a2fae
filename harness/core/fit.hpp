// Whether one case's buffers can exist: every size checked against the device's and the host's
// memory before anything is allocated, so an impossible size is a note naming the buffer and the
// bytes, never a std::bad_alloc or an allocation the driver refuses half-way.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/case.hpp"
#include "core/spec.hpp"

namespace clh {

/// The limits a case must fit in; 0 means unknown (not checked).
struct MemoryLimits {
  uint64_t max_alloc = 0;    ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE
  uint64_t global_mem = 0;   ///< CL_DEVICE_GLOBAL_MEM_SIZE
  uint64_t host_mem = 0;     ///< this machine's physical memory
  uint64_t guard_bytes = 0;  ///< added before and after each buffer on the device
};

/// This machine's physical memory in bytes (0 when it cannot be read).
uint64_t hostMemoryBytes();

/// Why the case `rc` of `spec` cannot run within `limits` ("buffers.A: 4000000000 float elements
/// = 16000000000 bytes, over the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE of 4294967296 bytes"), or
/// nullopt when it fits. The host holds about three copies of the buffers (the inputs, the
/// reference's answer and what is read back).
std::optional<std::string> caseTooLarge(const Spec& spec, const ResolvedCase& rc,
                                        const MemoryLimits& limits);

/// Thrown by a runner for a case that caseTooLarge() refuses: the case is skipped with this note.
class CaseTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace clh
