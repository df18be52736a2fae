// The sanitizer on PoCL: the instrumented program gives the original's results on a correct
// kernel, and `clharness scan --sanitize` finds each fault of the project's own kernels with its
// kind and line, and nothing in each correct kernel.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "audit/tool_support.hpp"
#include "cl/opencl.hpp"
#include "sanitize/rewrite.hpp"
#include "sanitize/runtime.hpp"

namespace {

using clh::test::audit::lineSet;
using clh::test::audit::scanJson;
using clh::test::audit::ScanOut;

const std::string kPocl = "Portable Computing Language";

std::string kernelFile(const std::string& name) {
  return std::string(CLH_SANITIZE_KERNELS) + "/" + name;
}

// `scan FILE --kernel K ... --device pocl --sanitize --tries 1`, its one result.
ScanOut sanitized(const std::string& file, const std::string& args, const std::string& name) {
  return scanJson(kernelFile(file) + " " + args + " --device '" + kPocl + "' --sanitize --tries 1",
                  name);
}

cl::Device poclDevice() {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  for (auto& p : platforms)
    if (p.getInfo<CL_PLATFORM_NAME>().find(kPocl) != std::string::npos) {
      std::vector<cl::Device> devices;
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
      if (!devices.empty()) return devices.front();
    }
  return cl::Device();
}

// The tiled matmul at n = 64, as written or instrumented (hidden arguments after its own): C.
std::vector<float> runMatmul(const std::string& source, bool instrumented, size_t sites,
                             std::vector<uint32_t>* records) {
  const int n = 64;
  cl::Device dev = poclDevice();
  cl::Context ctx(dev);
  cl::CommandQueue q(ctx, dev);
  cl::Program program(ctx, source);
  program.build({dev}, "");
  cl::Kernel k(program, "matmul_tiled");
  std::vector<float> a(n * n), b(n * n), c(n * n, 0.0f);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& v : a) v = u(random);
  for (auto& v : b) v = u(random);
  const size_t bytes = a.size() * sizeof(float);
  cl::Buffer A(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a.data());
  cl::Buffer B(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, b.data());
  cl::Buffer C(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, c.data());
  k.setArg(0, A), k.setArg(1, B), k.setArg(2, C), k.setArg(3, n);
  // __local shadow words: two tiles; __global: the three matrices
  // (no buffer marked read-only: every one shadowed)
  std::vector<cl_ulong> sizes = {bytes, bytes, bytes, 2 * 16 * 16, 3 * bytes / 4, 0};
  std::vector<uint32_t> rec(sites * clh::sanitize::kRecordWords + 1, 0);
  cl::Buffer S(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizes.size() * 8, sizes.data());
  cl::Buffer R(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rec.size() * 4, rec.data());
  cl::Buffer D(ctx, CL_MEM_READ_WRITE, clh::sanitize::kGlobalDummyBytes);
  std::vector<uint32_t> shadow(3 * bytes / 4 * clh::sanitize::kGlobalShadowUints + 2, 0);
  cl::Buffer G(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, shadow.size() * 4, shadow.data());
  if (instrumented) {
    k.setArg(4, S), k.setArg(5, R), k.setArg(7, D), k.setArg(8, G);
    k.setArg(6, cl::Local(sizes[3] * 16 + clh::sanitize::kLocalDummyBytes));
  }
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n, n), cl::NDRange(16, 16));
  q.enqueueReadBuffer(C, CL_TRUE, 0, bytes, c.data());
  if (records) q.enqueueReadBuffer(R, CL_TRUE, 0, rec.size() * 4, rec.data()), *records = rec;
  return c;
}

