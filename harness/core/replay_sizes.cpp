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
  // A parameter drawn from a range or a list has no value but the one given: one left out would
  // make a case the spec cannot evaluate. Derived ones (`value:`) are computed from the others.
  std::string missing;
  for (const auto& p : spec.params)
    if (!p.value && !out.count(p.name)) missing += (missing.empty() ? "" : ", ") + p.name;
  if (!missing.empty())
    throw std::invalid_argument(
        "--sizes: '" + text + "' leaves out " + missing + ", " +
        (missing.find(',') == std::string::npos ? "a parameter" : "parameters") + " of " +
        spec.file + " (a replay gives every parameter that has a range or a list)");
  return out;
}

}  // namespace clh
