// Tracks each work-group's async copies in flight and reports the accesses that race with them
// (see async_copies.hpp).

#include "async_copies.hpp"

#include <oclgrind/Context.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Program.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace clh_oclgrind {
namespace {

/// One async copy of a work-group, as Oclgrind's WorkGroup::async_copy registers it.
struct Copy {
  const llvm::Instruction* instruction = nullptr;
  unsigned dest_space = 0, src_space = 0;  ///< oclgrind::AddrSpaceLocal or AddrSpaceGlobal
  size_t dest = 0, src = 0;
  size_t element = 0, count = 0;  ///< bytes of one element, elements
  size_t dest_stride = 1, src_stride = 1;
  size_t event = 0;              ///< the copy's event (what the call returns)
  size_t event_in = 0;           ///< the event argument of the first work-item's call
  std::vector<bool> registered;  ///< by local linear index: the work-items that executed the call

  /// Whether [address, address + size) touches an element of the copy at `start`, `stride`.
  bool touches(size_t start, size_t stride, size_t address, size_t size) const {
    if (count == 0 || element == 0) return false;
    const size_t step = stride * element;
    const size_t end = start + (count - 1) * step + element;
    if (address + size <= start || address >= end) return false;
    if (stride <= 1) return true;
    // Strided: the access overlaps element k's bytes for some k.
    const size_t from = address > start ? (address - start) / step : 0;
    for (size_t k = from; k < count; ++k) {
      const size_t lo = start + k * step;
      if (lo >= address + size) break;
      if (lo + element > address) return true;
    }
    return false;
  }
  /// Whether two copies' ranges (one's `a`, the other's `b`) share a byte; conservative for
  /// strided copies (their spans).
  static bool spansOverlap(size_t a, size_t a_stride, const Copy& ca, size_t b, size_t b_stride,
                           const Copy& cb) {
    if (ca.count == 0 || cb.count == 0) return false;
    const size_t a_end = a + (ca.count - 1) * a_stride * ca.element + ca.element;
    const size_t b_end = b + (cb.count - 1) * b_stride * cb.element + cb.element;
    if (a_end <= b || b_end <= a) return false;
    if (a_stride <= 1 && b_stride <= 1) return true;
    for (size_t k = 0; k < ca.count; ++k) {
      if (cb.touches(b, b_stride, a + k * a_stride * ca.element, ca.element)) return true;
    }
    return false;
  }
};

/// The copies of the work-group the calling worker thread runs (Oclgrind runs a group from its
/// begin to its end on one thread).
struct GroupState {
  const AsyncCopies* owner = nullptr;
  const oclgrind::WorkGroup* group = nullptr;
  size_t items = 0;
  std::vector<Copy> copies;
  bool waiting = false;       ///< a wait_group_events is open (its events below)
  std::vector<size_t> waits;  ///< the events of the first work-item that reached it
  /// (copy instruction, access instruction, what) already reported in this group.
  std::set<std::tuple<const llvm::Instruction*, const llvm::Instruction*, int>> reported;
};
thread_local GroupState t_group;

bool isMine(const AsyncCopies* self, const oclgrind::WorkGroup* group) {
  return t_group.owner == self && t_group.group == group && group != nullptr;
}

size_t linearIndex(const oclgrind::WorkItem* item, const oclgrind::WorkGroup* group) {
  const oclgrind::Size3 l = item->getLocalID(), s = group->getGroupSize();
  return l.x + (l.y + l.z * s.y) * s.x;
}

std::string entity(const oclgrind::WorkItem* item) {
  std::ostringstream out;
  const oclgrind::Size3 g = item->getGlobalID(), l = item->getLocalID(),
                        w = item->getWorkGroup()->getGroupID();
  out << "Global(" << g.x << "," << g.y << "," << g.z << ") Local(" << l.x << "," << l.y << ","
      << l.z << ") Group(" << w.x << "," << w.y << "," << w.z << ")";
  return out.str();
}

std::string groupEntity(const oclgrind::WorkGroup* group) {
  std::ostringstream out;
  const oclgrind::Size3 w = group->getGroupID();
  out << "Group(" << w.x << "," << w.y << "," << w.z << ")";
  return out.str();
}

const char* spaceName(unsigned space) {
  return space == oclgrind::AddrSpaceLocal ? "local" : "global";
}

enum What { kReadDest, kWriteDest, kWriteSource, kCopyDest, kCopySource, kDivergent };

/// Indents the source lines of a report as Oclgrind does (a tab before the two spaces).
std::string tabbed(std::string out) {
  for (size_t p = out.find("\n  "); p != std::string::npos; p = out.find("\n  ", p + 3))
    out.insert(p + 1, "\t");
  return out;
}

}  // namespace

