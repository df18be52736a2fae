// The device session's reset and when runUnit uses it, on PoCL (Oclgrind for the one test that
// says so): a reset session runs cases on a new context with rebuilt programs; a unit resets after
// each case that ended on an OpenCL error from a command, and after nothing else; guard zones
// catch stray writes in every buffer and read mode; the buffer pool hands out what fits; a unit
// builds no more programs than its budget, and cases with the same options share one.
#include "cl/session.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cl/build_hook.hpp"
#include "cl/devices.hpp"
#include "cl/memory.hpp"
#include "cl/unit.hpp"
#include "core/spec.hpp"
#include "support/kinds.hpp"

namespace {

constexpr int64_t kRefusedLocal = 1048576;  // specs/local_refused.yaml's L no device accepts

const clh::DeviceInfo* firstDevice(const std::string& platform) {
  for (const auto& d : clh::test::allDevices())
    if (d.platform.find(platform) != std::string::npos) return &d;
  return nullptr;
}

const clh::DeviceInfo* pocl() {
  return firstDevice("Portable Computing Language");
}

clh::Spec spec(const std::string& name) {
  return clh::loadSpec(std::string(CLH_CL_TEST_DIR) + "/specs/" + name + ".yaml",
                       CLHARNESS_SOURCE_ROOT);
}

bool mentionsReset(const clh::UnitResult& u) {
  for (const auto& o : u.observations)
    if (o.find("recreated") != std::string::npos) return true;
  return false;
}

// The context a built program belongs to.
cl_context programContext(const clh::BuildOutcome& b) {
  return b.program->getInfo<CL_PROGRAM_CONTEXT>()();
}

// Where a new context cannot run anything either (NVIDIA's driver after a kernel faulted: the
// whole process is spoilt), the unit stops at the case that got it there instead of shrinking on
// failures that are no longer the kernel's. A probe that does not build stands for that here.
TEST(Unit, StopsWhereANewContextCannotRunAnything) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  const clh::Spec s = spec("local_refused");
  clh::DeviceSession session(*dev);
  session.setProbeSourceForTesting("this is not OpenCL C");
  clh::UnitOptions o;
  o.cases = 30;
  o.modes = {clh::RunOptions{}, clh::RunOptions{}};
  int runs = 0, after = 0;
  bool refused = false;
  o.on_case_start = [&](const clh::Sizes& sizes) {
    ++runs;
    after += refused;
    refused |= sizes.at("L") == kRefusedLocal;
  };
  const clh::UnitResult u = clh::runUnit(session, s, o);
  ASSERT_TRUE(u.failing) << u.message;
  EXPECT_EQ(u.status, clh::Status::fail);
  EXPECT_EQ(after, 0) << "cases ran after the process was spoilt";
  EXPECT_EQ(u.cases_run, runs);
  EXPECT_EQ(u.failing->sizes.at("L"), kRefusedLocal);
  // Its own error first, then why nothing else ran; the second mode never ran.
  ASSERT_EQ(u.failing->findings.size(), 2u);
  EXPECT_NE(u.failing->findings[0].summary.find("failed"), std::string::npos);
  EXPECT_NE(u.failing->findings[1].summary.find("a new context could not run anything either"),
            std::string::npos)
      << u.failing->findings[1].summary;
  EXPECT_NE(u.message.find("not shrunk further"), std::string::npos) << u.message;
}

}  // namespace

TEST(Session, ResetGivesANewContextAndRebuildsPrograms) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  const clh::Spec s = spec("vadd");
  clh::DeviceSession session(*dev);
  EXPECT_EQ(session.resets(), 0);
  ASSERT_TRUE(session.runCase(s, {{"N", 17}}, 1).ok());
  EXPECT_FALSE(session.needsReset());

  const clh::BuildOutcome& before = session.build(s.source_path, "", {"vadd"});
  ASSERT_TRUE(before.program);
  const cl::Context old = session.context();  // holds the old context, so its handle stays unique
  EXPECT_EQ(programContext(before), old());

  session.reset();
  EXPECT_EQ(session.resets(), 1);
  EXPECT_NE(session.context()(), old());
  const clh::BuildOutcome& after = session.build(s.source_path, "", {"vadd"});
  ASSERT_TRUE(after.program) << after.log;
  EXPECT_EQ(programContext(after), session.context()());
  EXPECT_EQ(session.queue().getInfo<CL_QUEUE_CONTEXT>()(), session.context()());

  // Cases run as before on the new context, including a size not run before.
  for (int64_t n : {17, 300, 1}) {
    clh::CaseOutcome c = session.runCase(s, {{"N", n}}, 1);
    EXPECT_TRUE(c.ok()) << "N=" << n << ": " << c.findings.front().summary;
  }
  EXPECT_FALSE(session.needsReset());
  EXPECT_EQ(session.resets(), 1);
}

