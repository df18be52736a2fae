// `clharness scan FILE.cl --kernel NAME --global X[,Y[,Z]]`: checks a kernel that has no spec on
#include <CLI/CLI.hpp>
#include <memory>

#include "app/app.hpp"
#include "scan/command.hpp"

using namespace clh::scan;

void addScanCommand(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  auto a = std::make_shared<ScanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "scan",
      "Check a kernel that has no spec: arguments from the kernel's own argument info, random "
      "inputs, generous buffers, one launch on Oclgrind with every check on; lists each diagnostic "
      "(exit 1 when there is any)");
  cmd->add_option("file", a->file,
                  "the kernel's .cl file, or an Oclgrind .sim file (it gives the kernel, sizes and "
                  "arguments)")
      ->required();
  cmd->add_option("--kernel", a->kernel, "the kernel's name (required for a .cl file)");
  cmd->add_option("--global", a->global,
                  "global size X[,Y[,Z]] (required for a .cl file; '*' for a size left free: 2, 1 "
                  "and 3 work-groups of the local size are run)");
  cmd->add_option("--local", a->local,
                  "local size X[,Y[,Z]] (default: chosen, at most 64 work-items, then other shapes "
                  "a driver could pick; races between work-items show only inside a work-group; "
                  "over 1024 raises the simulator's OCLGRIND_MAX_WGSIZE)");
  cmd->add_option("--build-options", a->build_options,
                  "build options, e.g. --build-options='-DTS=8' (-cl-kernel-arg-info is added)");
  cmd->add_option("--arg", a->args,
                  "NAME=VALUE: a scalar argument's value (or NAME=LO..HI, a range explored at its "
                  "edges and a random value), a vector's lanes (1,2,3,4), a struct's bytes "
                  "(bytes:HEX), or a buffer's or __local argument's element count; NAME=null: a "
                  "NULL buffer; NAME=uninit:N: a buffer of N elements left uninitialized "
                  "(repeatable; default: integers get the global size X first, floats 1, buffers "
                  "4 elements per work-item and at least 1024, structs zero)");
  cmd->add_option(
      "--tries", a->tries,
      "the most launches (default 12): the defaults, then other values of scalars not "
      "fixed with --arg (0, 1, -1, the last index, a random one; within LO..HI for "
      "--arg NAME=LO..HI) and, without --local, other local sizes; 1: the defaults only");
  cmd->add_option("--max-items", a->max_items,
                  "the most work-items a launch on the simulator has (default 65536; 0: as "
                  "given): a larger grid runs with the same work-group size and fewer "
                  "work-groups, the report says which; a grid that runs past --timeout is run "
                  "again with two work-groups a dimension, then one");
  cmd->add_option("--suppress", a->suppress,
                  "KIND: drop findings of this kind, e.g. a simulator's known false positive "
                  "(repeatable; the listing counts what was dropped)");
  cmd->add_option("--device", a->device_regex,
                  std::string(clh::kDeviceOptionHelp) + "; default: oclgrind");
  cmd->add_option("--seed", a->seed, "seed of the random inputs");
  cmd->add_option("--json", a->json_path, "write the diagnostics as JSON to FILE");
  clh::secondsLimit(cmd->add_option(
      "--timeout", a->timeout_s,
      "seconds the whole scan may take (default 300), its smaller grids included; on the "
      "simulator CPU seconds of each of its worker threads, so a busy machine does not reach it. "
      "A scan that reaches it reports what it found and names the launches not run"));
  cmd->add_flag("--uniform-writes", a->uniform_writes,
                "report write-write races where the work-items store the same value too (the "
                "simulator leaves them out by default; a race is undefined behaviour whatever the "
                "values)");
  cmd->add_flag("--stub-bodiless", a->stub_bodiless,
                "give each function the kernel declares without a body and calls one that returns "
                "zero, so that it runs (a verifier's 'any value'; the listing says so); by default "
                "such a call is the kernel's build error, as no OpenCL driver links it");
  cmd->add_flag("--sanitize", a->sanitize,
                "run the kernel instrumented by the sanitizer on the device (--device, e.g. pocl) "
                "at the grid given: out-of-bounds accesses of __global buffers and __local "
                "memory (not performed), races and uninitialized reads of __local memory, races "
                "on __global memory within a work-group and across work-groups, each at its "
                "source line; the listing names what was not looked at (docs/sanitizer.md)");
  cmd->add_flag("--no-isolate", a->no_isolate,
                "run in this process (a crashing kernel ends the command)");
  auto cfg = config;
  cmd->callback([a, cfg] {
    clh::finishCommand("scan", [&] {
      return a->no_isolate ? runInProcess(cfg(), *a) : runScanCommand(cfg(), *a);
    });
  });
}
