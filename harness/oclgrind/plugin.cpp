// An Oclgrind plugin that writes every diagnostic Oclgrind logs, and every kernel launch, as one
// JSON object per line to the file named by CLHARNESS_OCLGRIND_LOG. clharness::sim parses the file;
// nothing here formats findings for people. Loaded through OCLGRIND_PLUGINS=<this .so>.
// When CLHARNESS_OCLGRIND_WATCH names a file holding watched elements (sim/oclgrind_watch.hpp),
// each launch of their kernel also reports which statements stored to them ("watch" lines).
// An out-of-bounds access to local or private memory names the array it was derived from.
// An access that races with an async copy still in flight is reported as a race with both lines
// (async_copies.hpp), and "finished without waiting for events" names the copies never waited for.
// In kernels that use images, uninitialized reports that stem only from host-written images are
// left out and counted, and reads and writes outside an image are reported (image_checks.hpp).
// A barrier whose work-items pass different flags is reported as that, and the races Oclgrind
// cannot see across it are looked for (barrier_flags.hpp).
//
// Built without RTTI, as liboclgrind is (it exports no typeinfo for oclgrind::Plugin).

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

// Oclgrind's public headers; Kernel.h needs LLVM's ADT headers on the include path.
#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/Program.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include "async_copies.hpp"
#include "barrier_flags.hpp"
#include "image_checks.hpp"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "value_origins.hpp"

namespace {

// Fields keep the order they are written in, so a line reads naturally.
using json = nlohmann::ordered_json;

/// Version of the log's format (a JSON object a line); the parser in harness/sim accepts this
/// version.
constexpr int kFormatVersion = 1;
/// Reports of one problem (one message wording at one instruction) written per launch; the rest
/// are counted and written as one line with "repeats" at the launch's end. A kernel whose every
/// work-item stores an uninitialized value in a loop sends Oclgrind's message a million times.
constexpr long kReportsPerSite = 256;

json size3(const oclgrind::Size3& s) {
  return json::array({s.x, s.y, s.z});
}

/// The pointer address space an instruction reads or writes, or -1 when it touches no pointer.
int pointerAddressSpace(const llvm::Instruction* instruction) {
  if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(instruction)) {
    return static_cast<int>(load->getPointerAddressSpace());
  }
  if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(instruction)) {
    return static_cast<int>(store->getPointerAddressSpace());
  }
  if (const auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(instruction)) {
    return static_cast<int>(rmw->getPointerAddressSpace());
  }
  if (const auto* cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(instruction)) {
    return static_cast<int>(cmpxchg->getPointerAddressSpace());
  }
  if (const auto* call = llvm::dyn_cast<llvm::CallInst>(instruction)) {
    // Builtins such as vload/vstore/atomic_*: the first pointer argument is the memory touched.
    for (const llvm::Use& arg : call->args()) {
      if (arg->getType()->isPointerTy()) {
        return static_cast<int>(arg->getType()->getPointerAddressSpace());
      }
    }
  }
  return -1;
}

/// The pointer an instruction reads or writes through (as pointerAddressSpace picks it), or null.
const llvm::Value* accessedPointer(const llvm::Instruction* instruction) {
  if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(instruction)) {
    return load->getPointerOperand();
  }
  if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(instruction)) {
    return store->getPointerOperand();
  }
  if (const auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(instruction)) {
    return rmw->getPointerOperand();
  }
  if (const auto* cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(instruction)) {
    return cmpxchg->getPointerOperand();
  }
  if (const auto* call = llvm::dyn_cast<llvm::CallInst>(instruction)) {
    for (const llvm::Use& arg : call->args()) {
      if (arg->getType()->isPointerTy()) return arg.get();
    }
  }
  return nullptr;
}

/// A source-level type as C writes it ("int[10][10]", "struct point[4]"), from debug info.
std::string typeName(const llvm::DIType* type) {
  std::string dims;
  while (type != nullptr) {
    if (const auto* composite = llvm::dyn_cast<llvm::DICompositeType>(type)) {
      if (composite->getTag() != llvm::dwarf::DW_TAG_array_type) {
        const std::string name = composite->getName().str();
        const char* tag = composite->getTag() == llvm::dwarf::DW_TAG_structure_type ? "struct "
                          : composite->getTag() == llvm::dwarf::DW_TAG_union_type   ? "union "
                                                                                    : "";
        return (name.empty() ? std::string(tag) + "{...}" : tag + name) + dims;
      }
      for (const llvm::DINode* element : composite->getElements()) {
        const auto* range = llvm::dyn_cast_or_null<llvm::DISubrange>(element);
        const auto* count =
            range != nullptr ? range->getCount().dyn_cast<llvm::ConstantInt*>() : nullptr;
        dims += count != nullptr ? "[" + std::to_string(count->getSExtValue()) + "]" : "[]";
      }
      type = composite->getBaseType();
    } else if (const auto* derived = llvm::dyn_cast<llvm::DIDerivedType>(type)) {
      if (derived->getTag() == llvm::dwarf::DW_TAG_pointer_type) return "pointer" + dims;
      if (derived->getTag() == llvm::dwarf::DW_TAG_typedef && !derived->getName().empty()) {
        return derived->getName().str() + dims;
      }
      type = derived->getBaseType();
    } else {
      return type->getName().str() + dims;
    }
  }
  return dims;
}