TEST(Session, ARefusedEnqueueAsksForAReset) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  ASSERT_LT(dev->max_work_group_size, size_t(kRefusedLocal));
  const clh::Spec s = spec("local_refused");
  clh::DeviceSession session(*dev);
  clh::CaseOutcome bad =
      session.runCase(s, {{"N", 5}, {"L", kRefusedLocal}, {"G", kRefusedLocal}}, 1);
  ASSERT_EQ(bad.findings.size(), 1u);
  EXPECT_EQ(bad.findings[0].kind, clh::FindingKind::launch_error);
  EXPECT_TRUE(session.needsReset());
  // The next case clears it: the flag describes the last case only.
  EXPECT_TRUE(session.runCase(s, {{"N", 5}, {"L", 1}, {"G", 5}}, 1).ok());
  EXPECT_FALSE(session.needsReset());
  EXPECT_EQ(session.resets(), 0);  // runCase never resets by itself
}

TEST(Unit, ResetsAfterEachLaunchErrorAndKeepsTheFirstError) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  ASSERT_LT(dev->max_work_group_size, size_t(kRefusedLocal));
  const clh::Spec s = spec("local_refused");
  clh::DeviceSession session(*dev);
  clh::UnitOptions o;
  o.cases = 30;
  // Two modes: a case that fails in the first must not leave a bad context to the second.
  o.modes = {clh::RunOptions{}, clh::RunOptions{}};
  o.modes[1].buffers = clh::BufferMode::copy_host_ptr;
  int refused = 0;
  o.on_case_start = [&](const clh::Sizes& sizes) { refused += sizes.at("L") == kRefusedLocal; };
  const clh::UnitResult u = clh::runUnit(session, s, o);

  ASSERT_TRUE(u.failing) << u.message;
  EXPECT_EQ(u.status, clh::Status::fail);
  ASSERT_GT(refused, 0);
  // One reset per mode of each case that drew the refused local size, none for the others.
  EXPECT_EQ(session.resets(), 2 * refused);
  EXPECT_FALSE(session.needsReset());
  EXPECT_TRUE(mentionsReset(u));
  // The smallest failing case carries its own error, the refused enqueue, in both modes.
  EXPECT_EQ(u.failing->sizes.at("N"), 1);
  EXPECT_EQ(u.failing->sizes.at("L"), kRefusedLocal);
  ASSERT_EQ(u.failing->findings.size(), 2u);
  for (const auto& f : u.failing->findings) {
    EXPECT_EQ(f.kind, clh::FindingKind::launch_error) << f.summary;
    EXPECT_NE(f.summary.find("enqueue of 'vadd' with global (1048576) local (1048576) failed"),
              std::string::npos)
        << f.summary;
  }
  // The session still runs a good case afterwards.
  EXPECT_TRUE(session.runCase(s, {{"N", 9}, {"L", 4}, {"G", 12}}, 1).ok());
}

TEST(Unit, NoResetAfterWrongResults) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  const clh::Spec s = spec("wrong_index");
  clh::DeviceSession session(*dev);
  clh::UnitOptions o;
  o.cases = 30;
  const clh::UnitResult u = clh::runUnit(session, s, o);
  ASSERT_TRUE(u.failing) << u.message;
  EXPECT_EQ(u.status, clh::Status::fail);
  EXPECT_EQ(u.failing->findings.front().kind, clh::FindingKind::wrong_result);
  EXPECT_GT(u.cases_run, 1);
  EXPECT_EQ(session.resets(), 0);
  EXPECT_FALSE(mentionsReset(u));
}