TEST(PoclSanitize, TheInstrumentedTiledMatmulGivesTheOriginalsResultsAndRecordsNothing) {
  REQUIRE_DEVICE(kPocl);
  std::ifstream in(kernelFile("tiled_matmul.cl"));
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto inst = clh::sanitize::instrument(text, "tiled_matmul.cl", "matmul_tiled", "");
  ASSERT_EQ(inst.error, "");
  ASSERT_EQ(inst.sites.size(), 8u);  // the loop's branch, As, Bs and A, B, the two tile reads, C
  const std::vector<float> plain = runMatmul(text, false, 0, nullptr);
  std::vector<uint32_t> records;
  const std::vector<float> checked = runMatmul(inst.source, true, inst.sites.size(), &records);
  EXPECT_EQ(plain, checked);
  for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i], 0u) << "record word " << i;
}

// A 1-D kernel of `file` taking (in, out) floats, as written or instrumented (its hidden arguments
// after its own), at `global`/`local`: out; the records in `records` when instrumented.
std::vector<float> runInOut(const std::string& file, const std::string& kernel, size_t global,
                            size_t local, size_t in_n, size_t out_n,
                            std::vector<uint32_t>* records) {
  std::ifstream src(kernelFile(file));
  const std::string text((std::istreambuf_iterator<char>(src)), {});
  const auto inst = clh::sanitize::instrument(text, file, kernel, "");
  cl::Device dev = poclDevice();
  cl::Context ctx(dev);
  cl::CommandQueue q(ctx, dev);
  cl::Program program(ctx, records ? inst.source : text);
  program.build({dev}, "");
  cl::Kernel k(program, kernel.c_str());
  std::vector<float> in(in_n), out(out_n, -7.0f);
  for (size_t i = 0; i < in_n; ++i) in[i] = static_cast<float>(i % 97) - 40.0f;
  cl::Buffer I(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_n * 4, in.data());
  cl::Buffer O(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_n * 4, out.data());
  k.setArg(0, I), k.setArg(1, O);
  size_t lwords = 0;
  for (const auto& l : inst.locals) lwords += (l.bytes + 3) / 4;
  std::vector<cl_ulong> sizes = {in_n * 4, out_n * 4, lwords, in_n + out_n, 0};
  std::vector<uint32_t> rec(inst.sites.size() * clh::sanitize::kRecordWords + 1, 0);
  std::vector<uint32_t> shadow((in_n + out_n) * clh::sanitize::kGlobalShadowUints + 2, 0);
  cl::Buffer S(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizes.size() * 8, sizes.data());
  cl::Buffer R(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rec.size() * 4, rec.data());
  cl::Buffer D(ctx, CL_MEM_READ_WRITE, clh::sanitize::kGlobalDummyBytes);
  cl::Buffer G(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, shadow.size() * 4, shadow.data());
  if (records) {
    k.setArg(2, S), k.setArg(3, R), k.setArg(5, D), k.setArg(6, G);
    k.setArg(4,
             cl::Local(lwords * clh::sanitize::kShadowUints * 4 + clh::sanitize::kLocalDummyBytes));
  }
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(local));
  q.enqueueReadBuffer(O, CL_TRUE, 0, out_n * 4, out.data());
  if (records) q.enqueueReadBuffer(R, CL_TRUE, 0, rec.size() * 4, rec.data()), *records = rec;
  return out;
}

// The calls the runtime makes itself keep the kernel's results: async copies both ways, strided
// (the group copies element by element, wait_group_events a barrier), and vload4/vstore4.
TEST(PoclSanitize, RoutedCopiesAndVectorsGiveTheOriginalsResultsAndRecordNothing) {
  REQUIRE_DEVICE(kPocl);
  struct Case {
    const char* file;
    const char* kernel;
    size_t global, local, in, out;
  };
  const Case cases[] = {{"async_copy.cl", "reverse_slices", 256, 64, 256, 256},
                        {"async_faults.cl", "transpose_columns", 256, 64, 256, 256},
                        {"vector_past_end.cl", "shift_vectors", 64, 16, 256, 260}};
  for (const Case& c : cases) {
    const auto plain = runInOut(c.file, c.kernel, c.global, c.local, c.in, c.out, nullptr);
    std::vector<uint32_t> records;
    const auto checked = runInOut(c.file, c.kernel, c.global, c.local, c.in, c.out, &records);
    EXPECT_EQ(plain, checked) << c.kernel;
    EXPECT_NE(plain[5], -7.0f) << c.kernel;  // the kernel wrote its output
    for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i], 0u) << c.kernel << " " << i;
  }
}

