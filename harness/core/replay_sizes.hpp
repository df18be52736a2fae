// The sizes of a replay (`--sizes N=17,TS=4`) checked against the spec they replay.
#pragma once

#include <string>

#include "core/hostbuffer.hpp"  // Sizes
#include "core/spec.hpp"

namespace clh {

/// A replay's sizes for `spec`: parseSizes, then every name must be one of the spec's parameters
/// and every parameter that is not derived (`value:`) must be given (a typo or a name left out
/// would otherwise run a case the spec cannot evaluate: a tool error, not a usage error). Throws
/// std::invalid_argument naming the unknown name or the missing ones, and the spec file.
Sizes parseSizesFor(const Spec& spec, const std::string& text);

}  // namespace clh