// get_global_local_id.yaml builds -DN={N} with N in [1, 64], and its work-group shape LR x LC free:
// under a budget of three programs, the unit compiles at most three (counted by the build hook, the
// seam every driver compile of the process goes through) and runs other cases on them, while its
// 40 cases, unlimited, draw far more values of N.
TEST(Unit, BuildsAtMostItsBudgetOfPrograms) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  const clh::Spec s = clh::loadSpec(
      std::string(CLHARNESS_SOURCE_ROOT) + "/specs/intermediate/get_global_local_id.yaml",
      CLHARNESS_SOURCE_ROOT);
  clh::DeviceSession session(*dev);
  int builds = 0;
  clh::setBuildHook([&](bool building) { builds += building; });
  struct Unhook {
    ~Unhook() { clh::setBuildHook({}); }
  } unhook;
  clh::UnitOptions o;
  o.cases = 40;
  o.build_programs = 3;
  const clh::UnitResult u = clh::runUnit(session, s, o);
  EXPECT_EQ(u.status, clh::Status::pass) << u.message;
  EXPECT_GE(builds, 1);
  EXPECT_LE(builds, 3);
  EXPECT_GT(u.cases_run, builds) << "cases with the same options share one program";
  bool said = false;
  for (const auto& obs : u.observations) said |= obs.find("at most 3 a unit") != std::string::npos;
  EXPECT_TRUE(said) << "the report does not say which programs ran";
}

TEST(Unit, NoResetOnTheSimulator) {
  const clh::DeviceInfo* dev = firstDevice("Oclgrind");
  if (!dev) GTEST_SKIP() << "no Oclgrind device here";
  ASSERT_LT(dev->max_work_group_size, size_t(kRefusedLocal));
  const clh::Spec s = spec("local_refused");
  clh::DeviceSession session(*dev);
  clh::UnitOptions o;
  o.sizes = clh::Sizes{{"N", 3}, {"L", kRefusedLocal}};  // one case, refused on every device
  const clh::UnitResult u = clh::runUnit(session, s, o);
  ASSERT_TRUE(u.failing) << u.message;
  EXPECT_EQ(u.failing->findings.front().kind, clh::FindingKind::launch_error)
      << u.failing->findings.front().summary;
  EXPECT_EQ(session.resets(), 0);
  EXPECT_FALSE(mentionsReset(u));
}

// Guard zones catch a stray write before the start or past the end of an input or an output
// buffer, small or large (over 32 KiB, where the guards are read apart from the contents), in
// every buffer-flag mode and read mode, and name the element; the results are still compared.
TEST(Session, GuardZonesCatchStrayWritesInEveryMode) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  const clh::Spec s = spec("stray_write");
  clh::DeviceSession session(*dev);
  const std::vector<clh::BufferMode> buffers = {
      clh::BufferMode::write, clh::BufferMode::copy_host_ptr, clh::BufferMode::use_host_ptr,
      clh::BufferMode::alloc_host_ptr, clh::BufferMode::alloc_copy_host_ptr};
  const std::vector<clh::ReadMode> reads = {
      clh::ReadMode::blocking, clh::ReadMode::nonblocking_wait, clh::ReadMode::nonblocking_finish,
      clh::ReadMode::map, clh::ReadMode::host_pointer};
  uint64_t seed = 1;
  for (int64_t n : {16, 20000})
    for (clh::BufferMode bm : buffers)
      for (clh::ReadMode rm : reads)
        for (int64_t which : {0, 2})
          for (int64_t at : {int64_t{-1}, int64_t{-256}, n, n + 255}) {
            clh::RunOptions run;
            run.buffers = bm;
            run.read = rm;
            const std::string name = which == 0 ? "a" : "c";
            const std::string where =
                at < 0 ? fmt::format("{} bytes before its start (element {})", -4 * at, at)
                       : fmt::format("byte {} past its end (element {})", 4 * (at - n), at);
            const std::string want =
                fmt::format("buffer '{}' was written outside its {} bytes: {} (guard zone)", name,
                            4 * n, where);
            const std::string label = fmt::format("N={} buffers={} read={} {}[{}]", n,
                                                  clh::toString(bm), clh::toString(rm), name, at);
            clh::CaseOutcome c =
                session.runCase(s, {{"N", n}, {"W", which}, {"I", at + 1024}}, seed++, run);
            ASSERT_EQ(c.findings.size(), 1u)
                << label << ": " << (c.findings.empty() ? "none" : c.findings[0].summary);
            EXPECT_EQ(c.findings[0].kind, clh::FindingKind::out_of_bounds) << label;
            EXPECT_EQ(c.findings[0].summary, want) << label;
            EXPECT_FALSE(session.needsReset()) << label;
          }
}

