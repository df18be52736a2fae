// Buffer creation in every flag mode, the read modes, and guard zones.
#include "cl/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>

namespace clh {

namespace {

// A guarded buffer of at most this many bytes travels whole: its initial image (guards and
// contents) in one write, and its guards back in one read of the whole buffer, which in the
// blocking read mode also brings the results. A larger one is written and read in parts, as
// copying it would cost more than the commands saved (a command costs microseconds on PoCL and
// more on a GPU, about what copying 32 KiB does).
constexpr size_t kWholeBytes = 32 * 1024;

}  // namespace

// A base of SplitMix64 words from a random start, drawn once per thread, and a key a case that
// differs from the case before's in every byte, XORed onto every word: each byte of the pattern
// then differs from the case before's, never by chance alone, for one draw and an XOR a word
// (drawing every word cost more than the rest of the guard work together, and mixing each word
// with a multiply a third of it).
CLH_VECTORIZE void guardPattern(uint8_t* out, size_t bytes) {
  struct Source {
    uint64_t state = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    std::vector<uint64_t> base;
    uint64_t key = 0;
    uint64_t next() {
      uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    }
  };
  thread_local Source source;
  const size_t words = (bytes + 7) / 8;
  while (source.base.size() < words) source.base.push_back(source.next());
  uint64_t key = source.next();
  for (int b = 0; b < 64; b += 8)  // a byte as the last key's would leave a column as it was
    if (((key ^ source.key) >> b & 0xFF) == 0) key ^= uint64_t{0xA5} << b;
  source.key = key;
  const uint64_t* base = source.base.data();  // out of the loop: a thread_local is looked up
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    const uint64_t w = base[i / 8] ^ key;
    std::memcpy(out + i, &w, 8);
  }
  if (i < bytes) {
    const uint64_t w = base[i / 8] ^ key;
    std::memcpy(out + i, &w, bytes - i);
  }
}

size_t guardBytesFor(const cl::Device& device) {
  size_t alignBytes = device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
  size_t g = 1024;  // catches writes up to 1 KiB past either end; farther ones crash or go unseen
  if (alignBytes > 0) g = (g + alignBytes - 1) / alignBytes * alignBytes;
  return g;
}

const cl::Buffer& SubBuffers::get(cl::Buffer& parent, size_t origin, size_t size) {
  for (size_t i = 0; i < kept_.size(); ++i)
    if (kept_[i].origin == origin && kept_[i].size == size) {
      used_.push_back(std::move(kept_[i]));
      kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(i));
      return used_.back().buffer;
    }
  cl_buffer_region region{origin, size};
  used_.push_back(
      {origin, size,
       parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region)});
  return used_.back().buffer;
}

cl::Buffer BufferPool::take(cl::Context& context, size_t bytes, size_t* capacity,
                            SubBuffers* views) {
  // The smallest that fits, and at most twice the size: the tail past the guards stays short (a
  // write farther past a buffer's end than its guard goes unseen or crashes, in a new buffer too).
  size_t best = kept_.size();
  for (size_t i = 0; i < kept_.size(); ++i)
    if (kept_[i].capacity >= bytes && kept_[i].capacity / 2 <= bytes &&
        (best == kept_.size() || kept_[i].capacity < kept_[best].capacity))
      best = i;
  if (best == kept_.size()) {
    *capacity = bytes;
    return cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  }
  Kept& k = kept_[best];
  cl::Buffer out = std::move(k.buffer);
  *capacity = k.capacity;
  if (views) *views = std::move(k.views);
  bytes_ -= k.capacity;
  kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
  return out;
}

void BufferPool::give(cl::Buffer buffer, size_t capacity, SubBuffers views) {
  // A few buffers, a bounded amount of device memory: enough for the cases of a unit, whose
  // sizes vary, to find buffers large enough.
  constexpr size_t kMaxBuffers = 16, kMaxBytes = 256u << 20;
  if (kept_.size() >= kMaxBuffers || bytes_ + capacity > kMaxBytes) return;
  views.endCase();
  kept_.push_back({capacity, std::move(buffer), std::move(views)});
  bytes_ += capacity;
}

void BufferPool::clear() {
  kept_.clear();
  bytes_ = 0;
}