void AsyncCopies::kernelBegin(const oclgrind::Program* program, const std::string& kernel) {
  program_ = program;
  kernel_ = kernel;
}

void AsyncCopies::workGroupBegin(const oclgrind::WorkGroup* group) {
  t_group = GroupState{};
  t_group.owner = this;
  t_group.group = group;
  const oclgrind::Size3 s = group->getGroupSize();
  t_group.items = s.x * s.y * s.z;
}

void AsyncCopies::reportPartial(const oclgrind::WorkGroup* group, bool waited_only) const {
  // The specification: every work-item of the group must reach an async copy, with the same
  // arguments; Oclgrind performs one reached by a few as if all had reached it.
  for (const Copy& c : t_group.copies) {
    if (waited_only &&
        std::find(t_group.waits.begin(), t_group.waits.end(), c.event) == t_group.waits.end()) {
      continue;
    }
    const size_t reached =
        static_cast<size_t>(std::count(c.registered.begin(), c.registered.end(), true));
    if (reached == c.registered.size()) continue;
    std::ostringstream text;
    text << "Work-group divergence detected (async copy)\n"
         << "\tKernel: " << kernel_ << "\n"
         << "\tWork-group: " << groupEntity(group).substr(5) << "\n"
         << "\tOnly " << reached << " out of " << c.registered.size()
         << " work-items executed the async copy\n"
         << "\t" << where(c.instruction);
    report_(tabbed(text.str()));
  }
}

void AsyncCopies::workGroupBarrier(const oclgrind::WorkGroup* group) {
  if (!isMine(this, group) || !t_group.waiting) return;
  // The wait completed: Oclgrind has just performed the copies of its events.
  reportPartial(group, true);
  auto& copies = t_group.copies;
  copies.erase(std::remove_if(copies.begin(), copies.end(),
                              [](const Copy& c) {
                                return std::find(t_group.waits.begin(), t_group.waits.end(),
                                                 c.event) != t_group.waits.end();
                              }),
               copies.end());
  t_group.waiting = false;
  t_group.waits.clear();
}

void AsyncCopies::workGroupComplete(const oclgrind::WorkGroup* group) {
  if (!isMine(this, group)) return;
  reportPartial(group, false);  // copies never waited for
  t_group = GroupState{};
}

std::string AsyncCopies::where(const llvm::Instruction* instruction) const {
  std::ostringstream out;
  const llvm::DebugLoc& loc = instruction->getDebugLoc();
  if (!loc) return "(location unknown)\n";
  std::string file = "input.cl";
  if (const auto* scope = llvm::dyn_cast_or_null<llvm::DIScope>(loc.getScope())) {
    if (!scope->getFilename().empty()) file = scope->getFilename().str();
  }
  out << "At line " << loc.getLine() << " (column " << loc.getCol() << ") of " << file << ":\n";
  if (program_ != nullptr && loc.getLine() > 0 && loc.getLine() <= program_->getNumSourceLines()) {
    if (const char* text = program_->getSourceLine(loc.getLine())) out << "  " << text << "\n";
  }
  return out.str();
}

