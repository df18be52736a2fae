// A replay's names against the spec's parameters (core/replay_sizes.hpp).
#include "core/replay_sizes.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/sizes.hpp"

namespace clh {

Sizes parseSizesFor(const Spec& spec, const std::string& text) {
  Sizes out = parseSizes(text);
  const std::vector<std::string> names = paramNames(spec);
  for (const auto& [name, value] : out)
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw std::invalid_argument("--sizes: '" + name + "' is not a parameter of " + spec.file +
                                  " (its parameters: " + (list.empty() ? "none" : list) + ")");
    }
  return out;
}

}  // namespace clh
