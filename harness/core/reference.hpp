// References: plain scalar C++ functions, free of OpenCL, registered by name. A spec names one in
// `reference:`; the runner calls it with the case's sizes and its buffers, inputs already filled.
#pragma once

#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/hostbuffer.hpp"

namespace clh {

/// What a reference sees of one case: the sizes, the named scalar arguments and every buffer.
/// Inputs hold the values the kernel was given; a reference writes the expected final contents
/// of the `out` and `inout` buffers (an `inout` buffer starts with its initial contents).
class RefCase {
 public:
  RefCase(const Sizes& sizes, const std::map<std::string, double>& scalars,
          std::map<std::string, HostBuffer>& buffers)
      : sizes_(sizes), scalars_(scalars), buffers_(buffers) {}

  /// A size parameter, e.g. size("N"). Throws std::out_of_range naming it if absent.
  int64_t size(const std::string& name) const;
  /// A named scalar argument's value (spec: `{scalar: float, name: step, value: ...}`).
  double scalar(const std::string& name) const;
  template <class T>
  std::span<const T> in(const std::string& name) const {
    return buffer(name).as<T>();
  }
  template <class T>
  std::span<T> out(const std::string& name) {
    return buffer(name).as<T>();
  }

 private:
  HostBuffer& buffer(const std::string& name) const;
  const Sizes& sizes_;
  const std::map<std::string, double>& scalars_;
  std::map<std::string, HostBuffer>& buffers_;
};

using ReferenceFn = std::function<void(RefCase&)>;

/// The process-wide registry of references. Registration happens at static-initialisation time
/// through CLH_REFERENCE; lookups happen after main starts.
class ReferenceRegistry {
 public:
  static ReferenceRegistry& instance();
  bool add(const std::string& name, ReferenceFn fn);
  const ReferenceFn* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, ReferenceFn> fns_;
};

}  // namespace clh

/// Defines and registers a reference: `CLH_REFERENCE(vadd_f32) { ... uses `c` (a RefCase&) ... }`.
#define CLH_REFERENCE(NAME)                                             \
  CLH_VECTORIZE static void clh_ref_##NAME(::clh::RefCase& c);          \
  [[maybe_unused]] static const bool clh_ref_registered_##NAME =        \
      ::clh::ReferenceRegistry::instance().add(#NAME, &clh_ref_##NAME); \
  static void clh_ref_##NAME(::clh::RefCase& c)