namespace {

// A wait_group_events: the group's events it waits for, from the first work-item that reaches it.
void recordWait(const oclgrind::WorkItem* item, const llvm::CallInst* call,
                const oclgrind::WorkGroup* group) {
  if (t_group.waiting || call->arg_size() < 2) return;  // the first work-item's events count
  t_group.waiting = true;
  const uint64_t num = item->getOperand(call->getArgOperand(0)).getUInt();
  const llvm::Value* list = call->getArgOperand(1);
  const size_t address = item->getOperand(list).getPointer();
  const unsigned space = list->getType()->getPointerAddressSpace();
  const oclgrind::Memory* memory = space == oclgrind::AddrSpaceLocal     ? group->getLocalMemory()
                                   : space == oclgrind::AddrSpacePrivate ? item->getPrivateMemory()
                                                                         : nullptr;
  if (memory == nullptr || num == 0 || num > 4096 ||
      !memory->isAddressValid(address, num * sizeof(size_t))) {
    return;
  }
  const auto* events = static_cast<const size_t*>(memory->getPointer(address));
  t_group.waits.assign(events, events + num);
}

// The copy a call of async_work_group_copy or _strided_copy starts, as the work-item sees it.
Copy describeCopy(const oclgrind::WorkItem* item, const llvm::CallInst* call,
                  const llvm::Instruction* instruction, const oclgrind::TypedValue& result,
                  bool strided) {
  Copy c;
  c.instruction = instruction;
  const llvm::Value* dest = call->getArgOperand(0);
  const llvm::Value* src = call->getArgOperand(1);
  c.dest = item->getOperand(dest).getPointer();
  c.src = item->getOperand(src).getPointer();
  c.dest_space = dest->getType()->getPointerAddressSpace();
  c.src_space = src->getType()->getPointerAddressSpace();
  llvm::Type* element = dest->getType()->getPointerElementType();
  c.element = element->isSized() ? call->getCalledFunction()
                                       ->getParent()
                                       ->getDataLayout()
                                       .getTypeAllocSize(element)
                                       .getFixedSize()
                                 : 1;
  c.count = item->getOperand(call->getArgOperand(2)).getUInt();
  const size_t stride = strided ? item->getOperand(call->getArgOperand(3)).getUInt() : 1;
  if (c.dest_space == oclgrind::AddrSpaceLocal)
    c.src_stride = stride;
  else
    c.dest_stride = stride;
  c.event = result.size >= sizeof(size_t) ? result.getPointer() : 0;
  c.event_in = item->getOperand(call->getArgOperand(strided ? 4 : 3)).getUInt();
  return c;
}

// How a new copy `c` overlaps a copy in flight: kCopyDest (their destinations, a write-write
// race), kCopySource (one's source and the other's destination), or -1.
int overlapOf(const Copy& c, const Copy& other) {
  if (other.dest_space == c.dest_space &&
      Copy::spansOverlap(c.dest, c.dest_stride, c, other.dest, other.dest_stride, other))
    return kCopyDest;
  if ((other.src_space == c.dest_space &&
       Copy::spansOverlap(c.dest, c.dest_stride, c, other.src, other.src_stride, other)) ||
      (other.dest_space == c.src_space &&
       Copy::spansOverlap(c.src, c.src_stride, c, other.dest, other.dest_stride, other)))
    return kCopySource;
  return -1;
}

}  // namespace

void AsyncCopies::instructionExecuted(const oclgrind::WorkItem* item,
                                      const llvm::Instruction* instruction,
                                      const oclgrind::TypedValue& result) {
  if (instruction->getOpcode() != llvm::Instruction::Call) return;
  const auto* call = llvm::cast<llvm::CallInst>(instruction);
  const llvm::Function* callee = call->getCalledFunction();
  if (callee == nullptr || !callee->isDeclaration()) return;
  const llvm::StringRef name = callee->getName();
  const bool strided = name.contains("async_work_group_strided_copy");
  const bool copy = strided || name.contains("async_work_group_copy");
  const bool wait = !copy && name.contains("wait_group_events");
  if (!copy && !wait) return;
  const oclgrind::WorkGroup* group = item->getWorkGroup();
  if (!isMine(this, group)) return;
  if (wait) return recordWait(item, call, group);
  if (call->arg_size() < (strided ? 5u : 4u)) return;
  Copy c = describeCopy(item, call, instruction, result, strided);
  const size_t index = linearIndex(item, group);

  // A copy another work-item already registered: Oclgrind pairs a call with the first copy in
  // flight this work-item has not executed yet. It compares the pointers and sizes of the two
  // calls, not the event argument: a copy joined to different events by different work-items
  // is divergent too (which wait completes it is then undefined).
  for (Copy& known : t_group.copies) {
    if (index < known.registered.size() && !known.registered[index]) {
      known.registered[index] = true;
      if (c.event_in != known.event_in &&
          t_group.reported.emplace(known.instruction, instruction, kDivergent).second)
        reportDifferentEvents(item, known.instruction, known.event_in, instruction, c.event_in);
      return;
    }
  }
  // A new copy: another copy in flight to or from the same bytes races with it.
  for (const Copy& other : t_group.copies) {
    const int what = overlapOf(c, other);
    if (what < 0 || !t_group.reported.emplace(other.instruction, instruction, what).second)
      continue;
    reportCopiesRace(group, other.instruction, instruction, what == kCopyDest, c.dest_space,
                     what == kCopyDest ? c.dest : c.src);
  }
  c.registered.assign(t_group.items, false);
  if (index < c.registered.size()) c.registered[index] = true;
  t_group.copies.push_back(std::move(c));
}

