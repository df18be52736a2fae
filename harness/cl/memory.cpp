// Buffer creation in every flag mode, the read modes, and guard zones.
#include "cl/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <random>

namespace clh {

namespace {

// The guard pattern: random bytes drawn afresh for every case from a generator seeded
// unpredictably, so that no kernel can write what the guard holds and go unseen, and a written
// byte equal to the pattern by chance (1 in 256) stays rare and does not repeat.
std::vector<uint8_t> freshPattern(size_t bytes) {
  static std::mt19937_64 gen{std::random_device{}()};
  std::vector<uint8_t> out(bytes);
  for (size_t i = 0; i < bytes; i += 8) {
    const uint64_t r = gen();
    for (size_t k = 0; k < 8 && i + k < bytes; ++k) out[i + k] = static_cast<uint8_t>(r >> (8 * k));
  }
  return out;
}

}  // namespace

size_t guardBytesFor(const cl::Device& device) {
  size_t alignBytes = device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
  size_t g = 1024;  // catches writes up to 1 KiB past either end; farther ones crash or go unseen
  if (alignBytes > 0) g = (g + alignBytes - 1) / alignBytes * alignBytes;
  return g;
}

CaseBuffers::CaseBuffers(cl::Context& context, cl::CommandQueue& queue, size_t guard)
    : context_(context), queue_(queue), guard_(guard), pattern_(freshPattern(guard)) {}

size_t CaseBuffers::add(const std::string& name, const HostBuffer& hb, BufferMode mode_) {
  Entry e;
  e.name = name;
  e.mode = mode_;
  e.bytes = hb.bytes();
  // Size 0 is illegal for clCreateBuffer: a buffer of no elements still gets one element.
  const size_t body = std::max<size_t>(e.bytes, sizeOf(hb.type()));
  e.body = body;
  e.element = sizeOf(hb.type());
  const size_t total = body + 2 * guard_;
  // The initial image: guard pattern, contents, guard pattern.
  std::vector<uint8_t> image;
  const bool needImage = guard_ > 0 || mode_ != BufferMode::write;
  if (needImage) {
    image.assign(total, 0);
    if (guard_ > 0) {
      std::memcpy(image.data(), pattern_.data(), guard_);
      std::memcpy(image.data() + guard_ + body, pattern_.data(), guard_);
    }
    std::memcpy(image.data() + guard_, hb.data(), e.bytes);
  }
  cl_mem_flags flags = CL_MEM_READ_WRITE;
  void* hostPtr = nullptr;
  switch (mode_) {
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
  cl::Buffer whole(context_, flags, total, hostPtr);
  if (mode_ == BufferMode::write) {
    if (guard_ > 0) {
      e.host = std::move(image);  // kept alive until the case ends: the write does not block
      queue_.enqueueWriteBuffer(whole, CL_FALSE, 0, total, e.host.data());
    } else if (e.bytes)
      queue_.enqueueWriteBuffer(whole, CL_FALSE, 0, e.bytes, hb.data());
  } else if (mode_ == BufferMode::alloc_host_ptr) {
    void* p = queue_.enqueueMapBuffer(whole, CL_TRUE, CL_MAP_WRITE, 0, total);
    std::memcpy(p, image.data(), total);
    queue_.enqueueUnmapMemObject(whole, p);
  }
  cl::Buffer view = whole;
  if (guard_ > 0) {
    cl_buffer_region region{guard_, body};
    view = whole.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  }
  whole_.push_back(whole);
  views_.push_back(view);
  entries_.push_back(std::move(e));
  return entries_.size() - 1;
}

void CaseBuffers::read(size_t i, HostBuffer& out, ReadMode mode) {
  const size_t bytes = entries_[i].bytes;
  if (!bytes) return;
  const cl::Buffer& b = whole_[i];
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
      queue_.enqueueReadBuffer(b, CL_TRUE, guard_, bytes, out.data());
      break;
    case ReadMode::nonblocking_wait: {
      cl::Event ev;
      queue_.enqueueReadBuffer(b, CL_FALSE, guard_, bytes, out.data(), nullptr, &ev);
      cl::WaitForEvents({ev});
      break;
    }
    case ReadMode::nonblocking_finish:
      queue_.enqueueReadBuffer(b, CL_FALSE, guard_, bytes, out.data());
      queue_.finish();
      break;
    case ReadMode::map: {
      void* p = queue_.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, guard_, bytes);
      std::memcpy(out.data(), p, bytes);
      queue_.enqueueUnmapMemObject(b, p);
      queue_.finish();  // the copy above is done; the unmap must be too before the buffer goes
      break;
    }
    case ReadMode::host_pointer:
      break;  // handled above
  }
}

std::vector<Finding> CaseBuffers::checkGuards() {
  std::vector<Finding> out;
  if (guard_ == 0) return out;
  // Every guard is read without blocking, then one finish: a wait per read costs more than the
  // reads themselves at small sizes.
  std::vector<std::vector<uint8_t>> befores(entries_.size(), std::vector<uint8_t>(guard_)),
      afters(entries_.size(), std::vector<uint8_t>(guard_));
  for (size_t i = 0; i < entries_.size(); ++i) {
    queue_.enqueueReadBuffer(whole_[i], CL_FALSE, 0, guard_, befores[i].data());
    queue_.enqueueReadBuffer(whole_[i], CL_FALSE, guard_ + entries_[i].body, guard_,
                             afters[i].data());
  }
  queue_.finish();
  for (size_t i = 0; i < entries_.size(); ++i) {
    const std::vector<uint8_t>& before = befores[i];
    const std::vector<uint8_t>& after = afters[i];
    auto firstBad = [this](const std::vector<uint8_t>& g, bool fromEnd) -> std::optional<size_t> {
      for (size_t k = 0; k < g.size(); ++k) {
        size_t at = fromEnd ? g.size() - 1 - k : k;
        if (g[at] != pattern_[at]) return at;
      }
      return std::nullopt;
    };
    auto lo = firstBad(before, true);  // the changed byte nearest the buffer's start
    auto hi = firstBad(after, false);  // the changed byte nearest the buffer's end
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