/// The line declaring private array `name` in the source, searched from `use` back to the start of
/// the function that uses it: Oclgrind strips the llvm.dbg.declare calls that would say it. A
/// declaration is the name followed by '[' after a type's last word ("int p[4]", "float4 v[2]").
unsigned declarationLine(const std::string& name, const llvm::Instruction* use,
                         const oclgrind::Kernel* kernel) {
  const oclgrind::Program* program = kernel != nullptr ? kernel->getProgram() : nullptr;
  const llvm::DebugLoc& loc = use->getDebugLoc();
  if (program == nullptr || !loc || name.empty() ||
      name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") !=
          std::string::npos) {
    return 0;
  }
  unsigned first = 1;
  if (const auto* scope = llvm::dyn_cast_or_null<llvm::DIScope>(loc.getScope())) {
    if (const llvm::DISubprogram* function =
            llvm::dyn_cast<llvm::DILocalScope>(scope)->getSubprogram()) {
      first = std::max(1u, function->getLine());
    }
  }
  const std::regex declaration("(^|[^A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)[\\s*]+" + name +
                               "\\s*\\[");
  for (unsigned line = std::min<unsigned>(loc.getLine(), program->getNumSourceLines());
       line >= first && line > 0; --line) {
    const char* text = program->getSourceLine(line);
    std::cmatch m;
    if (text == nullptr || !std::regex_search(text, m, declaration)) continue;
    const std::string word = m[2].str();
    if (word != "return" && word != "case" && word != "else" && word != "sizeof") return line;
  }
  return 0;
}

/// The name, type and line of a __local variable or a private alloca, from its debug info.
void addDeclaration(json& out, const llvm::Value* object) {
  const llvm::DIVariable* variable = nullptr;
  if (const auto* global = llvm::dyn_cast<llvm::GlobalVariable>(object)) {
    llvm::SmallVector<llvm::DIGlobalVariableExpression*, 1> expressions;
    global->getDebugInfo(expressions);
    if (!expressions.empty()) variable = expressions.front()->getVariable();
  } else if (llvm::isa<llvm::AllocaInst>(object)) {
    // dbg.declare names the alloca through metadata, so it is not among the alloca's users.
    for (const llvm::DbgDeclareInst* declare :
         llvm::FindDbgDeclareUses(const_cast<llvm::Value*>(object))) {
      if (declare->getVariable() != nullptr) {
        variable = declare->getVariable();
        break;
      }
    }
  }
  if (variable != nullptr) {
    out["name"] = variable->getName().str();
    const std::string type = typeName(variable->getType());
    if (!type.empty()) out["type"] = type;
    if (variable->getLine() > 0) out["line"] = variable->getLine();
  } else if (const auto* argument = llvm::dyn_cast<llvm::Argument>(object)) {
    out["argument"] = argument->getArgNo();
  }
  if (!out.contains("name") && object->hasName()) out["name"] = object->getName().str();
}

