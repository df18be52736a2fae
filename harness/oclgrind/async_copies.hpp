// Tracks each work-group's async copies in flight (async_work_group_copy or _strided_copy up to
// the wait_group_events that covers them) and reports a work-item's access that races with one.
//
// Oclgrind performs a copy only when the work-group's wait_group_events completes, so a read of
// the destination before the wait sees stale memory and nothing is reported. The OpenCL C
// specification leaves the copy free to run any time between the call and the wait: a work-item
// that reads or writes its destination, or writes its source, in between races with it, and so
// does a second copy in flight to or from the same bytes. A copy that some work-items of the group
// never reach, or reach with another event, is a divergence (the specification: every work-item,
// the same arguments). Built without RTTI, like plugin.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace llvm {
class Instruction;
}
namespace oclgrind {
class Memory;
class Program;
class WorkGroup;
class WorkItem;
struct TypedValue;
}  // namespace oclgrind

namespace clh_oclgrind {

class AsyncCopies {
 public:
  /// Receives the text of a report, worded as Oclgrind words a race (so a reader classifies and
  /// parses it as one): sent from the worker thread of the work-group, with the accessing
  /// work-item current.
  using Report = std::function<void(const std::string& text)>;

  explicit AsyncCopies(Report report) : report_(std::move(report)) {}

  /// The launch's program (for the source lines of reports) and kernel name.
  void kernelBegin(const oclgrind::Program* program, const std::string& kernel);

  void workGroupBegin(const oclgrind::WorkGroup* group);
  /// Called at the end of every barrier of a group: a wait_group_events among them completes the
  /// copies of the events it named.
  void workGroupBarrier(const oclgrind::WorkGroup* group);
  void workGroupComplete(const oclgrind::WorkGroup* group);

  /// Registers the copies and waits a work-item executes (calls of the builtins).
  void instructionExecuted(const oclgrind::WorkItem* item, const llvm::Instruction* instruction,
                           const oclgrind::TypedValue& result);

  /// A work-item's load or store (atomics included).
  void access(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address,
              size_t size, bool write);

  /// "At line N (column C) of FILE:" and the source line, for each copy still in flight in the
  /// calling thread's work-group: what a "finished without waiting for events" report is about.
  std::string copiesInFlight() const;

 private:
  std::string where(const llvm::Instruction* instruction) const;
  /// Reports the group's copies that some of its work-items never reached as a divergence (only
  /// those the open wait completes when `waited_only`).
  void reportPartial(const oclgrind::WorkGroup* group, bool waited_only) const;
  /// Reports two work-items of a group that join one copy with different events.
  void reportDifferentEvents(const oclgrind::WorkItem* item, const llvm::Instruction* first,
                             uint64_t first_event, const llvm::Instruction* second,
                             uint64_t second_event) const;
  /// Reports a copy that starts while another copy in flight touches the same bytes at `address`
  /// (their destinations when `write_write`, else one's source and the other's destination).
  void reportCopiesRace(const oclgrind::WorkGroup* group, const llvm::Instruction* first,
                        const llvm::Instruction* second, bool write_write, unsigned space,
                        size_t address) const;

  Report report_;
  const oclgrind::Program* program_ = nullptr;
  std::string kernel_;
};

}  // namespace clh_oclgrind
