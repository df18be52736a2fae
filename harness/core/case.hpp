// One case resolved: every expression of a spec evaluated for concrete sizes, and the host-side
// data of the case (inputs from a seeded generator, poisoned outputs, the reference's answer).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/compare.hpp"
#include "core/expr.hpp"
#include "core/hostbuffer.hpp"
#include "core/spec.hpp"

namespace clh {

struct ResolvedArg {
  ArgSpec::Kind kind = ArgSpec::Kind::buffer;
  size_t buffer = 0;  ///< index into Spec::buffers
  ElemType type = ElemType::i32;
  double value = 0;                  ///< scalar value
  size_t local_bytes = 0;            ///< dynamic __local size
  std::vector<uint8_t> bytes{};      ///< ArgSpec::Kind::bytes, ::image (its pixels)
  std::vector<size_t> image_size{};  ///< ArgSpec::Kind::image
};

struct ResolvedLaunch {
  std::string kernel;
  std::vector<ResolvedArg> args;
  std::vector<size_t> global, local, offset;  ///< local empty: NULL
};

struct ResolvedCase {
  Sizes sizes;
  std::string build_options;
  std::vector<size_t> counts;                ///< per buffer
  std::vector<std::vector<int64_t>> shapes;  ///< per buffer (may be empty)
  std::vector<Tolerance> tolerances;         ///< per buffer
  std::vector<ResolvedLaunch> launches;
  std::map<std::string, double> scalars;  ///< named scalar arguments
  std::optional<double> flops, bytes;
};

/// Evaluates every expression of `spec` for `sizes`. Throws ExprError (with the field) when an
/// expression cannot be evaluated or gives a negative count or size.
ResolvedCase resolveCase(const Spec& spec, ExprEnv& env, const Sizes& sizes);
/// resolveCase into `rc`, whose storage (an earlier case's) is reused: what a session's cases do.
/// On an exception `rc` is left partly assigned.
void resolveCaseInto(const Spec& spec, ExprEnv& env, const Sizes& sizes, ResolvedCase& rc);

/// Fills `buf` as `init` says, from a generator seeded with `seed`: element i is the same number
/// however the work is split (a large buffer's random draws run on several threads).
void fillBuffer(HostBuffer& buf, const InitSpec& init, uint64_t seed);
/// fillBuffer with the random draws split in `slices` parts, one thread each (0 or 1: one).
void fillBufferSliced(HostBuffer& buf, const InitSpec& init, uint64_t seed, unsigned slices);

/// The seed of one buffer's data: a function of the run seed, the spec, the sizes and the buffer,
/// so `--seed S --sizes ...` replays the same inputs.
uint64_t dataSeed(uint64_t runSeed, const std::string& spec, const Sizes& sizes,
                  const std::string& buffer);

/// The host side of one case: initial buffers (inputs filled, outputs poisoned).
std::map<std::string, HostBuffer> makeInitialBuffers(const Spec& spec, const ResolvedCase& rc,
                                                     uint64_t runSeed);
/// The buffer `name` of `buffers`, of `type` and `count`: the one there when it is of that type
/// and count (its storage kept, its contents as they were), else a new uninitialised one.
HostBuffer& hostBufferIn(std::map<std::string, HostBuffer>& buffers, const std::string& name,
                         ElemType type, size_t count);
/// makeInitialBuffers into `out`, an earlier case's buffers: those of the same name, type and
/// count keep their storage (the same contents as makeInitialBuffers gives).
void makeInitialBuffersInto(const Spec& spec, const ResolvedCase& rc, uint64_t runSeed,
                            std::map<std::string, HostBuffer>& out);

}  // namespace clh