// Each detector test asserts the finding's kind and line(s) on the faulty kernel; the clean
// kernels assert that nothing is found (a sanitizer that reports everything fails them).
TEST(PoclSanitizeScan, AReadPastTheEndOnlyAtAMultipleOf128IsFoundWithItsElementAndLine) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut big = sanitized("read_past_end.cl",
                                "--kernel neighbour_sum --global 1024 --local 64 --arg a=1024 "
                                "--arg out=1024 --arg n=1024",
                                "sanitize_past_end_1024");
  EXPECT_EQ(big.run.code, 1) << big.run.out;
  ASSERT_EQ(big.kinds(), std::vector<std::string>{"out_of_bounds"}) << big.run.out;
  const auto& f = *big.find("out_of_bounds");
  EXPECT_EQ(lineSet(f), std::set<int>{7}) << big.run.out;
  EXPECT_NE(f["summary"].get<std::string>().find("read of a[1024]"), std::string::npos)
      << big.run.out;
  EXPECT_EQ(f["work_items"][0], "global(1023,0,0)") << big.run.out;
  const ScanOut small = sanitized("read_past_end.cl",
                                  "--kernel neighbour_sum --global 1000 --local 8 --arg a=1000 "
                                  "--arg out=1000 --arg n=1000",
                                  "sanitize_past_end_1000");
  EXPECT_EQ(small.run.code, 0) << small.run.out;
  EXPECT_TRUE(small.kinds().empty()) << small.run.out;
}

TEST(PoclSanitizeScan, AMissingBarrierIsALocalRaceBetweenTheUpdateAndTheNeighboursRead) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r =
      sanitized("local_race.cl", "--kernel add_neighbour --global 256 --local 64", "sanitize_race");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"race"}) << r.run.out;
  EXPECT_EQ(lineSet(*r.find("race")), (std::set<int>{8, 9})) << r.run.out;
  EXPECT_EQ((*r.find("race"))["address_space"], "local");
}

TEST(PoclSanitizeScan, ARaceMadeInsideHelperFunctionsIsFoundAtTheHelpersLines) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("helper_race.cl", "--kernel shift_left --global 128 --local 64",
                              "sanitize_helper_race");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_NE(r.find("race"), nullptr) << r.run.out;
  EXPECT_EQ(lineSet(*r.find("race")), (std::set<int>{4, 7})) << r.run.out;
}

TEST(PoclSanitizeScan, ARowZeroedByOneWorkGroupAndReadByOthersIsARaceAcrossWorkGroups) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("cross_group_race.cl",
                              "--kernel zero_then_read --global 256 --local 64 --arg a=64 "
                              "--arg out=256",
                              "sanitize_cross_group");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"race"}) << r.run.out;
  const auto& f = *r.find("race");
  EXPECT_EQ(lineSet(f), (std::set<int>{6, 7})) << r.run.out;
  EXPECT_EQ(f["address_space"], "global");
  EXPECT_NE(f["summary"].get<std::string>().find("between work-groups"), std::string::npos);
}

// The same race with the write made in a helper: the buffer the write names is known only at run
// time, so no buffer is read without its shadow.
TEST(PoclSanitizeScan, ARaceAcrossWorkGroupsWrittenThroughAHelpersPointerIsFound) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("helper_cross_group.cl",
                              "--kernel zero_via_helper --global 256 --local 64 --arg a=64 "
                              "--arg out=256",
                              "sanitize_helper_cross_group");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"race"}) << r.run.out;
  EXPECT_EQ(lineSet(*r.find("race")), (std::set<int>{5, 10})) << r.run.out;
}

