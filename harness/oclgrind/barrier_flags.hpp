// A barrier whose work-items pass different flags (`barrier(x)` with x not the same in every
// work-item of a group). OpenCL C wants the same flags from all of them; Oclgrind 21.10 fences the
// whole group with the first work-item's flags and reports a plain "divergence". The plugin words
// that report as what it is (barrierFlagsReport), and, where the first work-item's flags fence a
// space that another work-item's do not, keeps looking for the race Oclgrind's detector then
// cannot see: an access made before the barrier by a work-item whose own flags did not fence its
// memory stays unordered with the accesses other work-items make after it (BarrierFlags).
#pragma once

#include <oclgrind/common.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace llvm {
class Instruction;
class Module;
}  // namespace llvm

namespace oclgrind {
class Memory;
class Program;
class WorkGroup;
class WorkItem;
}  // namespace oclgrind

namespace clh_oclgrind {

/// Oclgrind's "Work-group divergence detected (barrier)" text reworded when the work-items reached
/// the same barrier with different flags (`group`'s barrier and `item`'s current instruction at
/// one source location, the fences different); empty when the divergence is another.
std::string barrierFlagsReport(const char* message, const oclgrind::WorkItem* item,
                               const oclgrind::WorkGroup* group);

class BarrierFlags {
 public:
  /// Receives the text of a report, worded as Oclgrind words a race.
  using Report = std::function<void(const std::string& text)>;
  explicit BarrierFlags(Report report) : report_(std::move(report)) {}

  /// Whether some barrier of the module takes flags that are not a constant.
  static bool varies(const llvm::Module* module);

  void kernelBegin(const oclgrind::Program* program, const oclgrind::Memory* global);
  void workGroupBegin(const oclgrind::WorkGroup* group);
  void workGroupComplete(const oclgrind::WorkGroup* group);
  /// Records the flags a work-item passes to a barrier.
  void instructionExecuted(const oclgrind::WorkItem* item, const llvm::Instruction* instruction);
  /// A barrier of the group completes, fenced (by Oclgrind) with `fence`.
  void workGroupBarrier(const oclgrind::WorkGroup* group, uint32_t fence);
  /// A work-item's load or store.
  void access(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address,
              size_t size, bool write);

 private:
  struct Access {
    size_t lo = 0, hi = 0;
    bool write = false, local = false;
    std::tuple<size_t, size_t, size_t> item;  ///< local id
    oclgrind::Size3 global;
    const llvm::Instruction* at = nullptr;
    uint32_t missing = 0;  ///< the fence its work-item left out (carried accesses)
  };
  struct Group {
    std::vector<Access> interval;  ///< since the last barrier
    std::vector<Access> carried;   ///< not ordered by the barriers since
    std::map<std::tuple<size_t, size_t, size_t>, uint32_t> flags;  ///< at the barrier reached
    std::set<std::pair<const llvm::Instruction*, const llvm::Instruction*>> reported;
  };

  void race(Group& group, const Access& before, const Access& after,
            const oclgrind::WorkGroup* work_group);
  std::string where(const llvm::Instruction* instruction) const;

  Report report_;
  const oclgrind::Program* program_ = nullptr;
  const oclgrind::Memory* global_ = nullptr;
  std::mutex mutex_;
  std::map<const oclgrind::WorkGroup*, Group> groups_;
};

}  // namespace clh_oclgrind
