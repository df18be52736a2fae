// The reference registry and what a reference sees of a case.
#include "core/reference.hpp"

#include <stdexcept>

namespace clh {

int64_t RefCase::size(const std::string& name) const {
  auto it = sizes_.find(name);
  if (it == sizes_.end())
    throw std::out_of_range("reference asked for unknown size parameter '" + name + "'");
  return it->second;
}

double RefCase::scalar(const std::string& name) const {
  auto it = scalars_.find(name);
  if (it == scalars_.end())
    throw std::out_of_range("reference asked for unknown scalar argument '" + name + "'");
  return it->second;
}

HostBuffer& RefCase::buffer(const std::string& name) const {
  auto it = buffers_.find(name);
  if (it == buffers_.end())
    throw std::out_of_range("reference asked for unknown buffer '" + name + "'");
  return it->second;
}

ReferenceRegistry& ReferenceRegistry::instance() {
  static ReferenceRegistry registry;
  return registry;
}

bool ReferenceRegistry::add(const std::string& name, ReferenceFn fn) {
  return fns_.emplace(name, std::move(fn)).second;
}

const ReferenceFn* ReferenceRegistry::find(const std::string& name) const {
  auto it = fns_.find(name);
  return it == fns_.end() ? nullptr : &it->second;
}

std::vector<std::string> ReferenceRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, fn] : fns_) out.push_back(name);
  return out;
}

}  // namespace clh
