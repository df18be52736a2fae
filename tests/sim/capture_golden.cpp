// Regenerates the parser's golden inputs (tests/sim/data/*.jsonl) from real Oclgrind runs of the
// scenarios, one log per scenario. Not a test: run `capture_oclgrind_golden OUTPUT_DIR` by hand
// after changing the plugin, then review the diff.
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "scenarios.hpp"

namespace {

struct Capture {
  std::string name;
  std::function<void(const clh::simtest::OclgrindTarget&)> run;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " OUTPUT_DIR\n";
    return 2;
  }
  namespace fs = std::filesystem;
  using namespace clh::simtest;
  const fs::path out = argv[1];
  fs::create_directories(out);

  const std::vector<Capture> captures = {
      {"race_local_read_write", [](const OclgrindTarget& t) { runTiledMatmul(t, 4, 2, true); }},
      {"correct_tiled_matmul", [](const OclgrindTarget& t) { runTiledMatmul(t, 4, 2, false); }},
      {"race_local_write_write",
       [](const OclgrindTarget& t) {
         runOneBufferKernel(t, "write_write.cl", "last_writer", 16, 8, sizeof(int));
       }},
      {"race_global_write_write",
       [](const OclgrindTarget& t) {
         runOneBufferKernel(t, "global_race.cl", "group_writer", 32, 8, 0);
       }},
      {"out_of_bounds_write",
       [](const OclgrindTarget& t) {
         runOneBufferKernel(t, "out_of_bounds.cl", "shift_write", 16, 8, 0);
       }},
      {"uninitialized_local",
       [](const OclgrindTarget& t) {
         runOneBufferKernel(t, "uninitialized.cl", "read_unset", 16, 8, 8 * sizeof(float));
       }},
      {"barrier_divergence",
       [](const OclgrindTarget& t) {
         runOneBufferKernel(t, "divergence.cl", "half_barrier", 16, 8, 0);
       }},
      {"api_error_work_group_size", [](const OclgrindTarget& t) { enqueueBadLocalSize(t); }},
  };

  cl::Device device;
  const std::string plugin = clh::findOclgrindPlugin();
  for (const Capture& capture : captures) {
    const fs::path log = out / (capture.name + ".jsonl");
    fs::remove(log);
    // Oclgrind reads the variables when a context is made: a session and a context per capture.
    clh::OclgrindSession session(plugin, log.string());
    session.applyToProcess();
    if (!device() && !findOclgrind(device)) {
      std::cerr << "Oclgrind is not registered: nothing captured\n";
      return 1;
    }
    {
      OclgrindTarget target = makeTarget(device, session);
      capture.run(target);
    }
    std::cout << log.string() << ": " << fs::file_size(log) << " bytes\n";
  }
  return 0;
}