CaseBuffers::CaseBuffers(cl::Context& context, cl::CommandQueue& queue, size_t guard,
                         BufferPool* pool, size_t align)
    : context_(context), queue_(queue), guard_(guard), align_(align), pool_(pool) {
  if (pool_) {
    block_host_ = pool_->takeScratch(BufferPool::Scratch::image);
    pattern_ = pool_->takeScratch(BufferPool::Scratch::pattern);
  }
  pattern_.resize(2 * guard);  // no zeroing (ImageBytes): every byte is drawn
  if (guard > 0) guardPattern(pattern_.data(), pattern_.size());
}

CaseBuffers::~CaseBuffers() {
  // A case that ended before its reads (a failed launch) may leave the shared buffer's write from
  // block_host_ on the queue: it must be done before that memory goes.
  if (block_unsynced_) {
    try {
      queue_.finish();
    } catch (const cl::Error&) {
    }
  }
  if (!pool_) return;
  views_.clear();  // a pooled buffer keeps only the sub-buffers its SubBuffers hold
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].pooled)
      pool_->give(std::move(whole_[i]), entries_[i].pooled, std::move(entries_[i].views));
  whole_.clear();
  if (block_pooled_) pool_->give(std::move(block_), block_pooled_, std::move(block_views_));
  pool_->giveScratch(BufferPool::Scratch::image, std::move(block_host_));
  pool_->giveScratch(BufferPool::Scratch::pattern, std::move(pattern_));
}

const cl::Buffer& CaseBuffers::arg(size_t i) const {
  if (entries_[i].in_block && !prepared_)
    throw std::logic_error("CaseBuffers::arg before prepare() or commit()");
  return entries_[i].in_block ? block_views_.handedOut(entries_[i].view) : views_[i];
}

void CaseBuffers::prepare() {
  if (prepared_) return;
  prepared_ = true;
  // One pooled buffer and a sub-buffer per buffer inside its guards, made before any command is
  // on the queue (see memory.hpp).
  block_ = pool_->take(context_, block_host_.size(), &block_pooled_, &block_views_);
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (!entries_[i].in_block) continue;
    block_views_.get(block_, entries_[i].offset + guard_, entries_[i].body);
    entries_[i].view = block_views_.handedOut() - 1;  // no copy: a copy is a retain and a release
  }
  block_views_.dropUnused();
}

void CaseBuffers::commit() {
  if (committed_) return;
  prepare();
  committed_ = true;
  // One write of the whole image (guards and contents).
  queue_.enqueueWriteBuffer(block_, CL_FALSE, 0, block_host_.size(), block_host_.data());
  block_unsynced_ = true;
}

size_t CaseBuffers::add(const std::string& name, const HostBuffer& hb, BufferMode mode_,
                        bool write_contents, cl_mem_flags access) {
  if (!write_contents) mode_ = BufferMode::write;
  Entry e;
  e.name = name;
  e.mode = mode_;
  e.bytes = hb.bytes();
  // Size 0 is illegal for clCreateBuffer: a buffer of no elements still gets one element.
  e.body = std::max<size_t>(e.bytes, sizeOf(hb.type()));
  e.element = sizeOf(hb.type());
  e.tail = guard_;
  // A small buffer of a case with a pool waits for commit(), which places it in the case's shared
  // buffer (addToShared).
  const size_t unit = guard_ > 0 ? guard_ : align_;
  if (mode_ == BufferMode::write && unit > 0 && pool_ && write_contents &&
      access == CL_MEM_READ_WRITE && e.body <= kWholeBytes)
    return addToShared(std::move(e), hb, unit);
  // The initial image: guard pattern, contents, guard pattern. A large buffer in the write mode
  // needs none: its guards and contents are written from where they are.
  const bool inParts =
      mode_ == BufferMode::write && guard_ > 0 && (e.body > kWholeBytes || !write_contents);
  std::vector<uint8_t> image;
  if ((guard_ > 0 && !inParts) || mode_ != BufferMode::write) image = initialImage(e, hb);
  cl::Buffer whole = createWhole(e, image, access, write_contents);
  writeInitial(e, whole, image, hb, inParts, write_contents);
  cl::Buffer view = whole;
  // Inside guards, or inside a larger pooled buffer: the kernel gets a buffer of its own size.
  if (e.pooled && (guard_ > 0 || e.pooled != e.body + 2 * guard_)) {
    view = e.views.get(whole, guard_, e.body);
    e.views.dropUnused();
  } else if (guard_ > 0) {
    cl_buffer_region region{guard_, e.body};
    view = whole.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  }
  whole_.push_back(whole);
  views_.push_back(view);
  entries_.push_back(std::move(e));
  return entries_.size() - 1;
}

