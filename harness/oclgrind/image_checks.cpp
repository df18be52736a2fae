// Images on Oclgrind 21.10: its uninitialized reports that stem only from images left out, and
// reads and writes outside an image reported (image_checks.hpp).
#include "image_checks.hpp"

#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/WorkItem.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "llvm/IR/Argument.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace clh_oclgrind {

namespace {

/// The sizes a coordinate of the image indexes (width, height, depth; an array's layer index is
/// clamped by the specification and not checked).
std::vector<size_t> checkedSizes(const oclgrind::Image& image) {
  const cl_image_desc& d = image.desc;
  switch (d.image_type) {
    case CL_MEM_OBJECT_IMAGE3D:
      return {d.image_width, d.image_height, d.image_depth};
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return {d.image_width, d.image_height};
    default:
      return {d.image_width};
  }
}

/// The pixel a coordinate lane selects, per the specification's rules for a sampler (nearest:
/// floor(u); linear: floor(u - 0.5) and the next one), in `first` and `last`.
void selected(double coordinate, bool is_float, uint32_t sampler, size_t size, long long& first,
              long long& last) {
  double u = coordinate;
  if (is_float && (sampler & CLK_NORMALIZED_COORDS_TRUE) != 0) u *= static_cast<double>(size);
  if ((sampler & CLK_FILTER_LINEAR) != 0 && is_float) {
    first = static_cast<long long>(std::floor(u - 0.5));
    last = first + 1;
  } else {
    first = last = static_cast<long long>(std::floor(u));
  }
}

}  // namespace

bool ImageChecks::usesImages(const llvm::Module* module) {
  if (module == nullptr) return false;
  for (const llvm::Function& f : *module) {
    if (!f.isDeclaration()) continue;
    const std::string name = builtinName(&f);
    if (name.rfind("read_image", 0) == 0 || name.rfind("write_image", 0) == 0) return true;
  }
  return false;
}

void ImageChecks::kernelBegin(const oclgrind::KernelInvocation* invocation) {
  std::lock_guard<std::mutex> lock(mutex_);
  invocation_ = invocation;
  global_ = invocation->getContext()->getGlobalMemory();
  origins_.clear();
  left_out_ = 0;
}

void ImageChecks::hostStored(const oclgrind::Memory* memory, size_t address, size_t size) {
  host_.stored(memory->extractBuffer(address), memory->extractOffset(address), size);
}

void ImageChecks::released(const oclgrind::Memory* memory, size_t address) {
  host_.released(memory->extractBuffer(address));
}

void ImageChecks::instructionExecuted(const oclgrind::WorkItem* item,
                                      const llvm::Instruction* instruction) {
  const auto* call = llvm::dyn_cast<llvm::CallInst>(instruction);
  const llvm::Function* callee = call != nullptr ? call->getCalledFunction() : nullptr;
  if (callee == nullptr || !callee->isDeclaration()) return;
  const std::string name = builtinName(callee);
  if (name.rfind("read_image", 0) == 0) checkCoordinates(item, call, false, name);
  if (name.rfind("write_image", 0) == 0) checkCoordinates(item, call, true, name);
}

void ImageChecks::checkCoordinates(const oclgrind::WorkItem* item, const llvm::Instruction* call,
                                   bool write, const std::string& name) {
  const auto* c = llvm::cast<llvm::CallInst>(call);
  const oclgrind::Image* image =
      *reinterpret_cast<oclgrind::Image* const*>(item->getOperand(c->getArgOperand(0)).data);
  if (image == nullptr || c->arg_size() < 2) return;
  uint32_t sampler = CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;  // no sampler: unnormalized, nearest
  unsigned at = 1;
  if (!write && c->arg_size() > 2) {  // Oclgrind keeps a sampler as a pointer to its ConstantInt
    const auto* bits = reinterpret_cast<const llvm::ConstantInt*>(
        item->getOperand(c->getArgOperand(1)).getPointer());
    if (bits == nullptr) return;
    sampler = static_cast<uint32_t>(bits->getZExtValue());
    at = 2;
  }
  if (!write && (sampler & CLK_ADDRESS_MASK) != CLK_ADDRESS_NONE) return;  // defined outside
  const llvm::Value* coordinate = c->getArgOperand(at);
  const bool is_float = coordinate->getType()->getScalarType()->isFloatingPointTy();
  const oclgrind::TypedValue value = item->getOperand(coordinate);
  const std::vector<size_t> sizes = checkedSizes(*image);
  std::ostringstream where, size;
  bool outside = false;
  for (size_t d = 0; d < sizes.size() && d < value.num; ++d) {
    const double lane = is_float ? value.getFloat(static_cast<unsigned>(d))
                                 : static_cast<double>(value.getSInt(static_cast<unsigned>(d)));
    long long first = 0, last = 0;
    selected(lane, is_float, sampler, sizes[d], first, last);
    outside = outside || first < 0 || last >= static_cast<long long>(sizes[d]);
    where << (d == 0 ? "(" : ", ") << lane;
    size << (d == 0 ? "" : "x") << sizes[d];
  }
  if (!outside) return;
  const llvm::Argument* argument = llvm::dyn_cast<llvm::Argument>(storedOnce(c->getArgOperand(0)));
  const std::string image_name =
      argument != nullptr && argument->hasName() ? " '" + argument->getName().str() + "'" : "";
  std::ostringstream text;
  text << (write ? "Invalid write to image" : "Invalid read from image") << image_name
       << " outside its " << size.str() << " pixels ("
       << (write               ? "write_image*"
           : c->arg_size() > 2 ? "CLK_ADDRESS_NONE"
                               : "no sampler")
       << ": the result is undefined)\n\t" << name << " at coordinates " << where.str() << ")\n";
  report_(text.str());
}

bool ImageChecks::hostWroteArgument(unsigned index, bool image) const {
  const oclgrind::Kernel* kernel = invocation_->getKernel();
  const llvm::Argument* argument = kernel->getFunction()->getArg(index);
  for (auto value = kernel->values_begin(); value != kernel->values_end(); ++value) {
    if (value->first != argument) continue;
    size_t address = 0;
    if (image) {
      const oclgrind::Image* i = *reinterpret_cast<oclgrind::Image* const*>(value->second.data);
      if (i == nullptr) return false;
      address = i->address;
    } else {
      address = value->second.getPointer();
    }
    const oclgrind::Memory::Buffer* buffer = global_->getBuffer(address);
    return buffer != nullptr && host_.covers(global_->extractBuffer(address), 0, buffer->size);
  }
  return false;
}

const Origins& ImageChecks::originsOf(const llvm::Instruction* instruction) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = origins_.find(instruction);
  if (found != origins_.end()) return found->second;
  return origins_
      .emplace(instruction,
               clh_oclgrind::originsOf(instruction, invocation_->getKernel()->getFunction()))
      .first->second;
}

bool ImageChecks::leaveOut(const oclgrind::WorkItem* item) {
  const llvm::Instruction* instruction = item != nullptr ? item->getCurrentInstruction() : nullptr;
  if (instruction == nullptr || invocation_ == nullptr) return false;
  const Origins& origins = originsOf(instruction);
  if (origins.other || origins.images.empty()) return false;
  for (unsigned image : origins.images)
    if (!hostWroteArgument(image, true)) return false;
  for (unsigned buffer : origins.buffers)
    if (!hostWroteArgument(buffer, false)) return false;
  ++left_out_;
  return true;
}

}  // namespace clh_oclgrind