/// The __local or private array a work-item's current access was derived from (its pointer's
/// underlying object: a kernel's __local variable or __local argument, or an alloca), as
/// {name, address_space, size, offset, type, line}: `size` the bytes Oclgrind gave it, `offset`
/// where the access starts from the array's start (past `size`: past its end), taken from the
/// text's address when it names one, else from the pointer's value. Null when the pointer comes
/// from something else (a pointer loaded from memory, a helper's parameter, a global buffer).
json arrayOf(const char* text, const oclgrind::WorkItem* item, const oclgrind::Kernel* kernel) {
  if (item == nullptr || kernel == nullptr) return nullptr;
  const llvm::Instruction* instruction = item->getCurrentInstruction();
  const llvm::Value* pointer = instruction != nullptr ? accessedPointer(instruction) : nullptr;
  if (pointer == nullptr) return nullptr;
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != oclgrind::AddrSpaceLocal && space != oclgrind::AddrSpacePrivate) return nullptr;
  const llvm::Value* object = clh_oclgrind::storedOnce(llvm::getUnderlyingObject(pointer, 16));
  const oclgrind::Memory* memory = nullptr;
  if (llvm::isa<llvm::AllocaInst>(object)) {
    memory = item->getPrivateMemory();
  } else if (llvm::isa<llvm::GlobalVariable>(object) || llvm::isa<llvm::Argument>(object)) {
    // Only the kernel's own values have an address in this work-item (a helper's parameter or
    // another kernel's __local variable has none).
    bool known = false;
    for (auto value = kernel->values_begin(); value != kernel->values_end() && !known; ++value) {
      known = value->first == object;
    }
    if (!known || object->getType()->getPointerAddressSpace() != space) return nullptr;
    memory = space == oclgrind::AddrSpaceLocal ? item->getWorkGroup()->getLocalMemory()
                                               : item->getPrivateMemory();
  } else {
    return nullptr;
  }
  const size_t base = item->getOperand(object).getPointer();
  const oclgrind::Memory::Buffer* storage = memory->getBuffer(base);
  if (storage == nullptr) return nullptr;
  size_t target = item->getOperand(pointer).getPointer();
  static const std::regex address("at (local|private) memory address 0x([0-9a-fA-F]+)");
  std::cmatch m;
  if (text != nullptr && std::regex_search(text, m, address)) {
    target = std::stoull(m[2].str(), nullptr, 16);
  }
  json out = json::object();
  addDeclaration(out, object);
  if (llvm::isa<llvm::AllocaInst>(object) && !out.contains("line") && out.contains("name")) {
    const unsigned line = declarationLine(out["name"].get<std::string>(), instruction, kernel);
    if (line > 0) out["line"] = line;
  }
  out["address_space"] = oclgrind::getAddressSpaceName(space);
  out["size"] = storage->size;
  if (memory->extractBuffer(target) == memory->extractBuffer(base)) {
    out["offset"] = static_cast<long long>(memory->extractOffset(target)) -
                    static_cast<long long>(memory->extractOffset(base));
  }
  return out;
}

/// Whether a message reports an access outside local or private memory's bounds (Oclgrind's
/// "Invalid read/write ... at local memory address", "Index (N) exceeds static array size (M)").
bool isArrayBoundsMessage(const char* text) {
  if (text == nullptr) return false;
  const std::string head(text, ::strnlen(text, 200));
  if (head.rfind("Index (", 0) == 0) return head.find("exceeds static array size") != head.npos;
  return (head.rfind("Invalid read", 0) == 0 || head.rfind("Invalid write", 0) == 0) &&
         (head.find(" at local memory") != head.npos ||
          head.find(" at private memory") != head.npos);
}

/// File, line, column and source text of an instruction, from its debug location.
json sourceLocation(const llvm::Instruction* instruction, const oclgrind::Kernel* kernel) {
  const llvm::DebugLoc& loc = instruction->getDebugLoc();
  if (!loc) return nullptr;
  json out = {{"line", loc.getLine()}, {"column", loc.getCol()}};
  if (const auto* scope = llvm::dyn_cast_or_null<llvm::DIScope>(loc.getScope())) {
    out["file"] = scope->getFilename().str();
  }
  if (kernel != nullptr && kernel->getProgram() != nullptr) {
    const oclgrind::Program* program = kernel->getProgram();
    if (loc.getLine() > 0 && loc.getLine() <= program->getNumSourceLines()) {
      if (const char* text = program->getSourceLine(loc.getLine())) out["source"] = text;
    }
  }
  return out;
}

std::string dumped(const llvm::Instruction* instruction) {
  std::ostringstream out;
  oclgrind::dumpInstruction(out, instruction);
  return out.str();
}

/// The kernel argument whose buffer holds the global or constant address a message names ("...
/// at global memory address 0x3000000000010"), as {argument, name, size, offset}: `size` is what
/// the argument can reach from its own start, `offset` where the address lies from that start
/// (beyond `size`: past its end). Null when the text names no such address or no argument's
/// buffer holds it. Oclgrind keeps a buffer's number in an address's upper bits.
json bufferOf(const char* text, const oclgrind::Kernel* kernel, const oclgrind::Memory* memory) {
  static const std::regex address("at (global|constant) memory address 0x([0-9a-fA-F]+)");
  std::cmatch m;
  if (text == nullptr || kernel == nullptr || memory == nullptr ||
      !std::regex_search(text, m, address)) {
    return nullptr;
  }
  const size_t target = std::stoull(m[2].str(), nullptr, 16);
  const size_t buffer = memory->extractBuffer(target);
  json best = nullptr;
  size_t bestBase = 0;
  for (auto value = kernel->values_begin(); value != kernel->values_end(); ++value) {
    const auto* argument = llvm::dyn_cast<llvm::Argument>(value->first);
    if (argument == nullptr || !argument->getType()->isPointerTy()) continue;
    const unsigned space = argument->getType()->getPointerAddressSpace();
    if (space != oclgrind::AddrSpaceGlobal && space != oclgrind::AddrSpaceConstant) continue;
    const size_t base = value->second.getPointer();
    if (memory->extractBuffer(base) != buffer) continue;
    // Arguments may share a buffer (sub-buffers): the one starting nearest below the address.
    if (!best.is_null() && (base > target || (bestBase <= target && base < bestBase))) continue;
    const auto* storage = memory->getBuffer(base);  // its type is private to Memory
    const size_t start = memory->extractOffset(base);
    const unsigned index = argument->getArgNo();
    best = {{"argument", index},
            {"name", kernel->getArgumentName(index).str()},
            {"size", storage != nullptr && storage->size > start ? storage->size - start : 0},
            {"offset", static_cast<long long>(memory->extractOffset(target)) -
                           static_cast<long long>(start)}};
    bestBase = base;
  }
  return best;
}