// __global memory within a work-group: each work-item writes its element, then reads its
// neighbour's; a race unless a barrier with CLK_GLOBAL_MEM_FENCE is between (a local fence is not
// enough); a work-item on its own elements, and atomics, are clean.
TEST(PoclSanitizeScan, AGlobalWriteReadInOneGroupWithoutAGlobalFenceIsARace) {
  REQUIRE_DEVICE(kPocl);
  struct Case {
    const char* kernel;
    std::set<int> lines;  // empty: clean
  };
  const Case cases[] = {{"neighbour_no_barrier", {5, 6}},
                        {"neighbour_global_fence", {}},
                        {"neighbour_local_fence", {19, 21}}};
  for (const Case& c : cases) {
    const ScanOut r = sanitized(
        "global_group_race.cl",
        std::string("--kernel ") + c.kernel + " --global 256 --local 64 --arg a=256 --arg out=256",
        std::string("sanitize_group_") + c.kernel);
    if (c.lines.empty()) {
      EXPECT_EQ(r.run.code, 0) << c.kernel << r.run.out;
      EXPECT_TRUE(r.kinds().empty()) << c.kernel << r.run.out;
      continue;
    }
    EXPECT_EQ(r.run.code, 1) << c.kernel << r.run.out;
    ASSERT_EQ(r.kinds(), std::vector<std::string>{"race"}) << c.kernel << r.run.out;
    const auto& f = *r.find("race");
    EXPECT_EQ(lineSet(f), c.lines) << c.kernel << r.run.out;
    EXPECT_EQ(f["address_space"], "global") << c.kernel;
    EXPECT_NE(f["summary"].get<std::string>().find("in one work-group"), std::string::npos)
        << c.kernel << r.run.out;
  }
  const ScanOut own =
      sanitized("global_group_race.cl", "--kernel own_elements --global 256 --local 64 --arg a=257",
                "sanitize_group_own");
  EXPECT_EQ(own.run.code, 0) << own.run.out;
  EXPECT_TRUE(own.kinds().empty()) << own.run.out;
  const ScanOut atomics = sanitized("global_group_race.cl",
                                    "--kernel count_atomically --global 256 --local 64 "
                                    "--arg x=256 --arg counts=5",
                                    "sanitize_group_atomics");
  EXPECT_EQ(atomics.run.code, 0) << atomics.run.out;
  EXPECT_TRUE(atomics.kinds().empty()) << atomics.run.out;
}

TEST(PoclSanitizeScan, AReadOfLocalMemoryNoWorkItemWroteIsUninitializedAtItsLine) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("uninit_local.cl", "--kernel half_filled --global 128 --local 64",
                              "sanitize_uninit");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"uninitialized"}) << r.run.out;
  EXPECT_EQ(lineSet(*r.find("uninitialized")), std::set<int>{8}) << r.run.out;
}

TEST(PoclSanitizeScan, TheCorrectKernelsAreClean) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut tiled = sanitized("tiled_matmul.cl",
                                  "--kernel matmul_tiled --global 64,64 --local 16,16 --arg n=64 "
                                  "--arg A=4096 --arg B=4096 --arg C=4096",
                                  "sanitize_tiled");
  EXPECT_EQ(tiled.run.code, 0) << tiled.run.out;
  EXPECT_TRUE(tiled.kinds().empty()) << tiled.run.out;
  const ScanOut atomic =
      sanitized("atomic_counter.cl",
                "--kernel count_positive --global 1024 --local 64 --arg x=1024 --arg count=1",
                "sanitize_atomic");
  EXPECT_EQ(atomic.run.code, 0) << atomic.run.out;
  EXPECT_TRUE(atomic.kinds().empty()) << atomic.run.out;
}

TEST(PoclSanitizeScan, AnAsyncCopyIsCleanAndFollowed) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("async_copy.cl",
                              "--kernel reverse_slices --global 256 --local 64 --arg in=256 "
                              "--arg out=256",
                              "sanitize_async");
  EXPECT_EQ(r.run.code, 0) << r.run.out;
  EXPECT_TRUE(r.kinds().empty()) << r.run.out;
  const std::string notes = r.result["notes"].dump();
  EXPECT_EQ(notes.find("not looked at: line"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("async_work_group_copy"), std::string::npos) << notes;
}