// The guard pattern changes at every byte from one case to the next, and is no short repeat
// within a case: a kernel that writes a fixed value, or the last case's guard, is seen. (Over 400
// cases a key byte equal to the last key's turns up with near certainty: 1 in 256 a byte.)
TEST(GuardPattern, DiffersFromCaseToCaseAtEveryByteAndDoesNotRepeatWithinOne) {
  const size_t bytes = 2048 + 3;  // not a whole number of words
  auto draw = [&] {
    std::vector<uint8_t> out(bytes);
    clh::guardPattern(out.data(), bytes);
    return out;
  };
  std::vector<uint8_t> previous = draw();
  ASSERT_EQ(previous.size(), bytes);
  for (int c = 0; c < 400; ++c) {
    const std::vector<uint8_t> now = draw();
    size_t same = 0;
    for (size_t i = 0; i < bytes; ++i) same += now[i] == previous[i];
    ASSERT_EQ(same, 0u) << "case " << c << ": " << same << " bytes as in the case before";
    size_t repeats = 0;  // bytes equal to the one a word (8 bytes) before
    for (size_t i = 8; i < bytes; ++i) repeats += now[i] == now[i - 8];
    ASSERT_LT(repeats, bytes / 32) << "case " << c << ": a pattern of period 8";
    previous = now;
  }
}

// The pool hands out the smallest kept buffer that fits and is at most twice the size asked for,
// else a new one of the size asked for; a buffer handed out is no longer kept.
TEST(BufferPool, TakesTheSmallestFitUpToTwiceTheSize) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  cl::Context context(dev->device);
  clh::BufferPool pool;
  size_t capacity = 0;
  cl::Buffer small = pool.take(context, 1000, &capacity);
  EXPECT_EQ(capacity, 1000u);
  cl::Buffer large = pool.take(context, 3000, &capacity);
  pool.give(small, 1000);
  pool.give(large, 3000);
  EXPECT_EQ(pool.take(context, 900, &capacity)(), small());  // the smallest that fits
  EXPECT_EQ(capacity, 1000u);
  EXPECT_NE(pool.take(context, 1000, &capacity)(), small());  // handed out already: a new one
  EXPECT_EQ(capacity, 1000u);
  EXPECT_NE(pool.take(context, 1400, &capacity)(), large());  // 3000 is over twice 1400
  EXPECT_EQ(capacity, 1400u);
  EXPECT_EQ(pool.take(context, 1500, &capacity)(), large());
  EXPECT_EQ(capacity, 3000u);
}

// Unguarded write-mode buffers come from the pool too: a case after a larger one gets the kept
// buffer, seen by the kernel as a sub-buffer of the size asked for, with this case's contents.
TEST(CaseBuffers, AnUnguardedBufferFromALargerPooledOneIsOfItsOwnSize) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  cl::Context context(dev->device);
  cl::CommandQueue queue(context, dev->device);
  clh::BufferPool pool;
  cl_mem first = nullptr;
  {
    clh::HostBuffer big(clh::ElemType::u32, 1000);
    for (size_t i = 0; i < 1000; ++i) big.as<uint32_t>()[i] = 7;
    clh::CaseBuffers bufs(context, queue, 0, &pool);
    bufs.add("a", big, clh::BufferMode::write);
    first = bufs.arg(0)();
    EXPECT_EQ(bufs.arg(0).getInfo<CL_MEM_SIZE>(), 4000u);  // new and of its size: no sub-buffer
    queue.finish();
  }
  clh::HostBuffer small(clh::ElemType::u32, 600);
  for (size_t i = 0; i < 600; ++i) small.as<uint32_t>()[i] = static_cast<uint32_t>(i);
  clh::CaseBuffers bufs(context, queue, 0, &pool);
  bufs.add("a", small, clh::BufferMode::write);
  EXPECT_EQ(bufs.arg(0).getInfo<CL_MEM_SIZE>(), 2400u);
  EXPECT_EQ(bufs.arg(0).getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()(), first);  // the kept one
  clh::HostBuffer back(clh::ElemType::u32, 600);
  bufs.read(0, back, clh::ReadMode::blocking);
  for (size_t i = 0; i < 600; ++i) ASSERT_EQ(back.as<uint32_t>()[i], i) << "element " << i;
}

// Without a pool every buffer is new, guarded or not.
TEST(CaseBuffers, WithoutAPoolEveryBufferIsNew) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  cl::Context context(dev->device);
  cl::CommandQueue queue(context, dev->device);
  clh::HostBuffer host(clh::ElemType::u32, 100);
  clh::CaseBuffers bufs(context, queue, 0, nullptr);
  bufs.add("a", host, clh::BufferMode::write);
  EXPECT_EQ(bufs.arg(0).getInfo<CL_MEM_SIZE>(), 400u);
  EXPECT_EQ(bufs.arg(0).getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()(), nullptr);
}