const char* messageTypeName(oclgrind::MessageType type) {
  switch (type) {
    case oclgrind::DEBUG:
      return "debug";
    case oclgrind::INFO:
      return "info";
    case oclgrind::WARNING:
      return "warning";
    case oclgrind::ERROR:
      return "error";
  }
  return "unknown";
}

/// Appends whole lines to one file; one write(2) per line on an O_APPEND descriptor, so lines from
/// several threads, contexts or processes never interleave.
class LineWriter {
 public:
  explicit LineWriter(const std::string& path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      std::fprintf(stderr, "clharness oclgrind plugin: cannot open %s for appending\n",
                   path.c_str());
    }
  }
  ~LineWriter() {
    if (fd_ >= 0) ::close(fd_);
  }
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;

  void write(const json& record) {
    if (fd_ < 0) return;
    std::string line = record.dump(-1, ' ', false, json::error_handler_t::replace);
    line += '\n';
    std::lock_guard<std::mutex> lock(mutex_);
    const char* data = line.data();
    size_t left = line.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      data += n;
      left -= static_cast<size_t>(n);
    }
  }

 private:
  int fd_ = -1;
  std::mutex mutex_;
};

/// Process-wide numbering, shared by every Oclgrind context of the process.
std::atomic<long> g_nextLaunch{1};
std::atomic<long> g_nextContext{1};

/// Whether an Oclgrind switch is on, read the way Oclgrind reads it (exactly "1").
bool switchOn(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string(value) == "1";
}

/// One watched element of one launch: the global addresses it spans and the stores seen there.
struct Watched {
  std::string element;  ///< the caller's label
  size_t lo = 0, hi = 0;
  long stores = 0;
  json last = nullptr;         ///< {work_item, location} of the last store seen
  json lines = json::array();  ///< distinct source lines that stored to it, first seen first
};

class JsonLinesPlugin : public oclgrind::Plugin {
 public:
  JsonLinesPlugin(const oclgrind::Context* context, const std::string& path)
      : oclgrind::Plugin(context),
        writer_(path),
        async_([this](const std::string& text) { log(oclgrind::ERROR, text.c_str()); }),
        images_([this](const std::string& text) { logMessage(oclgrind::ERROR, text.c_str()); }),
        flags_([this](const std::string& text) { logMessage(oclgrind::ERROR, text.c_str()); }),
        context_id_(g_nextContext.fetch_add(1)) {
    // Which checks Oclgrind runs in this context (it reads the same variables when the context is
    // made), so a reader can tell "no race found" from "race detection was off".
    checks_ = {{"data_races", switchOn("OCLGRIND_DATA_RACES")},
               {"uninitialized", switchOn("OCLGRIND_UNINITIALIZED")},
               {"check_api", switchOn("OCLGRIND_CHECK_API")},
               {"uniform_writes", switchOn("OCLGRIND_UNIFORM_WRITES")},
               {"quick", switchOn("OCLGRIND_QUICK")}};
    if (const char* watch = std::getenv("CLHARNESS_OCLGRIND_WATCH")) watch_path_ = watch;
    json record = base("plugin_loaded", 0, nullptr);
    record["checks"] = checks_;
    writer_.write(record);
  }

