// The device side of one case's buffers: how they are created (the buffer-flag modes of the
// OpenCL specification), how results come back (the read modes), and guard zones that catch
// writes past either end of a buffer on real devices, where no simulator watches.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cl/opencl.hpp"
#include "core/finding.hpp"
#include "core/hostbuffer.hpp"
#include "core/modes.hpp"

namespace clh {

/// An allocator whose value-initialisation leaves the bytes as they are, so that resize() of a byte
/// vector whose every new byte is written next (the shared buffer's image) writes nothing first.
template <class T>
struct UninitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  explicit UninitAllocator(const UninitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};
/// The host image of a case's shared buffer (guards and contents), grown without zeroing.
using ImageBytes = std::vector<uint8_t, UninitAllocator<uint8_t>>;

/// The sub-buffers of one pooled buffer, kept with it from one case to the next: a case whose
/// buffers lie where the last one's did (the same sizes in another mode, another submission at the
/// same sizes) takes them again instead of making them anew and releasing them at its end.
class SubBuffers {
 public:
  /// The sub-buffer of `parent` (CL_MEM_READ_WRITE) at `origin` of `size` bytes: a kept one, else
  /// a new one.
  const cl::Buffer& get(cl::Buffer& parent, size_t origin, size_t size);
  /// How many get() handed out this case, and the k-th of them.
  size_t handedOut() const { return used_.size(); }
  const cl::Buffer& handedOut(size_t k) const { return used_[k].buffer; }
  /// Releases the kept ones get() did not hand out: while a case's commands run, only its own
  /// sub-buffers of a pooled buffer are alive.
  void dropUnused() { kept_.clear(); }
  /// Those get() handed out become the ones kept for the next case (the vectors swapped, not
  /// moved: both keep their room, and a case appends without allocating).
  void endCase() {
    std::swap(kept_, used_);
    used_.clear();
  }

 private:
  struct View {
    size_t origin = 0, size = 0;
    cl::Buffer buffer;
  };
  std::vector<View> kept_, used_;
};

/// Plain (CL_MEM_READ_WRITE) device buffers kept from one case to the next, so that a case does
/// not allocate and free its buffers on the device each time: for buffers in the write mode,
/// whose every byte a kernel can see is written afresh each case and whose kernel argument is a
/// sub-buffer of the size asked for (inside the guards, or at the start of a larger pooled
/// buffer), so that a larger buffer serves as well as a new one. All of one context.
class BufferPool {
 public:
  /// A buffer of at least `bytes` (the smallest kept one that is large enough and at most twice
  /// as large, else a new one); `capacity` gets its size and `views` the sub-buffers kept with it
  /// (none: they are released).
  cl::Buffer take(cl::Context& context, size_t bytes, size_t* capacity,
                  SubBuffers* views = nullptr);
  /// Keeps `buffer` of `capacity` bytes, and the sub-buffers of it `views` handed out this case,
  /// for a later take(), unless the pool is full.
  void give(cl::Buffer buffer, size_t capacity, SubBuffers views = {});
  /// Releases every kept buffer (before their context goes).
  void clear();
  /// A case's host storage: its shared-buffer image, and its guard pattern.
  enum class Scratch { image, pattern };
  /// Host storage for a case, empty, with the capacity the last case left it (a case then grows
  /// it without allocating); giveScratch() hands it back.
  ImageBytes takeScratch(Scratch which) {
    ImageBytes out = std::move(scratch_[static_cast<size_t>(which)]);
    out.clear();
    return out;
  }
  void giveScratch(Scratch which, ImageBytes image) {
    if (image.capacity() <= kMaxScratchBytes)
      scratch_[static_cast<size_t>(which)] = std::move(image);
  }

 private:
  static constexpr size_t kMaxScratchBytes = size_t{1} << 20;  // a few small buffers and guards
  struct Kept {
    size_t capacity = 0;
    cl::Buffer buffer;
    SubBuffers views;  // destroyed before the buffer
  };
  std::vector<Kept> kept_;
  size_t bytes_ = 0;
  std::array<ImageBytes, 2> scratch_;  // by Scratch
};

/// One case's device buffers.
class CaseBuffers {
 public:
  /// `guard_bytes`: bytes of a random pattern, drawn for this case, before and after each buffer
  /// (0: none). `pool`: where write-mode buffers come from and go back to (none: new ones).
  /// `align`: without guards, where the small write-mode buffers' images start in the shared
  /// buffer (a multiple of the device's base-address alignment; 0: no shared buffer).
  CaseBuffers(cl::Context& context, cl::CommandQueue& queue, size_t guard_bytes,
              BufferPool* pool = nullptr, size_t align = 0);
  /// Gives pooled buffers back; every command on them must have completed or be on the queue.
  ~CaseBuffers();
  CaseBuffers(const CaseBuffers&) = delete;
  CaseBuffers& operator=(const CaseBuffers&) = delete;
  /// The same with a default mode for add(name, host).
  CaseBuffers(cl::Context& context, cl::CommandQueue& queue, BufferMode mode, size_t guard_bytes)
      : CaseBuffers(context, queue, guard_bytes) {
    default_mode_ = mode;
  }