// Without guards but with a pool and an alignment (what a session gives when guard zones are off),
// a case's small write-mode buffers share one pooled buffer too, each at an aligned offset (a
// misaligned sub-buffer origin would fail its creation), and every read mode gives back each
// buffer's own contents, not its neighbour's.
TEST(CaseBuffers, SmallUnguardedBuffersShareOnePooledBufferAtAlignedOffsets) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  cl::Context context(dev->device);
  cl::CommandQueue queue(context, dev->device);
  const size_t align = clh::guardBytesFor(dev->device);
  clh::BufferPool pool;
  for (auto mode : {clh::ReadMode::blocking, clh::ReadMode::nonblocking_wait,
                    clh::ReadMode::nonblocking_finish, clh::ReadMode::map}) {
    clh::HostBuffer a(clh::ElemType::u32, 16), b(clh::ElemType::u32, 100);
    for (size_t i = 0; i < 16; ++i) a.as<uint32_t>()[i] = static_cast<uint32_t>(i + 1);
    for (size_t i = 0; i < 100; ++i) b.as<uint32_t>()[i] = static_cast<uint32_t>(3 * i);
    clh::CaseBuffers bufs(context, queue, 0, &pool, align);
    bufs.add("a", a, clh::BufferMode::write);
    bufs.add("b", b, clh::BufferMode::write);
    bufs.commit();
    const cl_mem parent = bufs.arg(0).getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()();
    ASSERT_NE(parent, nullptr);
    EXPECT_EQ(bufs.arg(1).getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()(), parent);
    EXPECT_EQ(bufs.arg(0).getInfo<CL_MEM_SIZE>(), 64u);
    EXPECT_EQ(bufs.arg(1).getInfo<CL_MEM_SIZE>(), 400u);
    EXPECT_EQ(bufs.arg(1).getInfo<CL_MEM_OFFSET>() % align, 0u);
    EXPECT_NE(bufs.arg(1).getInfo<CL_MEM_OFFSET>(), bufs.arg(0).getInfo<CL_MEM_OFFSET>());
    clh::HostBuffer gotA(clh::ElemType::u32, 16), gotB(clh::ElemType::u32, 100);
    const auto findings = bufs.readResults({{0, &gotA}, {1, &gotB}}, mode);
    EXPECT_TRUE(findings.empty());
    for (size_t i = 0; i < 16; ++i) ASSERT_EQ(gotA.as<uint32_t>()[i], i + 1) << "a " << i;
    for (size_t i = 0; i < 100; ++i) ASSERT_EQ(gotB.as<uint32_t>()[i], 3 * i) << "b " << i;
  }
}

// A pooled buffer keeps the sub-buffers of its last case: a case whose buffers lie where the last
// one's did takes the same ones, and one whose layout differs gets new ones while those it does
// not use are released before its commands run (a kept one then holds only the test's reference).
TEST(CaseBuffers, APooledBufferKeepsTheSubBuffersOfItsLastCaseOnly) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  cl::Context context(dev->device);
  cl::CommandQueue queue(context, dev->device);
  const size_t guard = clh::guardBytesFor(dev->device);
  clh::BufferPool pool;
  // One case with guards of a (16 elements) and b (`bCount`): their sub-buffers, after checking
  // that what was written comes back.
  // `unused`: a kept sub-buffer this case does not take, released once its buffers are bound.
  auto runCase = [&](size_t bCount, const cl::Buffer* unused = nullptr) {
    clh::HostBuffer a(clh::ElemType::u32, 16), b(clh::ElemType::u32, bCount);
    for (size_t i = 0; i < 16; ++i) a.as<uint32_t>()[i] = static_cast<uint32_t>(i + 7);
    for (size_t i = 0; i < bCount; ++i) b.as<uint32_t>()[i] = static_cast<uint32_t>(bCount + i);
    clh::CaseBuffers bufs(context, queue, guard, &pool);
    bufs.add("a", a, clh::BufferMode::write);
    bufs.add("b", b, clh::BufferMode::write);
    bufs.commit();
    if (unused) {
      EXPECT_EQ(unused->getInfo<CL_MEM_REFERENCE_COUNT>(), 2u);  // the test's copies
    }
    std::pair<cl::Buffer, cl::Buffer> views{bufs.arg(0), bufs.arg(1)};
    clh::HostBuffer gotA(clh::ElemType::u32, 16), gotB(clh::ElemType::u32, bCount);
    EXPECT_TRUE(bufs.readResults({{0, &gotA}, {1, &gotB}}, clh::ReadMode::blocking).empty());
    EXPECT_EQ(std::memcmp(gotA.data(), a.data(), a.bytes()), 0);
    EXPECT_EQ(std::memcmp(gotB.data(), b.data(), b.bytes()), 0);
    return views;
  };
  const auto first = runCase(100);
  const auto same = runCase(100);
  EXPECT_EQ(same.first(), first.first());
  EXPECT_EQ(same.second(), first.second());
  const auto other = runCase(60, &first.second);
  EXPECT_EQ(other.first(), first.first());    // a lies where it did
  EXPECT_NE(other.second(), first.second());  // b is shorter: a new sub-buffer
  EXPECT_EQ(other.second.getInfo<CL_MEM_SIZE>(), 240u);
  EXPECT_EQ(first.second.getInfo<CL_MEM_REFERENCE_COUNT>(), 2u);  // this test's two copies only
  EXPECT_GT(first.first.getInfo<CL_MEM_REFERENCE_COUNT>(), 3u);   // and the pool's
}