  void kernelBegin(const oclgrind::KernelInvocation* invocation) override {
    const long launch = g_nextLaunch.fetch_add(1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      invocation_ = invocation;
      launch_ = launch;
      sites_.clear();
    }
    json record = base("kernel_begin", launch, invocation);
    record["work_dim"] = invocation->getWorkDim();
    record["global_size"] = size3(invocation->getGlobalSize());
    record["local_size"] = size3(invocation->getLocalSize());
    record["global_offset"] = size3(invocation->getGlobalOffset());
    record["checks"] = checks_;
    const oclgrind::Size3 groups = invocation->getNumGroups();
    groups_total_ = groups.x * groups.y * groups.z;
    groups_done_ = 0;
    startWatching(invocation);
    const oclgrind::Kernel* kernel = invocation->getKernel();
    copying_ = kernel != nullptr && callsAsyncCopies(kernel->getFunction());
    if (copying_) async_.kernelBegin(kernel->getProgram(), kernel->getName());
    imaging_ = kernel != nullptr && kernel->getFunction() != nullptr &&
               clh_oclgrind::ImageChecks::usesImages(kernel->getFunction()->getParent());
    if (imaging_) images_.kernelBegin(invocation);
    flagging_ = kernel != nullptr && kernel->getFunction() != nullptr &&
                clh_oclgrind::BarrierFlags::varies(kernel->getFunction()->getParent());
    if (flagging_) flags_.kernelBegin(kernel->getProgram(), m_context->getGlobalMemory());
    last_progress_ = std::chrono::steady_clock::now().time_since_epoch().count();
    writer_.write(record);
  }

