// Oclgrind's `.sim` files (what `oclgrind-kernel` runs): the kernel file and name, the NDRange, the
// work-group size and one `<size=N ...>` argument each, read into values scan runs unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clh::scan {

/// One argument of a .sim: its `<...>` header and the values written after it.
struct SimArgument {
  int line = 0;     ///< the header's line in the .sim
  size_t size = 0;  ///< `size=N`: bytes (of the buffer, the __local block or the value)
  bool sized = false;
  std::string type;   ///< `char` ... `double`; empty: from the kernel's argument type
  std::string fill;   ///< `fill=V`
  std::string range;  ///< `range=START:INC:END`
  bool dump = false, hex = false, noinit = false, null = false, ro = false, wo = false;
  std::vector<std::string> values;  ///< the values after the header, as written
  std::vector<int> value_lines;     ///< the line of each value
};

/// A parsed .sim file.
struct SimFile {
  std::string path;         ///< the .sim itself
  std::string kernel_file;  ///< the program file, resolved against the .sim's folder
  std::string kernel;
  std::vector<size_t> global, local;      ///< three sizes each, as oclgrind-kernel launches them
  std::string build_options;              ///< from a first line `# ARGS: --build-options OPTS`
  std::vector<std::string> ignored_args;  ///< other `# ARGS:` words (e.g. -i, the debugger)
  std::vector<SimArgument> args;
};

/// Reads a .sim file with oclgrind-kernel's grammar (src/kernel/Simulation.cpp): whitespace-
/// separated tokens, `#` comments, `<...>` headers that end at the last `>` of their line.
/// Throws ScanUsageError ("FILE:LINE: ...") for what oclgrind-kernel would refuse.
SimFile parseSimFile(const std::string& path);

/// The size in bytes of an element type a .sim names (`char` 1 ... `double` 8), 0 if unknown.
size_t simTypeSize(const std::string& type);

/// The type oclgrind-kernel gives an argument with no type in its header, from the kernel's
/// argument type name ("float*" -> "float", "void*" -> "uchar"); empty when it has none.
std::string simDefaultType(const std::string& arg_type_name);

/// The bytes of an argument's value or initial contents, as oclgrind-kernel makes them from
/// `fill`, `range` or the values (`type` is the header's or simDefaultType's). Throws
/// ScanUsageError naming the .sim's line.
std::vector<uint8_t> simArgumentBytes(const SimArgument& arg, const std::string& type,
                                      const std::string& sim_path, const std::string& name);

}  // namespace clh::scan
