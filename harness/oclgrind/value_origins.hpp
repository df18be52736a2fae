// Where the values an instruction uses come from, followed back through a kernel's LLVM IR
// (arithmetic, casts, vector lanes, private variables, helper functions' parameters and results):
// the read_image* calls, the kernel's buffers, and whether any other source may hold a value never
// written. The plugin uses it to tell Oclgrind's uninitialized reports that stem only from images
// (whose pixels Oclgrind 21.10 does not follow) from the others (image_checks.hpp).
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class Value;
}  // namespace llvm

namespace clh_oclgrind {

/// The sources of the values an instruction uses.
struct Origins {
  std::vector<unsigned> images;   ///< kernel arguments (images) a read_image* result came from
  std::vector<unsigned> buffers;  ///< kernel arguments (__global/__constant buffers) loaded from
  /// Some value may come from elsewhere: __local or private memory read through a pointer, an
  /// undefined value, a private variable read where no store reaches for certain, an unknown call.
  bool other = false;
};

/// The sources of every operand of `instruction`, within `kernel` (the launched kernel function).
Origins originsOf(const llvm::Instruction* instruction, const llvm::Function* kernel);

/// At -O0 clang keeps every variable in a private slot and loads it before each use, so an
/// access's underlying object is such a load. When the slot is stored once (a parameter spilled at
/// entry, a pointer variable set once: `pAlias = p + 10`) and otherwise only loaded, the load's
/// value is what was stored: follow it, a few steps, to the parameter or array it comes from. Else
/// `object`.
const llvm::Value* storedOnce(const llvm::Value* object);

/// An OpenCL builtin's name without its Itanium mangling (`_Z11read_imagef...` -> `read_imagef`).
std::string builtinName(const llvm::Function* function);

}  // namespace clh_oclgrind