  /// Progress of long launches: a "progress" line ({groups_done, groups_total}) at most once a
  /// second, so a reader can show how far a large grid is and estimate the rest.
  void workGroupComplete(const oclgrind::WorkGroup* group) override {
    if (copying_) async_.workGroupComplete(group);
    if (flagging_) flags_.workGroupComplete(group);
    const long done = ++groups_done_;
    const long long now = std::chrono::steady_clock::now().time_since_epoch().count();
    long long last = last_progress_.load();
    constexpr long long kSecond = std::chrono::steady_clock::period::den;
    if (now - last < kSecond || !last_progress_.compare_exchange_strong(last, now)) return;
    long launch = 0;
    const oclgrind::KernelInvocation* invocation = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      launch = launch_;
      invocation = invocation_;
    }
    json record = base("progress", launch, invocation);
    record["groups_done"] = done;
    record["groups_total"] = groups_total_.load();
    writer_.write(record);
  }

  void kernelEnd(const oclgrind::KernelInvocation* invocation) override {
    long launch = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      launch = launch_;
      invocation_ = nullptr;
      launch_ = 0;
    }
    reportWatched(launch, invocation);
    writeRepeats();
    json record = base("kernel_end", launch, invocation);
    // Oclgrind does not follow an image's pixels: which of its reports were left out.
    if (imaging_) record["images"] = {{"uninitialized_left_out", images_.leftOut()}};
    imaging_ = false;
    writer_.write(record);
  }

  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address,
                   size_t size, const uint8_t*) override {
    if (watching_.load(std::memory_order_acquire)) storeSeen(memory, item, address, size);
    if (copying_) async_.access(memory, item, address, size, true);
    if (flagging_) flags_.access(memory, item, address, size, true);
  }
  void hostMemoryStore(const oclgrind::Memory* memory, size_t address, size_t size,
                       const uint8_t*) override {
    if (memory == m_context->getGlobalMemory()) images_.hostStored(memory, address, size);
  }
  void memoryDeallocated(const oclgrind::Memory* memory, size_t address) override {
    if (memory == m_context->getGlobalMemory()) images_.released(memory, address);
  }
  void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address,
                  size_t size) override {
    if (copying_) async_.access(memory, item, address, size, false);
    if (flagging_) flags_.access(memory, item, address, size, false);
  }
  void memoryAtomicLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* item,
                        oclgrind::AtomicOp, size_t address, size_t size) override {
    if (copying_) async_.access(memory, item, address, size, false);
  }
  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t address,
                   size_t size, const uint8_t*) override {
    if (watching_.load(std::memory_order_acquire)) storeSeen(memory, nullptr, address, size);
  }
  void memoryAtomicStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* item,
                         oclgrind::AtomicOp, size_t address, size_t size) override {
    if (watching_.load(std::memory_order_acquire)) storeSeen(memory, item, address, size);
    if (copying_) async_.access(memory, item, address, size, true);
  }

  // Async copies in flight, per work-group (async_copies.hpp); only in launches of a kernel that
  // calls the builtins.
  void workGroupBegin(const oclgrind::WorkGroup* group) override {
    if (copying_) async_.workGroupBegin(group);
    if (flagging_) flags_.workGroupBegin(group);
  }
  void workGroupBarrier(const oclgrind::WorkGroup* group, uint32_t fence) override {
    if (copying_) async_.workGroupBarrier(group);
    if (flagging_) flags_.workGroupBarrier(group, fence);
  }
  void instructionExecuted(const oclgrind::WorkItem* item, const llvm::Instruction* instruction,
                           const oclgrind::TypedValue& result) override {
    if (copying_) async_.instructionExecuted(item, instruction, result);
    if (imaging_) images_.instructionExecuted(item, instruction);
    if (flagging_) flags_.instructionExecuted(item, instruction);
  }

  void log(oclgrind::MessageType type, const char* message) override {
    if (type == oclgrind::DEBUG) return;
    if (imaging_ && message != nullptr && std::strstr(message, "ninitiali") != nullptr &&
        images_.leaveOut(currentWorkItem()))
      return;  // stems only from images the host wrote, whose pixels Oclgrind does not follow
    if (message != nullptr && std::strstr(message, "divergence detected (barrier)") != nullptr) {
      const std::string flags = barrierFlagsReport(message);
      if (!flags.empty()) {
        logMessage(type, flags.c_str());
        return;
      }
    }
    // Oclgrind's "finished without waiting for events" names the work-item that finished last:
    // the copies never waited for are what it is about, so their lines replace its location.
    static constexpr std::string_view kUnwaited = "Work-item finished without waiting for events";
    if (copying_ && message != nullptr && std::string_view(message).rfind(kUnwaited, 0) == 0) {
      const std::string copies = async_.copiesInFlight();
      if (!copies.empty()) {
        std::string text(message);
        const size_t kernel = text.find("\tKernel:");
        const size_t entity = text.find("\n\tEntity:");
        const size_t entity_end =
            entity != std::string::npos ? text.find('\n', entity + 1) : std::string::npos;
        std::string rewritten =
            std::string(kUnwaited) + ": an async copy no wait_group_events " + "covered\n";
        if (kernel != std::string::npos) {
          rewritten += text.substr(kernel, text.find('\n', kernel) - kernel + 1);
        }
        if (entity_end != std::string::npos) {
          rewritten += text.substr(entity + 1, entity_end - entity);
        }
        rewritten += "\tThe copies still in flight when the work-group ended:\n" + copies;
        logMessage(type, rewritten.c_str());
        return;
      }
    }
    logMessage(type, message);
  }

  void logMessage(oclgrind::MessageType type, const char* message) {
    // Messages are sent from the worker thread that found the problem (or from the thread running
    // kernelEnd), so the invocation's thread-local current work-item/group are the ones it saw.
    const oclgrind::KernelInvocation* invocation = nullptr;
    long launch = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      invocation = invocation_;
      launch = launch_;
    }
    // One problem at one instruction, reported past kReportsPerSite times in this launch: counted,
    // and the first report past the limit kept for the launch's end.
    std::string site;
    if (invocation != nullptr && message != nullptr) {
      site = siteOf(message, invocation);
      std::lock_guard<std::mutex> lock(mutex_);
      Site& seen = sites_[site];
      if (++seen.reports > kReportsPerSite) {
        if (seen.unwritten.is_null())
          seen.unwritten = messageRecord(type, message, launch, invocation);
        return;
      }
    }
    writer_.write(messageRecord(type, message, launch, invocation));
  }

  bool isThreadSafe() const override { return true; }

 private:
  /// A divergence at a barrier reached with different flags, reworded (barrier_flags.hpp).
  std::string barrierFlagsReport(const char* message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (invocation_ == nullptr) return {};
    return clh_oclgrind::barrierFlagsReport(message, invocation_->getCurrentWorkItem(),
                                            invocation_->getCurrentWorkGroup());
  }

  const oclgrind::WorkItem* currentWorkItem() {
    std::lock_guard<std::mutex> lock(mutex_);
    return invocation_ != nullptr ? invocation_->getCurrentWorkItem() : nullptr;
  }

  /// Where a report comes from: its first line without addresses, and the current instruction
  /// (or, for reports made at a barrier or a group's end, the rest of the text: a race's lines).
  static std::string siteOf(const char* message, const oclgrind::KernelInvocation* invocation) {
    const std::string_view text(message);
    const size_t eol = text.find('\n');
    std::string site = withoutAddresses(text.substr(0, eol));
    const oclgrind::WorkItem* item = invocation->getCurrentWorkItem();
    const llvm::Instruction* instruction =
        item != nullptr ? item->getCurrentInstruction() : nullptr;
    if (instruction != nullptr)
      site += "|" + std::to_string(reinterpret_cast<std::uintptr_t>(instruction));
    else if (eol != std::string_view::npos)
      site += withoutEntities(withoutAddresses(text.substr(eol)));
    return site;
  }

  /// `text` without the work-items' and work-groups' coordinates ("Global(3,0,0)"): a race found
  /// at a barrier names its two work-items, and one loop of a kernel can race between a million
  /// pairs of them at the same two lines (GPUVerify's atomics/forloop: 743 MB of log).
  static std::string withoutEntities(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
      out += text[i];
      if (text[i] != '(') continue;
      const std::string_view before = std::string_view(text).substr(0, i);
      if (!before.ends_with("Global") && !before.ends_with("Local") && !before.ends_with("Group"))
        continue;
      const size_t close = text.find(')', i);
      if (close == std::string::npos) break;
      i = close - 1;  // the ')' is copied next
    }
    return out;
  }

  /// `text` without its hexadecimal addresses ("0x1000000000040"): called for every report, so a
  /// plain scan rather than a regular expression.
  static std::string withoutAddresses(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '0' && i + 2 < text.size() && text[i + 1] == 'x' &&
          std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
        i += 2;
        while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i]))) ++i;
        --i;
        continue;
      }
      out += text[i];
    }
    return out;
  }

  json messageRecord(oclgrind::MessageType type, const char* message, long launch,
                     const oclgrind::KernelInvocation* invocation) {
    json record = base("message", launch, invocation);
    record["type"] = messageTypeName(type);
    record["text"] = message != nullptr ? message : "";
    if (invocation != nullptr) {
      addSimulatorState(record, invocation);
      json buffer = bufferOf(message, invocation->getKernel(), m_context->getGlobalMemory());
      if (!buffer.is_null()) record["buffer"] = std::move(buffer);
      if (isArrayBoundsMessage(message)) {
        json array = arrayOf(message, invocation->getCurrentWorkItem(), invocation->getKernel());
        if (!array.is_null()) record["array"] = std::move(array);
      }
    }
    return record;
  }

  /// The reports of each site past kReportsPerSite, as one line each: the first of them with
  /// "repeats", the number of reports it stands for.
  void writeRepeats() {
    std::map<std::string, Site> sites;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sites.swap(sites_);
    }
    for (auto& [key, site] : sites) {
      if (site.reports <= kReportsPerSite || site.unwritten.is_null()) continue;
      site.unwritten["repeats"] = site.reports - kReportsPerSite;
      writer_.write(site.unwritten);
    }
  }

  struct Site {
    long reports = 0;
    json unwritten = nullptr;  ///< the first report past the limit, written at the launch's end
  };
  std::map<std::string, Site> sites_;  ///< this launch's, under mutex_

  json base(const char* event, long launch, const oclgrind::KernelInvocation* invocation) {
    json record = {{"v", kFormatVersion},
                   {"event", event},
                   {"pid", static_cast<long>(::getpid())},
                   {"context", context_id_}};
    record["launch"] = launch > 0 ? json(launch) : json(nullptr);
    if (invocation != nullptr && invocation->getKernel() != nullptr) {
      record["kernel"] = invocation->getKernel()->getName();
    }
    return record;
  }

  static void addSimulatorState(json& record, const oclgrind::KernelInvocation* invocation) {
    const oclgrind::WorkItem* item = invocation->getCurrentWorkItem();
    const oclgrind::WorkGroup* group = invocation->getCurrentWorkGroup();
    if (item != nullptr) {
      record["work_item"] = {{"global", size3(item->getGlobalID())},
                             {"local", size3(item->getLocalID())}};
      if (group == nullptr) group = item->getWorkGroup();
    }
    if (group != nullptr) record["work_group"] = size3(group->getGroupID());
    if (item == nullptr) return;
    const llvm::Instruction* instruction = item->getCurrentInstruction();
    if (instruction == nullptr) return;
    record["instruction"] = dumped(instruction);
    json location = sourceLocation(instruction, invocation->getKernel());
    if (!location.is_null()) record["location"] = std::move(location);
    const int space = pointerAddressSpace(instruction);
    if (space >= 0) record["address_space"] = oclgrind::getAddressSpaceName(space);
  }

  /// Reads the watch file (when there is one) and resolves the elements of this kernel's buffer
  /// arguments to global addresses: {"watch": [{kernel, argument, offset, size, element}]}.
  void startWatching(const oclgrind::KernelInvocation* invocation) {
    std::lock_guard<std::mutex> lock(watch_mutex_);
    watched_.clear();
    watching_ = false;
    if (watch_path_.empty() || invocation->getKernel() == nullptr) return;
    std::ifstream in(watch_path_);
    if (!in) return;
    const json request = json::parse(in, nullptr, false);
    if (!request.is_object() || !request.contains("watch") || !request["watch"].is_array()) return;
    const oclgrind::Kernel* kernel = invocation->getKernel();
    watch_kernel_ = kernel;
    for (const json& w : request["watch"]) {
      if (!w.is_object() || w.value("kernel", "") != kernel->getName()) continue;
      const unsigned index = w.value("argument", 0u);
      for (auto value = kernel->values_begin(); value != kernel->values_end(); ++value) {
        const auto* argument = llvm::dyn_cast<llvm::Argument>(value->first);
        if (argument == nullptr || argument->getArgNo() != index) continue;
        if (!argument->getType()->isPointerTy()) break;
        Watched element;
        element.element = w.value("element", "");
        element.lo = value->second.getPointer() + w.value("offset", size_t{0});
        element.hi = element.lo + w.value("size", size_t{1});
        watched_.push_back(std::move(element));
        break;
      }
    }
    watching_ = !watched_.empty();
  }

  void storeSeen(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address,
                 size_t size) {
    if (memory != m_context->getGlobalMemory()) return;
    std::lock_guard<std::mutex> lock(watch_mutex_);
    for (Watched& w : watched_) {
      if (address >= w.hi || address + size <= w.lo) continue;
      ++w.stores;
      json store = json::object();
      if (item != nullptr) {
        store["work_item"] = {{"global", size3(item->getGlobalID())},
                              {"local", size3(item->getLocalID())}};
        if (const llvm::Instruction* instruction = item->getCurrentInstruction()) {
          json location = sourceLocation(instruction, watch_kernel_);
          if (!location.is_null()) {
            store["location"] = location;
            bool known = false;
            for (const json& l : w.lines) known = known || l["line"] == location["line"];
            if (!known) w.lines.push_back(location);
          }
        }
      }
      w.last = std::move(store);
    }
  }

  /// One "watch" line per watched element of the launch that ends.
  void reportWatched(long launch, const oclgrind::KernelInvocation* invocation) {
    std::lock_guard<std::mutex> lock(watch_mutex_);
    watching_ = false;
    for (const Watched& w : watched_) {
      json record = base("watch", launch, invocation);
      record["element"] = w.element;
      record["stores"] = w.stores;
      record["lines"] = w.lines;
      if (!w.last.is_null()) record["last"] = w.last;
      writer_.write(record);
    }
    watched_.clear();
  }

  /// Whether a function calls async_work_group_copy or _strided_copy, directly or through the
  /// functions it calls.
  static bool callsAsyncCopies(const llvm::Function* function) {
    if (function == nullptr || function->getParent() == nullptr) return false;
    for (const llvm::Function& f : *function->getParent()) {
      if (f.isDeclaration() && f.getName().contains("async_work_group_")) return true;
    }
    return false;
  }

  LineWriter writer_;
  clh_oclgrind::AsyncCopies async_;
  /// This launch's kernel's module calls an async copy builtin (set at kernelBegin).
  std::atomic<bool> copying_{false};
  clh_oclgrind::ImageChecks images_;
  /// This launch's kernel's module calls an image builtin (set at kernelBegin).
  std::atomic<bool> imaging_{false};
  clh_oclgrind::BarrierFlags flags_;
  /// Some barrier of this launch's kernel's module takes flags that are not a constant.
  std::atomic<bool> flagging_{false};
  std::string watch_path_;
  std::mutex watch_mutex_;
  std::vector<Watched> watched_;
  const oclgrind::Kernel* watch_kernel_ = nullptr;
  std::atomic<bool> watching_{false};
  const long context_id_;
  json checks_;
  std::mutex mutex_;
  const oclgrind::KernelInvocation* invocation_ = nullptr;
  long launch_ = 0;
  std::atomic<long> groups_done_{0}, groups_total_{0};
  std::atomic<long long> last_progress_{0};
};