// Its image in the case's shared buffer is its leading guard, its contents and a trailing guard
// that reaches the next image's start (a multiple of the guard size, so of the device's alignment,
// as a sub-buffer's origin must be). Its guards are its own: a write up to a guard's size past
// either end lands in them, as in a buffer of its own. Without guards the image is its contents,
// padded with zeros to the next multiple of `align_`: one write and one buffer a case either way.
size_t CaseBuffers::addToShared(Entry e, const HostBuffer& hb, size_t unit) {
  const size_t body = e.body;
  e.in_block = true;
  e.offset = block_host_.size();
  const size_t next = (e.offset + 2 * guard_ + body + unit - 1) / unit * unit;
  e.tail = next - (e.offset + guard_ + body);
  if (block_host_.capacity() < next) block_host_.reserve(std::max(next, 4 * next / 3 + 4 * unit));
  block_host_.resize(next);
  uint8_t* image = block_host_.data() + e.offset;
  if (guard_ > 0) std::memcpy(image, pattern_.data(), guard_);
  std::memcpy(image + guard_, hb.data(), e.bytes);
  std::memset(image + guard_ + e.bytes, 0, body - e.bytes);
  if (guard_ > 0)
    std::memcpy(image + guard_ + body, pattern_.data(), e.tail);
  else
    std::memset(image + body, 0, e.tail);  // the image grew without zeroing (ImageBytes)
  committed_ = false;
  prepared_ = false;
  whole_.emplace_back();
  views_.emplace_back();
  entries_.push_back(std::move(e));
  return entries_.size() - 1;
}

// Guard pattern, contents (zeros after them up to the body), guard pattern.
std::vector<uint8_t> CaseBuffers::initialImage(const Entry& e, const HostBuffer& hb) const {
  std::vector<uint8_t> image(e.body + 2 * guard_, 0);
  if (guard_ > 0) {
    std::memcpy(image.data(), pattern_.data(), guard_);
    std::memcpy(image.data() + guard_ + e.body, pattern_.data(), guard_);
  }
  std::memcpy(image.data() + guard_, hb.data(), e.bytes);
  return image;
}

// The buffer with its guards, with the flags of its mode (from the pool for a write-mode buffer
// the kernel may write); a USE_HOST_PTR buffer keeps `image` as its host storage.
cl::Buffer CaseBuffers::createWhole(Entry& e, std::vector<uint8_t>& image, cl_mem_flags access,
                                    bool write_contents) {
  const size_t total = e.body + 2 * guard_;
  cl_mem_flags flags = access;
  void* hostPtr = nullptr;
  switch (e.mode) {
    case BufferMode::write:
      break;
    case BufferMode::copy_host_ptr:
      flags |= CL_MEM_COPY_HOST_PTR;
      hostPtr = image.data();
      break;
    case BufferMode::use_host_ptr:
      flags |= CL_MEM_USE_HOST_PTR;
      e.host = std::move(image);
      hostPtr = e.host.data();
      break;
    case BufferMode::alloc_host_ptr:
      flags |= CL_MEM_ALLOC_HOST_PTR;
      break;
    case BufferMode::alloc_copy_host_ptr:
      flags |= CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
      hostPtr = image.data();
      break;
  }
  return e.mode == BufferMode::write && pool_ && write_contents && access == CL_MEM_READ_WRITE
             ? pool_->take(context_, total, &e.pooled, &e.views)
             : cl::Buffer(context_, flags, total, hostPtr);
}

