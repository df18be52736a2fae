// The kernel spec: a declarative description of one kernel (or a chain of launches) read from YAML.
// docs/spec.md documents every field; this header is its in-memory form. Free of OpenCL.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/elem_type.hpp"
#include "core/finding.hpp"
#include "core/modes.hpp"

namespace clh {

/// Thrown for a spec that cannot be used: the message reads "FILE:LINE: field: what is wrong".
class SpecError : public std::runtime_error {
 public:
  SpecError(std::string file, int line, const std::string& message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

/// An expression over size parameters ("N*N", "TS", "1e-6*K"), kept with where it was written.
struct Expr {
  std::string text;
  int line = 0;
};

/// A size parameter's domain. Exactly one of range / one_of / value is set.
struct ParamSpec {
  std::string name;
  int line = 0;
  std::optional<std::pair<Expr, Expr>> range;  ///< inclusive [lo, hi]
  std::vector<int64_t> one_of;
  std::optional<Expr> value;                       ///< derived: computed from earlier params
  std::optional<Expr> multiple_of;                 ///< with range: the value is a multiple
  std::optional<std::pair<Expr, Expr>> sim_range;  ///< range used on simulators (budget)
};

/// How a buffer is filled before the first launch.
struct InitSpec {
  /// `bytes`: `bytes` as given (zero past their end); `none`: the buffer is left uninitialized
  /// on the device (never written: the simulator sees every read of it as uninitialized).
  enum class Kind { zero, constant, uniform, iota, poison, bytes, none } kind = Kind::zero;
  double a = 0, b = 0;           ///< constant value, or uniform bounds (inclusive for integers)
  std::string text;              ///< as written, for messages
  std::vector<uint8_t> bytes{};  ///< Kind::bytes
};

/// How an output is compared with the reference.
struct CompareSpec {
  enum class Kind { exact, ulp, tolerance } kind = Kind::exact;
  int64_t ulp = 0;
  Expr abs{"0", 0};  ///< |got - want| <= abs + rel * |want|
  Expr rel{"0", 0};
};

enum class Role { in, out, inout, scratch };

struct BufferSpec {
  std::string name;
  int line = 0;
  ElemType type = ElemType::f32;
  Expr count;               ///< number of elements
  std::vector<Expr> shape;  ///< optional row-major shape for reporting indices; product == count
  Role role = Role::in;
  InitSpec init;
  CompareSpec compare;
  std::optional<BufferMode> memory;  ///< this buffer's flags, whatever the run's mode
  /// CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY: what the kernel may do with it (scan sets it for a
  /// .sim's `ro` / `wo`; the simulator reports an access against it as `access_mode`).
  enum class Access { read_write, read_only, write_only } access = Access::read_write;
};

/// One kernel argument: a named buffer, a scalar, a dynamic __local allocation, a value given as
/// bytes (a struct or vector passed by value), a NULL buffer, an image (RGBA float pixels from
/// `bytes`, `image_size` wide, high and deep) or a sampler (unnormalized coordinates, clamp to
/// edge, nearest). `bytes`, `null`, `image` and `sampler` are made by programs (scan), not by the
/// YAML loader.
struct ArgSpec {
  enum class Kind { buffer, scalar, local, bytes, null, image, sampler } kind = Kind::buffer;
  int line = 0;
  std::string buffer;  ///< buffer name (Kind::buffer)
  std::string name;    ///< optional name of a scalar (references read it by this name)
  ElemType type = ElemType::i32;
  Expr value;                    ///< scalar value, or __local element count
  std::vector<uint8_t> bytes{};  ///< Kind::bytes: the argument's value as clSetKernelArg takes it;
                                 ///< Kind::image: its pixels, 4 floats each, row after row
  std::vector<size_t> image_size{};  ///< Kind::image: width, height (2-D) and depth (3-D)
};

struct LaunchSpec {
  int line = 0;
  std::string kernel;
  std::vector<ArgSpec> args;
  std::vector<Expr> global;
  std::vector<Expr> local;  ///< empty: NULL local size (the driver chooses)
  std::vector<Expr> offset;
};

/// What a spec says must be found (an "as published" bug); the check fails if it disappears.
struct ExpectSpec {
  std::vector<FindingKind> any_of;  ///< at least one finding of one of these kinds
  std::string devices;              ///< regex of devices where it applies; empty: all
  std::string reason;               ///< why, for the report
  /// Where the finding must show (a bug that rests on undefined behaviour, such as a private
  /// array overrun, may not show on every driver): "everywhere" (the default), "simulator", or a
  /// regex of devices. Elsewhere a case run that shows nothing is "not reproduced", not a failure.
  std::string certain = "everywhere";
  int line = 0;
};

/// A finding to ignore on some devices, with the reason (a simulator's known false positive).
struct SuppressSpec {
  FindingKind kind = FindingKind::other;
  std::string devices;  ///< regex of devices; empty: all
  std::string reason;
  int line = 0;
};

struct Spec {
  std::string file;  ///< the YAML file it came from
  std::string root;  ///< directory that relative paths (source) are resolved against
  std::string name;
  std::string origin;  ///< seed and section
  std::string description;
  std::string source;       ///< kernel file path as written
  std::string source_path;  ///< resolved path
  std::string reference;    ///< registered reference name
  std::vector<ParamSpec> params;
  std::vector<Expr> constraints;
  std::string build_options;  ///< may contain {EXPR}
  int build_options_line = 0;
  std::vector<BufferSpec> buffers;
  std::vector<LaunchSpec> launches;
  std::optional<ExpectSpec> expect;
  std::optional<ReadMode> read;  ///< how results come back, unless the run says otherwise
  std::vector<SuppressSpec> suppress;
  int cases = 100;            ///< random cases on a real device
  int sim_cases = 10;         ///< random cases on a simulator
  std::optional<Expr> flops;  ///< floating-point operations of one case, for GFLOP/s
  std::optional<Expr> bytes;  ///< bytes moved by one case, for GB/s
  std::map<std::string, std::string> labels;

  const BufferSpec* findBuffer(const std::string& name) const;
};

/// Reads and validates one spec; throws SpecError with file and line.
/// `repo_root` resolves `source:` paths that are not relative to the spec file itself.
Spec loadSpec(const std::string& path, const std::string& repo_root = "");

/// Collects the spec files (*.yaml, *.yml) under each path (a file or a directory, recursively),
/// sorted. Throws SpecError for a path that does not exist.
std::vector<std::string> findSpecFiles(const std::vector<std::string>& paths);

}  // namespace clh
