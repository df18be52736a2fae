// The built clharness tool run as a user runs it, for the tests of its commands.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace clh::test {

struct ToolRun {
  int code = -1;    ///< the exit code; -1 when the tool did not exit normally
  std::string out;  ///< stdout and stderr together
};

/// Runs `ENV clharness ARGS` through /bin/sh (so ARGS may quote), stderr merged into stdout; `env`
/// ("NAME=VALUE ..." or "") goes before the tool on the command line.
inline ToolRun runToolWithEnv(const std::string& env, const std::string& args) {
  const std::string cmd =
      (env.empty() ? "" : env + " ") + std::string(CLHARNESS_TOOL) + " " + args + " 2>&1";
  ToolRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs `clharness ARGS` (see runToolWithEnv).
inline ToolRun runTool(const std::string& args) {
  return runToolWithEnv("", args);
}

}  // namespace clh::test