// The initial contents and guards, for the modes whose flags did not copy them: in the write mode
// in parts, whole or unguarded; in ALLOC_HOST_PTR through a map.
void CaseBuffers::writeInitial(Entry& e, cl::Buffer& whole, std::vector<uint8_t>& image,
                               const HostBuffer& hb, bool inParts, bool write_contents) {
  const size_t total = e.body + 2 * guard_;
  if (e.mode == BufferMode::write) {
    if (inParts) {  // body == bytes here; `hb` outlives the writes as in the unguarded case below
      queue_.enqueueWriteBuffer(whole, CL_FALSE, 0, guard_, pattern_.data());
      if (write_contents) queue_.enqueueWriteBuffer(whole, CL_FALSE, guard_, e.bytes, hb.data());
      queue_.enqueueWriteBuffer(whole, CL_FALSE, guard_ + e.body, guard_, pattern_.data());
    } else if (guard_ > 0) {
      e.host = std::move(image);  // kept alive until the case ends: the write does not block
      queue_.enqueueWriteBuffer(whole, CL_FALSE, 0, total, e.host.data());
    } else if (e.bytes && write_contents)
      queue_.enqueueWriteBuffer(whole, CL_FALSE, 0, e.bytes, hb.data());
  } else if (e.mode == BufferMode::alloc_host_ptr) {
    void* p = queue_.enqueueMapBuffer(whole, CL_TRUE, CL_MAP_WRITE, 0, total);
    std::memcpy(p, image.data(), total);
    queue_.enqueueUnmapMemObject(whole, p);
  }
}

void CaseBuffers::read(size_t i, HostBuffer& out, ReadMode mode) {
  commit();  // a case of no launch reads what it wrote
  const size_t bytes = entries_[i].bytes;
  if (!bytes) return;
  const cl::Buffer& b = entries_[i].in_block ? block_ : whole_[i];
  const size_t at = entries_[i].offset + guard_;
  if (mode == ReadMode::host_pointer) {
    if (entries_[i].mode == BufferMode::use_host_ptr) {
      queue_.finish();
      std::memcpy(out.data(), entries_[i].host.data() + guard_, bytes);
      return;
    }
    mode = ReadMode::blocking;
  }
  switch (mode) {
    case ReadMode::blocking:
      queue_.enqueueReadBuffer(b, CL_TRUE, at, bytes, out.data());
      break;
    case ReadMode::nonblocking_wait: {
      cl::Event ev;
      queue_.enqueueReadBuffer(b, CL_FALSE, at, bytes, out.data(), nullptr, &ev);
      cl::WaitForEvents({ev});
      break;
    }
    case ReadMode::nonblocking_finish:
      queue_.enqueueReadBuffer(b, CL_FALSE, at, bytes, out.data());
      queue_.finish();
      break;
    case ReadMode::map: {
      void* p = queue_.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, at, bytes);
      std::memcpy(out.data(), p, bytes);
      queue_.enqueueUnmapMemObject(b, p);
      queue_.finish();  // the copy above is done; the unmap must be too before the buffer goes
      break;
    }
    case ReadMode::host_pointer:
      break;  // handled above
  }
  // Every mode waited for this read, so for every command before it on the in-order queue: the
  // shared buffer's write from block_host_ among them (no finish needed when the case ends).
  if (entries_[i].in_block) block_unsynced_ = false;
}

bool CaseBuffers::whole(const Entry& e) const {
  return e.body <= kWholeBytes;
}

void CaseBuffers::enqueueGuardRead(size_t i) {
  Entry& e = entries_[i];
  if (e.in_block) {  // the whole shared buffer, once for all its buffers
    if (!block_fetching_) {
      queue_.enqueueReadBuffer(block_, CL_FALSE, 0, block_host_.size(), block_host_.data());
      block_fetching_ = true;
      pending_ = true;
    }
    e.has_fetched = true;
    return;
  }
  e.fetched_whole = whole(e);
  if (e.fetched_whole) {
    e.fetched.resize(e.body + 2 * guard_);
    queue_.enqueueReadBuffer(whole_[i], CL_FALSE, 0, e.fetched.size(), e.fetched.data());
  } else {
    e.fetched.resize(2 * guard_);
    queue_.enqueueReadBuffer(whole_[i], CL_FALSE, 0, guard_, e.fetched.data());
    queue_.enqueueReadBuffer(whole_[i], CL_FALSE, guard_ + e.body, guard_,
                             e.fetched.data() + guard_);
  }
  e.has_fetched = true;
  pending_ = true;
}