/// The plugin of each context. Never destroyed: a context may be released during exit (a
/// cl::Context held in a static of the host program) after this library's statics are gone.
struct Registry {
  std::mutex mutex;
  std::map<const oclgrind::Context*, JsonLinesPlugin*> plugins;
};
Registry& registry() {
  static Registry* const instance = new Registry;
  return *instance;
}

}  // namespace

/// Called by Oclgrind once per context when this library is named in OCLGRIND_PLUGINS.
extern "C" __attribute__((visibility("default"))) void initializePlugins(
    oclgrind::Context* context) {
  const char* path = std::getenv("CLHARNESS_OCLGRIND_LOG");
  if (path == nullptr || *path == '\0') {
    std::fprintf(stderr, "clharness oclgrind plugin: CLHARNESS_OCLGRIND_LOG is not set\n");
    return;
  }
  auto* plugin = new JsonLinesPlugin(context, path);
  context->registerPlugin(plugin);
  Registry& plugins = registry();
  std::lock_guard<std::mutex> lock(plugins.mutex);
  plugins.plugins[context] = plugin;
}

/// Called by Oclgrind when the context goes away.
extern "C" __attribute__((visibility("default"))) void releasePlugins(oclgrind::Context* context) {
  JsonLinesPlugin* plugin = nullptr;
  {
    Registry& plugins = registry();
    std::lock_guard<std::mutex> lock(plugins.mutex);
    auto found = plugins.plugins.find(context);
    if (found == plugins.plugins.end()) return;
    plugin = found->second;
    plugins.plugins.erase(found);
  }
  context->unregisterPlugin(plugin);
  delete plugin;
}
