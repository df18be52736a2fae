// Findings made easier to act on, from the student's own text: the memory space an out-of-bounds
// access was in, and the declaration of a variable read before it had a value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"

namespace clh::grade {

/// An out-of-bounds finding says which address space it was in: a guard zone surrounds a global
/// buffer; a simulator's finding whose wording names no space gets the one the plugin saw.
void nameAddressSpace(Finding& f);

/// A variable declared without an initial value.
struct Declaration {
  std::string name;
  int line = 0;      ///< 1-based, in the submission's text
  std::string text;  ///< that line, trimmed
};

/// The variables used on line `use_line` of `text` that are declared before it without an initial
/// value: private variables and arrays (`float sum;`, `float t[4];`), `__local` declarations, and
/// `__local` pointer parameters (memory nobody wrote before the kernel). Read from the code
/// (comments and strings ignored), nearest declaration first for a name declared twice.
std::vector<Declaration> uninitializedDeclarations(const std::string& text, int use_line);

/// An uninitialized-value finding points at the declaration as well as the use: the declarations
/// uninitializedDeclarations finds for its first line are added to its lines (named `file`) and
/// its summary. Nothing changes when none is found.
void pointAtDeclaration(Finding& f, const std::string& text, const std::string& file);

}  // namespace clh::grade