// Program-scope __global variables (OpenCL 2.0) are no buffer of the kernel's: read by name and
// through a pointer into one, they are checked against the variable (clean at n = 4, where every
// read is inside `table`), not charged to the nearest buffer; read one past the end at n = 5,
// the finding names the variable and its element. Races on them are said not to be looked at.
TEST(PoclSanitizeScan, AProgramScopeGlobalVariableIsCheckedAgainstItselfNotTheNearestBuffer) {
  REQUIRE_DEVICE(kPocl);
  const std::string args =
      "--kernel lookup --global 64 --local 16 --arg out=64 --build-options=-cl-std=CL2.0 --arg n=";
  const ScanOut inside = sanitized("program_scope_table.cl", args + "4", "sanitize_table_4");
  EXPECT_EQ(inside.run.code, 0) << inside.run.out;
  EXPECT_TRUE(inside.kinds().empty()) << inside.run.out;
  const std::string notes = inside.result["notes"].dump();
  EXPECT_NE(notes.find("line 3: table: a program-scope __global variable"), std::string::npos)
      << notes;
  const ScanOut past = sanitized("program_scope_table.cl", args + "5", "sanitize_table_5");
  EXPECT_EQ(past.run.code, 1) << past.run.out;
  ASSERT_EQ(past.kinds(), std::vector<std::string>{"out_of_bounds"}) << past.run.out;
  const auto& f = *past.find("out_of_bounds");
  EXPECT_EQ(lineSet(f), std::set<int>{8}) << past.run.out;
  EXPECT_NE(f["summary"].get<std::string>().find("read of table[4]"), std::string::npos)
      << past.run.out;
}

// A launch shape the device refuses for the kernel as written (non-uniform work-groups, on a
// device without them) is the launch's, as in the plain run, never a tool error; on a device that
// takes it, the sanitized run is clean. Either way the two runs agree on the launch.
TEST(PoclSanitizeScan, ALaunchTheDeviceRefusesForThePlainKernelIsNoToolError) {
  REQUIRE_DEVICE(kPocl);
  const std::string args = kernelFile("non_uniform.cl") +
                           " --kernel local_ids --global 10 --local 4 --arg out=10 "
                           "--build-options=-cl-std=CL2.0 --device '" +
                           kPocl + "' --tries 1";
  const ScanOut plain = scanJson(args, "sanitize_non_uniform_plain");
  const ScanOut r = sanitized("non_uniform.cl",
                              "--kernel local_ids --global 10 --local 4 --arg out=10 "
                              "--build-options=-cl-std=CL2.0",
                              "sanitize_non_uniform");
  EXPECT_EQ(r.find("tool_error"), nullptr) << r.run.out;
  EXPECT_EQ(r.kinds(), plain.kinds()) << r.run.out << plain.run.out;
  EXPECT_EQ(r.run.code, plain.run.code) << r.run.out << plain.run.out;
}

// A kernel whose own __local memory is more than the device's is a launch the device must refuse:
// the sanitized run says so as the launch's error instead of launching (PoCL 3.1 aborted the
// process on it, a crash charged to the kernel's run).
TEST(PoclSanitizeScan, AKernelOverTheDevicesLocalMemoryIsALaunchErrorNotACrash) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r =
      sanitized("over_local.cl", "--kernel huge_table --global 128 --local 64 --arg out=128",
                "sanitize_over_local");
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"launch_error"}) << r.run.out;
  EXPECT_NE((*r.find("launch_error"))["summary"].get<std::string>().find(
                "own __local memory (16777216 bytes) is more than the device's"),
            std::string::npos)
      << r.run.out;
}

