// `scan --stub-bodiless`: a body for each function a kernel's source declares, calls and never
// defines (GPUVerify's idiom for "any value"), so that the program links and runs.
#pragma once

#include <string>
#include <vector>

namespace clh::scan {

/// A function declared at file scope without a body and called: `bar` of `float* bar(float* p);`.
struct BodilessFunction {
  std::string name;
  int line = 0;             ///< the declaration's line (1-based)
  std::string declaration;  ///< its text, from the return type to the ';'
};

/// The functions `source` declares at file scope, calls and never defines, in source order.
std::vector<BodilessFunction> bodilessFunctions(const std::string& source);

/// `source` with a definition appended for each function of `functions`: its declaration with
/// every parameter named and a body that returns zero (every byte 0: 0, 0.0f, a NULL pointer, a
/// vector or struct of zeros; nothing for void). Lines of `source` keep their numbers.
std::string withStubs(const std::string& source, const std::vector<BodilessFunction>& functions);

}  // namespace clh::scan
