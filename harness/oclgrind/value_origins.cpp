// Following the values an instruction uses back to their sources in the kernel's IR
// (value_origins.hpp).
#include "value_origins.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace clh_oclgrind {

namespace {

/// Values followed per report before giving up (the answer is then `other`).
constexpr int kMaxSteps = 4000;

/// OpenCL builtins whose result is the launch's geometry or an image's description: always set.
bool isGeometry(const std::string& name) {
  static const std::set<std::string> names = {"get_global_id",
                                              "get_local_id",
                                              "get_group_id",
                                              "get_global_size",
                                              "get_local_size",
                                              "get_num_groups",
                                              "get_work_dim",
                                              "get_global_offset",
                                              "get_image_width",
                                              "get_image_height",
                                              "get_image_depth",
                                              "get_image_dim",
                                              "get_image_array_size",
                                              "get_image_channel_order",
                                              "get_image_channel_data_type",
                                              "__translate_sampler_initializer"};
  return names.count(name) != 0;
}

bool isImageRead(const std::string& name) {
  return name == "read_imagef" || name == "read_imagei" || name == "read_imageui";
}

class Tracer {
 public:
  explicit Tracer(const llvm::Function* kernel) : kernel_(kernel) {}

  void operands(const llvm::Instruction* instruction) {
    if (const auto* call = llvm::dyn_cast<llvm::CallInst>(instruction)) {
      for (const llvm::Use& arg : call->args()) trace(arg.get());
    } else {
      for (const llvm::Use& operand : instruction->operands()) trace(operand.get());
    }
  }

  Origins take() { return std::move(out_); }

 private:
  void trace(const llvm::Value* v) {
    if (out_.other) return;  // the answer is known
    if (++steps_ > kMaxSteps) {
      out_.other = true;
      return;
    }
    if (!visited_.insert({v, context()}).second) return;
    if (llvm::isa<llvm::UndefValue>(v)) {  // undef and poison: a value never set
      out_.other = true;
    } else if (llvm::isa<llvm::Constant>(v) || llvm::isa<llvm::BasicBlock>(v) ||
               llvm::isa<llvm::MetadataAsValue>(v) || llvm::isa<llvm::InlineAsm>(v)) {
      return;
    } else if (const auto* argument = llvm::dyn_cast<llvm::Argument>(v)) {
      traceArgument(argument);
    } else if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(v)) {
      traceLoad(load);
    } else if (const auto* call = llvm::dyn_cast<llvm::CallInst>(v)) {
      traceCall(call);
    } else if (llvm::isa<llvm::AllocaInst>(v)) {
      return;  // an address
    } else if (llvm::isa<llvm::InsertElementInst, llvm::ShuffleVectorInst>(v)) {
      // A vector built lane by lane starts from undef (`insertelement <2 x i32> undef, ...`), a
      // splat shuffles with an undef second operand: the IR's idiom, not a value never set.
      for (const llvm::Use& operand : llvm::cast<llvm::User>(v)->operands())
        if (!llvm::isa<llvm::UndefValue>(operand.get())) trace(operand.get());
    } else if (llvm::isa<llvm::BinaryOperator, llvm::UnaryOperator, llvm::CastInst, llvm::CmpInst,
                         llvm::ExtractElementInst, llvm::ExtractValueInst, llvm::InsertValueInst,
                         llvm::GetElementPtrInst, llvm::SelectInst, llvm::PHINode,
                         llvm::FreezeInst>(v)) {
      for (const llvm::Use& operand : llvm::cast<llvm::User>(v)->operands()) trace(operand.get());
    } else {
      out_.other = true;
    }
  }

  const llvm::CallInst* context() const { return calls_.empty() ? nullptr : calls_.back(); }