void AsyncCopies::reportDifferentEvents(const oclgrind::WorkItem* item,
                                        const llvm::Instruction* first, uint64_t first_event,
                                        const llvm::Instruction* second,
                                        uint64_t second_event) const {
  const oclgrind::WorkGroup* group = item->getWorkGroup();
  std::ostringstream text;
  text << "Work-group divergence detected (async copy)\n"
       << "\tKernel: " << kernel_ << "\n"
       << "\tWork-group: " << groupEntity(group).substr(5) << "\n"
       << "\tThe work-items pass different events to the async copy (" << first_event << " and "
       << second_event << ")\n"
       << "\tFirst entity:  " << groupEntity(group) << "\n\t" << where(first)
       << "\tSecond entity: " << entity(item) << "\n\t" << where(second);
  report_(tabbed(text.str()));
}

void AsyncCopies::reportCopiesRace(const oclgrind::WorkGroup* group, const llvm::Instruction* first,
                                   const llvm::Instruction* second, bool write_write,
                                   unsigned space, size_t address) const {
  std::ostringstream text;
  text << (write_write ? "Write-write" : "Read-write") << " data race between two async copies "
       << "in flight at " << spaceName(space) << " memory address 0x" << std::hex << address
       << std::dec << "\n"
       << "\tKernel: " << kernel_ << "\n"
       << "\tThe second copy starts before a wait_group_events covers the first; their "
       << (write_write ? "destinations" : "source and destination") << " overlap\n\t\n"
       << "\tFirst entity:  " << groupEntity(group) << "\n\t" << where(first) << "\t\n"
       << "\tSecond entity: " << groupEntity(group) << "\n\t" << where(second);
  std::string out = text.str();
  for (size_t p = out.find("\n  "); p != std::string::npos; p = out.find("\n  ", p + 3))
    out.insert(p + 1, "\t");
  report_(out);
}

void AsyncCopies::access(const oclgrind::Memory* memory, const oclgrind::WorkItem* item,
                         size_t address, size_t size, bool write) {
  if (t_group.copies.empty() || item == nullptr || t_group.owner != this) return;
  const oclgrind::WorkGroup* group = item->getWorkGroup();
  if (group != t_group.group) return;
  const unsigned space = memory->getAddressSpace();
  if (space != oclgrind::AddrSpaceLocal && space != oclgrind::AddrSpaceGlobal) return;
  const llvm::Instruction* instruction = item->getCurrentInstruction();
  for (const Copy& c : t_group.copies) {
    int what = -1;
    if (c.dest_space == space && c.touches(c.dest, c.dest_stride, address, size))
      what = write ? kWriteDest : kReadDest;
    else if (write && c.src_space == space && c.touches(c.src, c.src_stride, address, size))
      what = kWriteSource;
    if (what < 0 || !t_group.reported.emplace(c.instruction, instruction, what).second) continue;
    const bool write_write = what == kWriteDest;
    std::ostringstream text;
    text << (write_write ? "Write-write" : "Read-write")
         << " data race with an async copy in flight at " << spaceName(space)
         << " memory address 0x" << std::hex << address << std::dec << "\n"
         << "\tKernel: " << kernel_ << "\n"
         << "\tA work-item " << (write ? "writes" : "reads") << " the "
         << (what == kWriteSource ? "source" : "destination")
         << " of an async copy that no wait_group_events has covered yet\n\t\n"
         << "\tFirst entity:  " << groupEntity(group) << "\n\t" << where(c.instruction) << "\t\n"
         << "\tSecond entity: " << entity(item) << "\n\t"
         << (instruction != nullptr ? where(instruction) : std::string("(location unknown)\n"));
    std::string out = text.str();
    for (size_t p = out.find("\n  "); p != std::string::npos; p = out.find("\n  ", p + 3))
      out.insert(p + 1, "\t");
    report_(out);
  }
}

std::string AsyncCopies::copiesInFlight() const {
  if (t_group.owner != this) return {};
  std::string out;
  for (const Copy& c : t_group.copies) {
    std::string at = where(c.instruction);
    for (size_t p = at.find("\n  "); p != std::string::npos; p = at.find("\n  ", p + 3))
      at.insert(p + 1, "\t");
    out += "\t" + at;
  }
  return out;
}

}  // namespace clh_oclgrind
