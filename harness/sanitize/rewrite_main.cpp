// clharness-rewrite: the sanitizer's rewrite in a process of its own, so that clang 15's
// libraries never share the tool's process with a simulator built on another LLVM (Oclgrind's 14).
//   clharness-rewrite IN.cl SHOWN_NAME KERNEL BUILD_OPTIONS OUT.json
#include <fstream>
#include <iostream>
#include <iterator>

#include "sanitize/json.hpp"
#include "sanitize/rewrite.hpp"

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: clharness-rewrite IN.cl SHOWN_NAME KERNEL BUILD_OPTIONS OUT.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  clh::sanitize::Instrumented r;
  if (!in)
    r.error = std::string("cannot read ") + argv[1];
  else
    r = clh::sanitize::instrument(text, argv[2], argv[3], argv[4]);
  std::ofstream out(argv[5]);
  out << nlohmann::json(r).dump();
  return out ? 0 : 1;
}