  /// A kernel's argument is set by the host; a helper's is what its caller passed: that call's
  /// operand when the helper was entered from it, else every call's.
  void traceArgument(const llvm::Argument* argument) {
    const llvm::Function* function = argument->getParent();
    if (function == kernel_) return;
    const unsigned index = argument->getArgNo();
    if (const llvm::CallInst* call = context(); call != nullptr) {
      calls_.pop_back();
      trace(call->getArgOperand(index));
      calls_.push_back(call);
      return;
    }
    bool called = false;
    for (const llvm::User* user : function->users()) {
      const auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call == nullptr || call->getCalledFunction() != function) {
        out_.other = true;
        return;
      }
      called = true;
      trace(call->getArgOperand(index));
    }
    if (!called) out_.other = true;
  }

  void traceLoad(const llvm::LoadInst* load) {
    const llvm::Value* pointer = load->getPointerOperand();
    const llvm::Value* object = llvm::getUnderlyingObject(pointer, 16);
    if (const auto* slot = llvm::dyn_cast<llvm::AllocaInst>(object)) {
      traceSlot(slot, load);
      return;
    }
    object = storedOnce(object);
    const auto* argument = llvm::dyn_cast<llvm::Argument>(object);
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    if (argument != nullptr && argument->getParent() == kernel_ && (space == 1 || space == 2)) {
      out_.buffers.push_back(argument->getArgNo());  // a __global (1) or __constant (2) buffer
      trace(pointer);
      return;
    }
    out_.other = true;  // __local or private memory, or a pointer read from memory
  }

  /// A private variable (or a lane or element of one) read: the values stored to it, when the
  /// whole variable is sure to be written first (a store of it, or of each of its elements,
  /// dominates the read); a variable whose address escapes, or read where that is not sure, is
  /// `other`.
  void traceSlot(const llvm::AllocaInst* slot, const llvm::LoadInst* load) {
    std::vector<const llvm::StoreInst*> whole;
    std::map<uint64_t, std::vector<const llvm::StoreInst*>> elements;
    for (const llvm::User* user : slot->users()) {
      if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getPointerOperand() != slot) return unknown();  // its address is stored
        whole.push_back(store);
      } else if (const auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
        const auto* index = gep->getNumIndices() == 2 && gep->hasAllConstantIndices()
                                ? llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(2))
                                : nullptr;
        if (index == nullptr) return unknown();
        for (const llvm::User* use : gep->users()) {
          const auto* store = llvm::dyn_cast<llvm::StoreInst>(use);
          if (store != nullptr && store->getPointerOperand() == gep)
            elements[index->getZExtValue()].push_back(store);
          else if (!llvm::isa<llvm::LoadInst>(use))
            return unknown();
        }
      } else if (!llvm::isa<llvm::LoadInst>(user) && !llvm::isa<llvm::DbgInfoIntrinsic>(user)) {
        return unknown();
      }
    }
    // A compound literal `(int2)(x, y)` is stored undef whole, then lane by lane.
    std::vector<const llvm::StoreInst*> unset;
    for (const llvm::StoreInst* store : whole)
      if (llvm::isa<llvm::UndefValue>(store->getValueOperand())) unset.push_back(store);
    const llvm::DominatorTree& tree = dominators(load->getFunction());
    auto before = [&](const llvm::StoreInst* s) {  // surely run before the load, after any unset
      return tree.dominates(s, load) &&
             std::all_of(unset.begin(), unset.end(),
                         [&](const llvm::StoreInst* u) { return u == s || tree.dominates(u, s); });
    };
    bool written = std::any_of(whole.begin(), whole.end(), [&](const llvm::StoreInst* s) {
      return !llvm::isa<llvm::UndefValue>(s->getValueOperand()) && before(s);
    });
    const uint64_t count = elementCount(slot->getAllocatedType());
    const bool lanes =
        count > 0 && elements.size() == count &&
        std::all_of(elements.begin(), elements.end(), [&](const auto& e) {
          return e.first < count && std::any_of(e.second.begin(), e.second.end(), before);
        });
    if (!written && !lanes) return unknown();
    for (const llvm::StoreInst* store : whole)
      if (!lanes || !llvm::isa<llvm::UndefValue>(store->getValueOperand()))
        trace(store->getValueOperand());
    for (const auto& [index, stores] : elements)
      for (const llvm::StoreInst* store : stores) trace(store->getValueOperand());
  }

  void unknown() { out_.other = true; }

  /// The lanes of a vector, elements of an array or fields of a struct; 0 for anything else.
  static uint64_t elementCount(const llvm::Type* type) {
    if (const auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
      return vector->getNumElements();
    if (const auto* array = llvm::dyn_cast<llvm::ArrayType>(type)) return array->getNumElements();
    if (const auto* record = llvm::dyn_cast<llvm::StructType>(type))
      return record->getNumElements();
    return 0;
  }

  void traceCall(const llvm::CallInst* call) {
    const llvm::Function* callee = call->getCalledFunction();
    if (callee == nullptr) {
      out_.other = true;
      return;
    }
    if (!callee->isDeclaration()) {  // a helper: what it returns, its parameters from this call
      if (std::count(calls_.begin(), calls_.end(), call) != 0) return;  // recursion
      calls_.push_back(call);
      for (const llvm::BasicBlock& block : *callee) {
        if (const auto* ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator());
            ret != nullptr && ret->getReturnValue() != nullptr)
          trace(ret->getReturnValue());
      }
      calls_.pop_back();
      return;
    }
    const std::string name = builtinName(callee);
    if (isGeometry(name)) return;
    if (isImageRead(name)) {
      const llvm::Argument* image = imageArgument(call->getArgOperand(0));
      if (image == nullptr) {
        out_.other = true;
        return;
      }
      out_.images.push_back(image->getArgNo());
      for (unsigned i = 1; i < call->arg_size(); ++i) trace(call->getArgOperand(i));
      return;
    }
    for (const llvm::Use& arg : call->args()) trace(arg.get());  // math and other builtins
  }

  /// The kernel argument an image handle is, through private slots and helpers' parameters.
  const llvm::Argument* imageArgument(const llvm::Value* handle) {
    std::vector<const llvm::CallInst*> calls = calls_;
    for (int step = 0; step < 16; ++step) {
      handle = storedOnce(handle);
      const auto* argument = llvm::dyn_cast<llvm::Argument>(handle);
      if (argument == nullptr) return nullptr;
      if (argument->getParent() == kernel_) return argument;
      if (calls.empty()) return nullptr;  // a helper entered from no known call
      handle = calls.back()->getArgOperand(argument->getArgNo());
      calls.pop_back();
    }
    return nullptr;
  }

  const llvm::DominatorTree& dominators(const llvm::Function* function) {
    std::unique_ptr<llvm::DominatorTree>& tree = trees_[function];
    if (!tree) tree = std::make_unique<llvm::DominatorTree>(const_cast<llvm::Function&>(*function));
    return *tree;
  }

  const llvm::Function* kernel_;
  Origins out_;
  int steps_ = 0;
  std::set<std::pair<const llvm::Value*, const llvm::CallInst*>> visited_;
  std::vector<const llvm::CallInst*> calls_;  ///< the helpers entered, innermost last
  std::map<const llvm::Function*, std::unique_ptr<llvm::DominatorTree>> trees_;
};

}  // namespace

