// Barriers whose work-items pass different flags: the report reworded, and the races across such
// a barrier that Oclgrind's detector cannot see (barrier_flags.hpp).
#include "barrier_flags.hpp"

#include <oclgrind/Memory.h>
#include <oclgrind/Program.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <regex>
#include <sstream>

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "value_origins.hpp"

namespace clh_oclgrind {

namespace {

/// OpenCL C's fence flags (the kernel's values; no host header defines them).
constexpr uint32_t kLocalFence = 1, kGlobalFence = 2, kImageFence = 4;

bool isBarrier(const llvm::Function* callee) {
  if (callee == nullptr || !callee->isDeclaration()) return false;
  const std::string name = builtinName(callee);
  return name == "barrier" || name == "work_group_barrier";
}

std::string fenceName(uint64_t fence) {
  std::string out;
  if (fence & kLocalFence) out += "CLK_LOCAL_MEM_FENCE";
  if (fence & kGlobalFence) out += std::string(out.empty() ? "" : " | ") + "CLK_GLOBAL_MEM_FENCE";
  if (fence & kImageFence) out += std::string(out.empty() ? "" : " | ") + "CLK_IMAGE_MEM_FENCE";
  return out.empty() ? "0" : out;
}

std::string entity(const oclgrind::Size3& global, const std::tuple<size_t, size_t, size_t>& local,
                   const oclgrind::Size3& group) {
  std::ostringstream out;
  out << "Global(" << global.x << "," << global.y << "," << global.z << ") Local("
      << std::get<0>(local) << "," << std::get<1>(local) << "," << std::get<2>(local) << ") Group("
      << group.x << "," << group.y << "," << group.z << ")";
  return out.str();
}

}  // namespace

std::string barrierFlagsReport(const char* message, const oclgrind::WorkItem* item,
                               const oclgrind::WorkGroup* group) {
  static constexpr std::string_view kHeader = "Work-group divergence detected (barrier)\n";
  if (message == nullptr || item == nullptr || group == nullptr ||
      std::string_view(message).rfind(kHeader, 0) != 0)
    return {};
  const llvm::Instruction* here = item->getCurrentInstruction();
  const llvm::Instruction* first = group->getCurrentBarrier();
  if (here == nullptr || first == nullptr || here->getDebugLoc() != first->getDebugLoc()) return {};
  static const std::regex fence(R"(fence=0x([0-9a-fA-F]+), num_events=(\d+))");
  const std::string text(message);
  std::vector<std::pair<uint64_t, std::string>> seen;
  for (auto m = std::sregex_iterator(text.begin(), text.end(), fence); m != std::sregex_iterator();
       ++m)
    seen.emplace_back(std::stoull((*m)[1].str(), nullptr, 16), (*m)[2].str());
  if (seen.size() != 2 || seen[0].first == seen[1].first || seen[0].second != seen[1].second)
    return {};
  // The earlier work-items' part names the same barrier's line again: their flags are said above.
  std::string body = text.substr(kHeader.size());
  if (const size_t previous = body.find("Previous work-items executed"); previous != body.npos)
    body.erase(body.rfind('\n', previous) + 1);
  return "Work-group divergence detected (barrier flags)\n\tThe work-items of a group pass "
         "different flags to one barrier (" +
         fenceName(seen[0].first) + " here, " + fenceName(seen[1].first) +
         " in the work-items before); OpenCL C requires the same flags from every work-item\n" +
         body;
}

bool BarrierFlags::varies(const llvm::Module* module) {
  if (module == nullptr) return false;
  for (const llvm::Function& f : *module) {
    if (!isBarrier(&f)) continue;
    for (const llvm::User* user : f.users()) {
      const auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call != nullptr && call->arg_size() > 0 &&
          !llvm::isa<llvm::ConstantInt>(call->getArgOperand(0)))
        return true;
    }
  }
  return false;
}

void BarrierFlags::kernelBegin(const oclgrind::Program* program, const oclgrind::Memory* global) {
  std::lock_guard<std::mutex> lock(mutex_);
  program_ = program;
  global_ = global;
  groups_.clear();
}

void BarrierFlags::workGroupBegin(const oclgrind::WorkGroup* group) {
  std::lock_guard<std::mutex> lock(mutex_);
  groups_[group] = Group{};
}

void BarrierFlags::workGroupComplete(const oclgrind::WorkGroup* group) {
  std::lock_guard<std::mutex> lock(mutex_);
  groups_.erase(group);
}