// With guards and a pool, a case's small write-mode buffers share one pooled buffer, each inside
// guards of its own, and come back with their guards in one read; a large one stands alone. A
// write just past the end of one is still that buffer's finding, and the next case gets the
// shared buffer again.
TEST(CaseBuffers, SmallGuardedBuffersShareOnePooledBuffer) {
  const clh::DeviceInfo* dev = pocl();
  if (!dev) GTEST_SKIP() << "no PoCL device here";
  cl::Context context(dev->device);
  cl::CommandQueue queue(context, dev->device);
  const size_t guard = clh::guardBytesFor(dev->device);
  clh::BufferPool pool;
  cl_mem shared = nullptr;
  for (int round = 0; round < 2; ++round) {
    clh::HostBuffer a(clh::ElemType::u32, 16), b(clh::ElemType::u32, 100),
        big(clh::ElemType::u32, 20000);
    for (size_t i = 0; i < 16; ++i) a.as<uint32_t>()[i] = static_cast<uint32_t>(i + 1);
    for (size_t i = 0; i < 100; ++i) b.as<uint32_t>()[i] = static_cast<uint32_t>(3 * i);
    for (size_t i = 0; i < 20000; ++i) big.as<uint32_t>()[i] = 5;
    clh::CaseBuffers bufs(context, queue, guard, &pool);
    bufs.add("a", a, clh::BufferMode::write);
    bufs.add("b", b, clh::BufferMode::write);
    bufs.add("big", big, clh::BufferMode::write);
    bufs.commit();
    const cl_mem parent = bufs.arg(0).getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()();
    ASSERT_NE(parent, nullptr);
    EXPECT_EQ(bufs.arg(1).getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()(), parent);
    EXPECT_NE(bufs.arg(2).getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>()(), parent);
    EXPECT_EQ(bufs.arg(0).getInfo<CL_MEM_SIZE>(), 64u);
    EXPECT_EQ(bufs.arg(1).getInfo<CL_MEM_SIZE>(), 400u);
    if (round == 1) {
      EXPECT_EQ(parent, shared);  // the kept one
    }
    shared = parent;
    // One element past the end of a: the 17th, written from the host into a's trailing guard.
    const uint32_t stray = 0xdeadbeefu;
    const size_t aOffset = bufs.arg(0).getInfo<CL_MEM_OFFSET>();
    queue.enqueueWriteBuffer(cl::Buffer(parent, true), CL_TRUE, aOffset + 64, 4, &stray);
    clh::HostBuffer gotA(clh::ElemType::u32, 16), gotB(clh::ElemType::u32, 100);
    const auto findings = bufs.readResults({{0, &gotA}, {1, &gotB}}, clh::ReadMode::blocking);
    for (size_t i = 0; i < 16; ++i) ASSERT_EQ(gotA.as<uint32_t>()[i], i + 1) << "a " << i;
    for (size_t i = 0; i < 100; ++i) ASSERT_EQ(gotB.as<uint32_t>()[i], 3 * i) << "b " << i;
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].summary,
              "buffer 'a' was written outside its 64 bytes: byte 0 past its end (element 16) "
              "(guard zone)");
  }
}