Origins originsOf(const llvm::Instruction* instruction, const llvm::Function* kernel) {
  Tracer tracer(kernel);
  tracer.operands(instruction);
  return tracer.take();
}

const llvm::Value* storedOnce(const llvm::Value* object) {
  for (int step = 0; step < 4; ++step) {
    const auto* load = llvm::dyn_cast<llvm::LoadInst>(object);
    if (load == nullptr) return object;
    const auto* slot =
        llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand()->stripPointerCasts());
    if (slot == nullptr) return object;
    const llvm::Value* stored = nullptr;
    for (const llvm::User* user : slot->users()) {
      if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getPointerOperand() != slot || stored != nullptr)
          return object;  // the slot's address escapes, or it is stored twice
        stored = store->getValueOperand();
      } else if (!llvm::isa<llvm::LoadInst>(user) && !llvm::isa<llvm::DbgInfoIntrinsic>(user)) {
        return object;
      }
    }
    if (stored == nullptr) return object;
    object = llvm::getUnderlyingObject(stored, 16);
  }
  return object;
}

std::string builtinName(const llvm::Function* function) {
  const std::string name = function->getName().str();
  if (name.rfind("_Z", 0) != 0) return name;
  char* end = nullptr;
  const unsigned long length = std::strtoul(name.c_str() + 2, &end, 10);
  const size_t start = static_cast<size_t>(end - name.c_str());
  if (length == 0 || start + length > name.size()) return name;
  return name.substr(start, length);
}

}  // namespace clh_oclgrind
