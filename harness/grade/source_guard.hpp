// What keeps a submission to its own text: the check that refuses any preprocessor directive that
// would read another file, and the filter that keeps only the compiler's lines about the
// submission's own file (no host text in a student's feedback). docs/grading.md, "Guarantees".
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clh::grade {

/// Why `text` (a submission's source) may not be built, or nothing when it may: an `#include`,
/// `#include_next`, `#import` or `#embed` directive, or `__has_include` / `__has_embed`, anywhere
/// outside comments and string literals (line splices, trigraphs and digraphs seen through).
/// A submission is built from its own text only. The reason names the line.
std::optional<std::string> refusedSource(const std::string& text);

/// The part of a build log a student may see: the compiler's diagnostics located in `file_name`
/// (with the source excerpt and caret lines that follow them), the closing "N errors generated."
/// line, and clharness's own one-line messages ("no kernel 'x' could be created ..."). Every
/// other line (diagnostics in the driver's headers, options, anything the compiler echoed from
/// another file) is left out and counted. `log` must already name the file as `file_name`
/// (studentPaths).
std::string studentBuildLog(const std::string& log, const std::string& file_name);

/// `text` with every absolute path replaced by "<path>": what the tools said, shown to a student
/// without the grading machine's folders.
std::string withoutHostPaths(const std::string& text);

/// `text` as the compiler's directive parser sees it: line splices removed, comments replaced by
/// a space, string and character literals emptied; line k still starts at line k of `text`.
std::string codeView(const std::string& text);

/// One kernel parameter as written: its type ("global const float*") and its name.
struct Parameter {
  std::string type, name;
};

/// The parameters of kernel `kernel` in `text` (comments ignored), or nothing when no
/// `kernel`/`__kernel` function of that name is found.
std::optional<std::vector<Parameter>> kernelParameters(const std::string& text,
                                                       const std::string& kernel);

/// How a submission's parameter list differs from the assignment's (count, order, types), one
/// sentence per difference, naming the parameter; empty when they match. Qualifiers that do not
/// change how the kernel is launched (const, volatile, restrict) and the spelling of address
/// spaces and unsigned types are ignored.
std::vector<std::string> interfaceDifferences(const std::vector<Parameter>& assignment,
                                              const std::vector<Parameter>& student);

/// The techniques a rubric's `uses:` can ask for: "local_memory", "barrier", "atomics".
const std::vector<std::string>& knownTechniques();

/// The techniques `text` uses, read from its code (comments and strings ignored): `__local` /
/// `local` memory, a `barrier` / `work_group_barrier` call, an `atomic_*` / `atom_*` call.
std::set<std::string> techniquesUsed(const std::string& text);

}  // namespace clh::grade