std::vector<Finding> CaseBuffers::readResults(
    const std::vector<std::pair<size_t, HostBuffer*>>& results, ReadMode mode) {
  commit();
  if (guard_ == 0 || mode != ReadMode::blocking) {
    for (const auto& [i, out] : results) read(i, *out, mode);
    return checkGuards();
  }
  // The guards of the other buffers first, without blocking: the blocking reads of the results
  // come after them on the in-order queue, so one wait covers all.
  std::vector<bool> isResult(entries_.size(), false);
  for (const auto& r : results) isResult[r.first] = true;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (!isResult[i] && !entries_[i].in_block) enqueueGuardRead(i);
  for (const auto& [i, out] : results) {
    Entry& e = entries_[i];
    if (e.in_block) continue;  // below
    if (!e.bytes || !whole(e)) {
      enqueueGuardRead(i);
      if (e.bytes) {
        queue_.enqueueReadBuffer(whole_[i], CL_TRUE, guard_, e.bytes, out->data());
        pending_ = false;
      }
      continue;
    }
    // A small buffer whole, in one blocking read: its guards come with its contents.
    e.fetched.resize(e.body + 2 * guard_);
    queue_.enqueueReadBuffer(whole_[i], CL_TRUE, 0, e.fetched.size(), e.fetched.data());
    pending_ = false;
    std::memcpy(out->data(), e.fetched.data() + guard_, e.bytes);
    e.fetched_whole = true;
    e.has_fetched = true;
  }
  // The shared buffer last and whole, in one blocking read: every guard in it and its results.
  if (!block_host_.empty()) {
    queue_.enqueueReadBuffer(block_, CL_TRUE, 0, block_host_.size(), block_host_.data());
    pending_ = false;
    block_unsynced_ = false;
    block_fetching_ = true;
    for (auto& e : entries_)
      if (e.in_block) e.has_fetched = true;
    for (const auto& [i, out] : results)
      if (entries_[i].in_block)
        std::memcpy(out->data(), block_host_.data() + entries_[i].offset + guard_,
                    entries_[i].bytes);
  }
  return checkGuards();
}

std::vector<Finding> CaseBuffers::checkGuards() {
  std::vector<Finding> out;
  if (guard_ == 0) return out;
  commit();
  // Every guard not read yet is read without blocking, then one finish: a wait per read costs
  // more than the reads themselves at small sizes.
  for (size_t i = 0; i < entries_.size(); ++i)
    if (!entries_[i].has_fetched) enqueueGuardRead(i);
  if (pending_) queue_.finish();
  pending_ = false;
  if (block_fetching_) block_unsynced_ = false;
  block_fetching_ = false;
  for (size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    e.has_fetched = false;  // the next check reads afresh
    const uint8_t* before = e.in_block ? block_host_.data() + e.offset : e.fetched.data();
    const uint8_t* after = before + (e.in_block || e.fetched_whole ? guard_ + e.body : guard_);
    // Only the guard bytes are compared (memcmp first: the usual case is no change).
    auto firstBad = [this](const uint8_t* g, size_t len, bool fromEnd) -> std::optional<size_t> {
      if (std::memcmp(g, pattern_.data(), len) == 0) return std::nullopt;
      for (size_t k = 0; k < len; ++k) {
        size_t at = fromEnd ? len - 1 - k : k;
        if (g[at] != pattern_[at]) return at;
      }
      return std::nullopt;
    };
    auto lo = firstBad(before, guard_, true);  // the changed byte nearest the buffer's start
    auto hi = firstBad(after, e.tail, false);  // the changed byte nearest the buffer's end
    if (!lo && !hi) continue;
    // Kernels write whole elements: a changed byte is reported as the first byte of its element
    // (a written byte that happened to equal the pattern does not move the report).
    const size_t el = std::max<size_t>(entries_[i].element, 1);
    const size_t pad = entries_[i].body - entries_[i].bytes;  // a buffer of no elements has one
    Finding f;
    f.kind = FindingKind::out_of_bounds;
    std::string where;
    if (lo) {
      const size_t back = (guard_ - *lo + el - 1) / el * el;
      where = fmt::format("{} bytes before its start (element -{})", back, back / el);
    }
    if (hi) {
      const size_t past = (*hi + pad) / el * el;
      where += fmt::format("{}byte {} past its end (element {})", where.empty() ? "" : " and ",
                           past, entries_[i].bytes / el + past / el);
    }
    f.summary = fmt::format("buffer '{}' was written outside its {} bytes: {} (guard zone)",
                            entries_[i].name, entries_[i].bytes, where);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace clh