// A call to one of the file's functions whose first argument is a macro still passes the
// sanitizer's context (it had been left out, and the instrumented program did not build): the
// helper's read past the end is found at the helper's line.
TEST(PoclSanitizeScan, AHelperCalledWithAMacroAsItsFirstArgumentIsInstrumented) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("macro_argument.cl",
                              "--kernel shift --global 64 --local 16 --arg in=64 --arg out=64",
                              "sanitize_macro_argument");
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"out_of_bounds"}) << r.run.out;
  const auto& f = *r.find("out_of_bounds");
  EXPECT_EQ(lineSet(f), std::set<int>{6}) << r.run.out;
  EXPECT_NE(f["summary"].get<std::string>().find("read of in[64]"), std::string::npos) << r.run.out;
}

// The vector builtins: a vstore4 one vector past the end is out of bounds at its first element; a
// vload4 of the neighbour's vector with no barrier after its vstore4 is a __local race.
TEST(PoclSanitizeScan, AVectorStorePastTheEndIsOutOfBoundsAtItsFirstElement) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("vector_past_end.cl",
                              "--kernel shift_vectors --global 64 --local 16 --arg in=256 "
                              "--arg out=256",
                              "sanitize_vstore");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"out_of_bounds"}) << r.run.out;
  const auto& f = *r.find("out_of_bounds");
  EXPECT_EQ(lineSet(f), std::set<int>{7}) << r.run.out;
  EXPECT_NE(f["summary"].get<std::string>().find("write of out[256]"), std::string::npos)
      << r.run.out;
  EXPECT_EQ(f["work_items"][0], "global(63,0,0)") << r.run.out;
}

TEST(PoclSanitizeScan, AVloadOfTheNeighboursVstoreWithoutABarrierIsALocalRace) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("vector_local_race.cl",
                              "--kernel neighbour_vectors --global 128 --local 64 --arg in=512 "
                              "--arg out=512",
                              "sanitize_vector_race");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"race"}) << r.run.out;
  EXPECT_EQ(lineSet(*r.find("race")), (std::set<int>{6, 7})) << r.run.out;
  EXPECT_EQ((*r.find("race"))["address_space"], "local");
}

TEST(PoclSanitizeScan, AnAtomicGivenAPointerPastTheEndIsOutOfBounds) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut r = sanitized("atomic_pointer.cl",
                              "--kernel histogram --global 256 --local 64 --arg x=256 "
                              "--arg bins=16 --arg n=16",
                              "sanitize_atomic_pointer");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"out_of_bounds"}) << r.run.out;
  const auto& f = *r.find("out_of_bounds");
  EXPECT_EQ(lineSet(f), std::set<int>{5}) << r.run.out;
  EXPECT_NE(f["summary"].get<std::string>().find("atomic access of bins[16]"), std::string::npos)
      << r.run.out;
}

// Async copies, each kernel of async_faults.cl: the fault found at the copy's line with its kind
// (out of bounds either way, the words a short copy left unwritten, the copy's reads racing with
// another group's writes), and a strided copy both ways clean.
TEST(PoclSanitizeScan, AsyncCopiesAreCheckedBothWays) {
  REQUIRE_DEVICE(kPocl);
  struct Case {
    const char* kernel;
    const char* args;
    const char* kind;
    std::set<int> lines;
    const char* says;
  };
  const Case cases[] = {
      {"stage_shifted", "--arg in=256 --arg out=256", "out_of_bounds", {7}, "read of in[256]"},
      {"stage_half", "--arg in=256 --arg out=256", "uninitialized", {18}, "read of row[l]"},
      {"scatter_columns", "--arg in=256 --arg out=256", "out_of_bounds", {27}, "write of out["},
      {"stage_next", "--arg a=256 --arg out=256", "race", {35, 36}, "between work-groups"},
  };
  for (const Case& c : cases) {
    const ScanOut r =
        sanitized("async_faults.cl",
                  std::string("--kernel ") + c.kernel + " --global 256 --local 64 " + c.args,
                  std::string("sanitize_async_") + c.kernel);
    EXPECT_EQ(r.run.code, 1) << c.kernel << r.run.out;
    ASSERT_EQ(r.kinds(), std::vector<std::string>{c.kind}) << c.kernel << r.run.out;
    EXPECT_EQ(lineSet(*r.find(c.kind)), c.lines) << c.kernel << r.run.out;
    EXPECT_NE((*r.find(c.kind))["summary"].get<std::string>().find(c.says), std::string::npos)
        << c.kernel << r.run.out;
  }
  const ScanOut clean =
      sanitized("async_faults.cl",
                "--kernel transpose_columns --global 256 --local 64 --arg in=256 --arg out=256",
                "sanitize_async_transpose");
  EXPECT_EQ(clean.run.code, 0) << clean.run.out;
  EXPECT_TRUE(clean.kinds().empty()) << clean.run.out;
}

