// What the plugin adds to Oclgrind 21.10 for images. Its uninitialized-value check does not follow
// an image's pixels: it marks the result of every read_image* uninitialized or not by chance (it
// reads the image's description past the 8 bytes of the shadow it keeps for the handle), so every
// image kernel got false reports. And it reads a pixel outside the image as the border colour
// whatever the sampler, where CLK_ADDRESS_NONE (and a read without a sampler) leaves the result
// undefined, and reports nothing. So, in launches of kernels that call the image builtins:
// - an uninitialized-value report whose values come only from read_image* of images the host
//   wrote whole, the kernel's buffers the host wrote whole, and values always set
//   (value_origins.hpp) is left out and counted; any other stays;
// - a read_image* or write_image* at coordinates outside the image, where the specification
//   leaves the result undefined (CLK_ADDRESS_NONE, no sampler, any write), is reported as an
//   invalid read or write of the image.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "host_writes.hpp"
#include "value_origins.hpp"

namespace llvm {
class Instruction;
class Function;
class Module;
}  // namespace llvm

namespace oclgrind {
class KernelInvocation;
class Memory;
class WorkItem;
}  // namespace oclgrind

namespace clh_oclgrind {

class ImageChecks {
 public:
  /// Receives the text of a report, worded as Oclgrind words an invalid access.
  using Report = std::function<void(const std::string& text)>;
  explicit ImageChecks(Report report) : report_(std::move(report)) {}

  /// Whether a module calls read_image* or write_image*.
  static bool usesImages(const llvm::Module* module);

  /// A launch of a kernel that uses images begins: nothing left out yet.
  void kernelBegin(const oclgrind::KernelInvocation* invocation);
  /// Reports left out in this launch.
  long leftOut() const { return left_out_.load(); }

  /// The host stored to global memory, or released a buffer.
  void hostStored(const oclgrind::Memory* memory, size_t address, size_t size);
  void released(const oclgrind::Memory* memory, size_t address);

  /// Checks a read_image* or write_image* call's coordinates against the image.
  void instructionExecuted(const oclgrind::WorkItem* item, const llvm::Instruction* instruction);

  /// Whether an uninitialized-value report at the current work-item's instruction stems only from
  /// images and buffers the host wrote whole (then it is counted as left out).
  bool leaveOut(const oclgrind::WorkItem* item);

 private:
  void checkCoordinates(const oclgrind::WorkItem* item, const llvm::Instruction* call, bool write,
                        const std::string& name);
  bool hostWroteArgument(unsigned index, bool image) const;
  const Origins& originsOf(const llvm::Instruction* instruction);

  Report report_;
  HostWrites host_;
  const oclgrind::KernelInvocation* invocation_ = nullptr;
  const oclgrind::Memory* global_ = nullptr;
  std::atomic<long> left_out_{0};
  std::mutex mutex_;
  std::map<const llvm::Instruction*, Origins> origins_;  ///< this launch's, under mutex_
};

}  // namespace clh_oclgrind
