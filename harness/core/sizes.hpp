// Size parameters: rapidcheck generators that shrink, constraints, and the "N=17,TS=4" syntax
// that replays one case.
#pragma once

#include <rapidcheck.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/expr.hpp"
#include "core/hostbuffer.hpp"
#include "core/spec.hpp"

namespace clh {

/// The names of a spec's parameters, in order (the variables of its expressions).
std::vector<std::string> paramNames(const Spec& spec);

/// A generator of complete Sizes (derived parameters filled in) for `spec`, biased toward awkward
/// values (bounds, 1, primes, non-multiples) and shrinking toward small ones. `simulator` selects
/// each parameter's `simulator:` range. Cases that break `constraints` are discarded by the caller.
rc::Gen<Sizes> sizesGen(const Spec& spec, bool simulator);

/// Held while a generator runs outside rapidcheck's own property runner, in a process with
/// threads: rapidcheck keeps the state of `gen::exec` (its implicit parameters) in globals, and two
/// threads drawing at once corrupted the heap (a grading parent's sanitized plans, one per
/// submission, on 16 cores).
std::mutex& generatorLock();

/// Fills in derived (`value:`) parameters in declaration order.
void completeDerived(const Spec& spec, ExprEnv& env, Sizes& sizes);

/// Whether the sizes lie in the spec's domain: ranges, one_of, multiple_of, constraints.
/// On false, `why` says which rule failed.
bool inDomain(const Spec& spec, ExprEnv& env, const Sizes& sizes, bool simulator, std::string* why);

/// Whether every case a simulator can draw launches exactly one work-item in each launch: each
/// global size uses only parameters whose simulator domain is one value, and is 1 there. False
/// whenever that cannot be told without drawing (a range, several one_of values).
bool oneWorkItemOnSimulator(const Spec& spec);

/// The spec's `flops` at the largest sizes a simulator may draw (each range's upper end, the
/// largest one_of value, formulas from those); 0 without `flops` or where it cannot be evaluated.
/// An estimate of a simulator unit's longest case, for ordering work: not a domain point.
double flopsOfLargestSimulatorCase(const Spec& spec);

/// "N=17,TS=4" -> {N:17, TS:4}. Throws std::invalid_argument with a message.
Sizes parseSizes(const std::string& text);
/// {N:17, TS:4} -> "N=17,TS=4" (map order).
std::string formatSizes(const Sizes& sizes);
/// formatSizes(sizes) appended to `out`.
void appendSizes(std::string& out, const Sizes& sizes);

/// A 64-bit FNV-1a hash, for deriving seeds from names and sizes.
uint64_t hash64(const std::string& text, uint64_t seed = 0);
/// The hash continued over `text`: hash64(a + b, seed) == hash64Append(hash64(a, seed), b).
uint64_t hash64Append(uint64_t hash, std::string_view text);
/// The hash continued over formatSizes(sizes), without making the text.
uint64_t hash64AppendSizes(uint64_t hash, const Sizes& sizes);

}  // namespace clh