// Barrier divergence: a barrier only the first 16 work-items reach, work-items past n that return
// before the barrier, and a barrier in a loop each work-item runs l % 4 times: divergence at the
// branch and the barrier's lines; with n a multiple of the group's size nothing diverges.
TEST(PoclSanitizeScan, ABarrierSomeWorkItemsOfAGroupDoNotReachIsDivergence) {
  REQUIRE_DEVICE(kPocl);
  const ScanOut half =
      sanitized("divergent_barrier.cl",
                "--kernel sum_first_half --global 128 --local 64 --arg in=128 --arg out=128",
                "sanitize_divergent_if");
  EXPECT_EQ(half.run.code, 1) << half.run.out;
  ASSERT_EQ(half.kinds(), std::vector<std::string>{"divergence"}) << half.run.out;
  EXPECT_EQ(lineSet(*half.find("divergence")), (std::set<int>{7, 8})) << half.run.out;
  const ScanOut early = sanitized("divergent_barrier.cl",
                                  "--kernel reverse_prefix --global 128 --local 64 --arg in=128 "
                                  "--arg out=128 --arg n=100",
                                  "sanitize_divergent_return");
  EXPECT_EQ(early.run.code, 1) << early.run.out;
  ASSERT_EQ(early.kinds(), std::vector<std::string>{"divergence"}) << early.run.out;
  EXPECT_EQ(lineSet(*early.find("divergence")), (std::set<int>{17, 19})) << early.run.out;
  EXPECT_NE((*early.find("divergence"))["summary"].get<std::string>().find("work-group 1"),
            std::string::npos)
      << early.run.out;
  const ScanOut whole = sanitized("divergent_barrier.cl",
                                  "--kernel reverse_prefix --global 128 --local 64 --arg in=128 "
                                  "--arg out=128 --arg n=128",
                                  "sanitize_divergent_none");
  EXPECT_EQ(whole.run.code, 0) << whole.run.out;
  EXPECT_TRUE(whole.kinds().empty()) << whole.run.out;
  const ScanOut loop =
      sanitized("divergent_barrier.cl",
                "--kernel barriers_by_item --global 128 --local 64 --arg in=128 --arg out=128",
                "sanitize_divergent_loop");  // a barrier reached a different number of times
  EXPECT_EQ(loop.run.code, 1) << loop.run.out;
  ASSERT_EQ(loop.kinds(), std::vector<std::string>{"divergence"}) << loop.run.out;
  EXPECT_EQ(lineSet(*loop.find("divergence")), (std::set<int>{27, 28})) << loop.run.out;
}

// clang 15's libraries in the tool's process crashed Oclgrind (LLVM 14) on every scan: the rewrite
// runs in its own process, and a plain scan on the simulator still finds the race.
TEST(OclgrindSanitize, TheToolWithoutClangInItsProcessStillRunsTheSimulator) {
  REQUIRE_DEVICE("Oclgrind");
  const ScanOut r = scanJson(kernelFile("local_race.cl") +
                                 " --kernel add_neighbour --global 128 --local 64 --tries 1 "
                                 "--device Oclgrind",
                             "sanitize_oclgrind_plain");
  EXPECT_EQ(r.run.code, 1) << r.run.out;
  ASSERT_EQ(r.kinds(), std::vector<std::string>{"race"}) << r.run.out;
}

}  // namespace
