// Host-side buffers: typed element storage shared by the runner, the references and the comparator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/spec.hpp"

/// On a function that loops over a case's elements (a reference, the poisoning of outputs): GCC's
/// full vectorization cost model there, as at -O3. At -O2 GCC 12 vectorizes only loops that need
/// no run-time check, which leaves a reference's c[i] = a[i] + b[i] scalar. No floating-point
/// operation is reordered. An attribute, not a flag, so that clang's tools read the build's
/// compile commands (clang knows no -fvect-cost-model).
#if defined(__GNUC__) && !defined(__clang__)
#define CLH_VECTORIZE __attribute__((optimize("vect-cost-model=dynamic")))
#else
#define CLH_VECTORIZE
#endif

namespace clh {

/// Size parameters of one case: name -> value. Ordered, so printing is stable.
using Sizes = std::map<std::string, int64_t>;

namespace detail {
/// Uninitialised storage of at least `words` words; `capacity` gets its size. A large block
/// (256 KiB or more) freed by an earlier buffer is handed out again when one fits (at most twice
/// the size): a case's megabytes then come without new pages, which the system zeroes and
/// faults in one by one (at 2^20 elements, several milliseconds a case on a virtual machine).
uint64_t* takeStorage(size_t words, size_t* capacity);
/// Gives back what takeStorage handed out: kept for a later take (a bounded number and amount),
/// or freed.
void giveStorage(uint64_t* p, size_t capacity);
struct GiveStorage {
  size_t capacity = 0;
  void operator()(uint64_t* p) const { giveStorage(p, capacity); }
};
inline std::unique_ptr<uint64_t[], GiveStorage> storage(size_t words) {
  size_t capacity = 0;
  uint64_t* p = takeStorage(words, &capacity);
  return std::unique_ptr<uint64_t[], GiveStorage>(p, GiveStorage{capacity});
}
}  // namespace detail

/// A typed, contiguous host array. Raw bytes are kept aligned for any element type.
class HostBuffer {
 public:
  HostBuffer() = default;
  /// Uninitialised storage: every user fills it (inputs, poison, a read from the device).
  HostBuffer(ElemType type, size_t count)
      : type_(type), count_(count), storage_(detail::storage((count * sizeOf(type) + 7) / 8 + 1)) {}
  HostBuffer(const HostBuffer& o) : HostBuffer(o.type_, o.count_) {
    std::memcpy(data(), o.data(), bytes());
  }
  HostBuffer& operator=(const HostBuffer& o) {
    if (this != &o) *this = HostBuffer(o);
    return *this;
  }
  HostBuffer(HostBuffer&&) noexcept = default;
  HostBuffer& operator=(HostBuffer&&) noexcept = default;
  ElemType type() const { return type_; }
  size_t count() const { return count_; }
  size_t bytes() const { return count_ * sizeOf(type_); }
  void* data() { return storage_.get(); }
  const void* data() const { return storage_.get(); }

  template <class T>
  std::span<T> as() {
    check<T>();
    return {reinterpret_cast<T*>(storage_.get()), count_};
  }
  template <class T>
  std::span<const T> as() const {
    check<T>();
    return {reinterpret_cast<const T*>(storage_.get()), count_};
  }

 private:
  template <class T>
  void check() const {
    constexpr ElemType want = elemTypeOf<T>();
    if (want != type_)
      throw std::logic_error("host buffer holds " + toString(type_) + ", accessed as " +
                             toString(want));
  }
  ElemType type_ = ElemType::f32;
  size_t count_ = 0;
  std::unique_ptr<uint64_t[], detail::GiveStorage> storage_;
};

}  // namespace clh