  /// Room for `n` buffers (add() calls), allocated once.
  void reserve(size_t n) {
    entries_.reserve(n);
    whole_.reserve(n);
    views_.reserve(n);
  }
  /// Creates the buffer for `host` (its initial contents) in `mode` and returns its index.
  /// `write_contents = false`: a new buffer whose contents are never written (only its guard
  /// zones), so the simulator sees them as uninitialized; `mode` is then `write`.
  /// `access`: CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY.
  size_t add(const std::string& name, const HostBuffer& host, BufferMode mode,
             bool write_contents = true, cl_mem_flags access = CL_MEM_READ_WRITE);
  size_t add(const std::string& name, const HostBuffer& host) {
    return add(name, host, default_mode_);
  }
  /// Makes the buffers whose creation add() deferred: with a pool, the small write-mode buffers
  /// of a case share one pooled buffer, each inside guards of its own (or at an aligned offset
  /// without guards), written in one command and read back in one with guards (their guards with
  /// the results). Call it after the last add() and before arg(); without such buffers it does
  /// nothing. It is prepare() and then the shared buffer's write.
  void commit();
  /// commit()'s first half: the shared buffer and its sub-buffers, without the write, so that a
  /// caller can bind them (arg()) before the first command of the case reaches the queue. On a
  /// driver whose queue runs on threads of the host (PoCL), every command enqueued on an idle queue
  /// wakes them, and the host's own driver calls afterwards contend with them for its locks: the
  /// case's commands go best back to back (DeviceSession enqueues the write just before the
  /// first launch).
  void prepare();
  /// The buffer-flag mode buffer `i` was created in.
  BufferMode mode(size_t i) const { return entries_[i].mode; }
  /// What the kernel argument of buffer `i` is (a sub-buffer inside its guards when guarded).
  const cl::Buffer& arg(size_t i) const;
  /// Takes buffer `i` back into `out` (of the same type and count).
  void read(size_t i, HostBuffer& out, ReadMode mode);
  /// Checks every guard zone; one out_of_bounds finding per buffer whose guards changed. The queue
  /// must be in order (the guards are read after whatever was enqueued before).
  std::vector<Finding> checkGuards();
  /// read() of each of `results` (buffer index, destination) in `mode`, then checkGuards(), with
  /// fewer commands and one wait where the mode allows: in the blocking mode the other buffers'
  /// guards are read first without blocking, and a small result buffer comes back whole in its
  /// blocking read, its guards with its contents.
  std::vector<Finding> readResults(const std::vector<std::pair<size_t, HostBuffer*>>& results,
                                   ReadMode mode);

 private:
  struct Entry {
    std::string name;
    BufferMode mode = BufferMode::write;
    size_t bytes = 0;              ///< the contents
    size_t body = 0;               ///< what was allocated between the guards (never 0)
    size_t element = 1;            ///< bytes of one element
    std::vector<uint8_t> host;     ///< USE_HOST_PTR storage (with guards), kept alive for the case
    std::vector<uint8_t> fetched;  ///< its guards as read back: the whole buffer, or both guards
    bool fetched_whole = false;    ///< `fetched` holds the whole buffer
    bool has_fetched = false;      ///< read since the last check
    size_t pooled = 0;             ///< the capacity of a buffer from the pool (0: not pooled)
    size_t offset = 0;             ///< where its leading guard starts in whole_[i]
    size_t tail = 0;               ///< its trailing guard: the guard, and up to the next image
    bool in_block = false;         ///< one of the case's shared buffer (commit())
    size_t view = 0;               ///< in_block: its sub-buffer, block_views_.handedOut(view)
    SubBuffers views;              ///< of its pooled buffer (not in the shared one)
  };
  bool whole(const Entry& e) const;  ///< small enough to travel whole
  // add()'s steps: a small buffer into the shared buffer; another's initial image, creation and
  // initial writes.
  size_t addToShared(Entry e, const HostBuffer& hb, size_t unit);
  std::vector<uint8_t> initialImage(const Entry& e, const HostBuffer& hb) const;
  cl::Buffer createWhole(Entry& e, std::vector<uint8_t>& image, cl_mem_flags access,
                         bool write_contents);
  void writeInitial(Entry& e, cl::Buffer& whole, std::vector<uint8_t>& image, const HostBuffer& hb,
                    bool inParts, bool write_contents);
  void enqueueGuardRead(size_t i);  ///< reads buffer i's guards into `fetched`, not blocking
  cl::Context& context_;
  cl::CommandQueue& queue_;
  size_t guard_;
  size_t align_;        ///< the shared buffer's image stride without guards (0: none)
  ImageBytes pattern_;  ///< this case's guard pattern, twice (random: see memory.cpp)
  BufferMode default_mode_ = BufferMode::write;
  std::vector<Entry> entries_;
  std::vector<cl::Buffer> whole_;  ///< with guards (none for one in the shared buffer)
  std::vector<cl::Buffer> views_;  ///< what kernels see (arg(): in the shared buffer elsewhere)
  bool pending_ = false;           ///< a non-blocking read not waited for yet
  BufferPool* pool_ = nullptr;
  bool committed_ = true;        ///< no add() waits for commit()
  bool prepared_ = true;         ///< no add() waits for prepare()
  cl::Buffer block_;             ///< the small buffers' shared one (commit())
  size_t block_pooled_ = 0;      ///< its capacity
  SubBuffers block_views_;       ///< its sub-buffers, kept with it in the pool
  ImageBytes block_host_;        ///< its image as written, then as read back
  bool block_fetching_ = false;  ///< a read of it is enqueued for the next check
  bool block_unsynced_ = false;  ///< commands on it from block_host_ may still be queued
};

/// A case's guard pattern of `bytes` bytes: random, and different at every byte from the last
/// call's on this thread (by construction, not by chance), so that no kernel can write what a
/// guard holds and go unseen, and a byte written equal to the pattern by chance (1 in 256) is not
/// missed again in the next case.
void guardPattern(uint8_t* out, size_t bytes);

/// The guard size for a device: a multiple of its base-address alignment, at least 1 KiB.
size_t guardBytesFor(const cl::Device& device);

}  // namespace clh