void BarrierFlags::instructionExecuted(const oclgrind::WorkItem* item,
                                       const llvm::Instruction* instruction) {
  const auto* call = llvm::dyn_cast<llvm::CallInst>(instruction);
  if (call == nullptr || call->arg_size() == 0 || !isBarrier(call->getCalledFunction())) return;
  const uint32_t flags = static_cast<uint32_t>(item->getOperand(call->getArgOperand(0)).getUInt());
  const oclgrind::Size3 id = item->getLocalID();
  std::lock_guard<std::mutex> lock(mutex_);
  groups_[item->getWorkGroup()].flags[{id.x, id.y, id.z}] = flags;
}

void BarrierFlags::workGroupBarrier(const oclgrind::WorkGroup* group, uint32_t fence) {
  std::lock_guard<std::mutex> lock(mutex_);
  Group& g = groups_[group];
  bool differ = false;
  for (const auto& [item, flags] : g.flags) differ = differ || flags != g.flags.begin()->second;
  auto itemFlags = [&](const Access& a) {
    auto found = g.flags.find(a.item);
    return found != g.flags.end() ? found->second : fence;
  };
  std::vector<Access> carried;
  auto keep = [&](Access a) {
    const uint32_t space = a.local ? kLocalFence : kGlobalFence;
    // Oclgrind fenced the group with `fence`: what it left unfenced, its own detector sees.
    if ((itemFlags(a) & space) == 0 && (fence & space) != 0) {
      a.missing = space;
      carried.push_back(std::move(a));
    }
  };
  for (Access& a : g.carried) keep(std::move(a));
  if (differ)
    for (Access& a : g.interval) keep(std::move(a));
  g.carried = std::move(carried);
  g.interval.clear();
  g.flags.clear();
}

void BarrierFlags::access(const oclgrind::Memory* memory, const oclgrind::WorkItem* item,
                          size_t address, size_t size, bool write) {
  if (item == nullptr) return;
  const oclgrind::WorkGroup* work_group = item->getWorkGroup();
  const bool local = memory == work_group->getLocalMemory();
  if (!local && memory != global_) return;
  const oclgrind::Size3 id = item->getLocalID();
  Access a;
  a.lo = address;
  a.hi = address + size;
  a.write = write;
  a.local = local;
  a.item = {id.x, id.y, id.z};
  a.global = item->getGlobalID();
  a.at = item->getCurrentInstruction();
  std::lock_guard<std::mutex> lock(mutex_);
  Group& g = groups_[work_group];
  for (const Access& before : g.carried) {
    if (before.local == a.local && before.item != a.item && (before.write || a.write) &&
        before.lo < a.hi && a.lo < before.hi)
      race(g, before, a, work_group);
  }
  g.interval.push_back(std::move(a));
}

void BarrierFlags::race(Group& group, const Access& before, const Access& after,
                        const oclgrind::WorkGroup* work_group) {
  if (!group.reported.insert({before.at, after.at}).second) return;
  std::ostringstream text;
  text << (before.write && after.write ? "Write-write"
           : before.write              ? "Write-read"
                                       : "Read-write")
       << " data race at " << (after.local ? "local" : "global")
       << " memory across a barrier that the first access's work-item passed without "
       << fenceName(before.missing) << "\n"
       << "\tFirst entity:  " << entity(before.global, before.item, work_group->getGroupID())
       << "\n\t" << where(before.at) << "\n"
       << "\tSecond entity: " << entity(after.global, after.item, work_group->getGroupID())
       << "\n\t" << where(after.at) << "\n";
  report_(text.str());
}

std::string BarrierFlags::where(const llvm::Instruction* instruction) const {
  const llvm::DebugLoc& loc =
      instruction != nullptr ? instruction->getDebugLoc() : llvm::DebugLoc();
  if (!loc) return "(location unknown)";
  std::string file = "input.cl";
  if (const auto* scope = llvm::dyn_cast_or_null<llvm::DIScope>(loc.getScope()))
    if (!scope->getFilename().empty()) file = scope->getFilename().str();
  std::ostringstream out;
  out << "At line " << loc.getLine() << " (column " << loc.getCol() << ") of " << file << ":";
  if (program_ != nullptr && loc.getLine() > 0 && loc.getLine() <= program_->getNumSourceLines())
    if (const char* source = program_->getSourceLine(loc.getLine())) out << "\n\t  " << source;
  return out.str();
}

}  // namespace clh_oclgrind
