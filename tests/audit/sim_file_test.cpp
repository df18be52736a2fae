// Oclgrind's .sim grammar (scan/sim_file.hpp) and scan's argument helpers, without a device.
#include "scan/sim_file.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "scan/scan.hpp"

namespace {

using clh::scan::ScanUsageError;
using clh::scan::SimArgument;

std::string writeSim(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name + ".sim";
  std::ofstream(path) << text;
  return path;
}

std::string usageError(const std::function<void()>& f) {
  try {
    f();
  } catch (const ScanUsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SimFile, ReadsHeaderArgumentsCommentsAndTheArgsLine) {
  const auto path = writeSim("full",
                             "# ARGS: --build-options -cl-std=CL2.0 -i\n"
                             "k.cl  # the program\n"
                             "kern\n"
                             "8 2 1\n"
                             "4 1 1\n"
                             "<size=32 range=0:1:7 dump>\n"
                             "<size=8 hex int>  0a\n"
                             "  ff\n"
                             "<null>\n"
                             "<size=16>\n");
  const auto sim = clh::scan::parseSimFile(path);
  EXPECT_EQ(sim.kernel, "kern");
  EXPECT_EQ(sim.kernel_file, (std::filesystem::path(path).parent_path() / "k.cl").string());
  EXPECT_EQ(sim.global, (std::vector<size_t>{8, 2, 1}));
  EXPECT_EQ(sim.local, (std::vector<size_t>{4, 1, 1}));
  EXPECT_EQ(sim.build_options, "-cl-std=CL2.0");
  EXPECT_EQ(sim.ignored_args, std::vector<std::string>{"-i"});
  ASSERT_EQ(sim.args.size(), 4u);
  EXPECT_EQ(sim.args[0].range, "0:1:7");
  EXPECT_TRUE(sim.args[0].dump);
  EXPECT_EQ(sim.args[1].values, (std::vector<std::string>{"0a", "ff"}));
  EXPECT_EQ(sim.args[1].line, 7);
  EXPECT_TRUE(sim.args[2].null);
  EXPECT_EQ(sim.args[3].size, 16u);
  // The values as oclgrind-kernel makes them.
  auto hex = clh::scan::simArgumentBytes(sim.args[1], "int", path, "x");
  int32_t ints[2];
  ASSERT_EQ(hex.size(), sizeof ints);
  std::memcpy(ints, hex.data(), sizeof ints);
  EXPECT_EQ(ints[0], 10);
  EXPECT_EQ(ints[1], 255);
  auto range = clh::scan::simArgumentBytes(sim.args[0], "float", path, "a");
  float floats[8];
  std::memcpy(floats, range.data(), sizeof floats);
  EXPECT_EQ(floats[7], 7.0f);
}

TEST(SimFile, RefusesWhatOclgrindKernelRefusesWithTheLine) {
  EXPECT_EQ(usageError([] {
              clh::scan::parseSimFile(writeSim("nosize", "k.cl k 1 1 1 1 1 1\n<fill=0>\n"));
            }),
            std::string(::testing::TempDir() + "/nosize.sim:2: size required"));
  EXPECT_NE(usageError([] {
              clh::scan::parseSimFile(writeSim("token", "k.cl k 1 1 1 1 1 1\n<size=4 bogus>\n"));
            }).find(":2: unrecognised header token 'bogus'"),
            std::string::npos);
  EXPECT_NE(usageError([] {
              clh::scan::parseSimFile(writeSim("nohdr", "k.cl k 1 1 1 1 1 1\n42\n"));
            }).find(":2: expected argument header"),
            std::string::npos);
  EXPECT_NE(usageError([] {
              clh::scan::parseSimFile(writeSim("short", "k.cl k 1 1\n"));
            }).find("unexpected end when reading the NDRange"),
            std::string::npos);
  SimArgument a;
  a.line = 3;
  a.size = 12;
  a.sized = true;
  a.range = "0:1:7";
  EXPECT_NE(usageError([&] {
              clh::scan::simArgumentBytes(a, "int", "x.sim", "a");
            }).find("x.sim:3: argument 'a': range doesn't produce correct buffer size"),
            std::string::npos);
  a.range.clear();
  a.values = {"1", "2"};
  EXPECT_NE(usageError([&] {
              clh::scan::simArgumentBytes(a, "int", "x.sim", "a");
            }).find("3 values of the argument's 3 (size 12 / 4), found 2"),
            std::string::npos);
  a.size = 1;
  a.values = {"300"};
  EXPECT_NE(usageError([&] {
              clh::scan::simArgumentBytes(a, "char", "x.sim", "a");
            }).find("out of range"),
            std::string::npos);
  EXPECT_EQ(clh::scan::simDefaultType("float4*"), "float");
  EXPECT_EQ(clh::scan::simDefaultType("void*"), "uchar");
  EXPECT_EQ(clh::scan::simDefaultType("struct S"), "");
}

TEST(ScanArguments, NonUniformGroupsVectorsAndOpaqueTypes) {
  EXPECT_TRUE(clh::scan::allowsNonUniformGroups("-cl-std=CL2.0"));
  EXPECT_TRUE(clh::scan::allowsNonUniformGroups("-DX=1 -cl-std=CL3.0 -g"));
  EXPECT_FALSE(clh::scan::allowsNonUniformGroups("-cl-std=CL1.2"));
  EXPECT_FALSE(clh::scan::allowsNonUniformGroups(""));
  EXPECT_FALSE(clh::scan::allowsNonUniformGroups("-cl-std=CL2.0 -cl-uniform-work-group-size"));
  // int3 occupies four lanes; one value fills every lane.
  auto bytes = clh::scan::vectorBytes(clh::ElemType::i32, 4, {7});
  ASSERT_EQ(bytes.size(), 16u);
  int32_t lanes[4];
  std::memcpy(lanes, bytes.data(), sizeof lanes);
  EXPECT_EQ(lanes[3], 7);
  EXPECT_TRUE(clh::scan::fillableType("image2d_t"));  // scan makes 1-D to 3-D images, samplers
  EXPECT_TRUE(clh::scan::fillableType("sampler_t"));
  EXPECT_TRUE(clh::scan::fillableType("image1d_t"));
  EXPECT_TRUE(clh::scan::fillableType("image3d_t"));
  EXPECT_FALSE(clh::scan::fillableType("image1d_array_t"));
  EXPECT_FALSE(clh::scan::fillableType("image1d_buffer_t"));
  EXPECT_FALSE(clh::scan::fillableType("image2d_array_t"));
  EXPECT_FALSE(clh::scan::fillableType("image2d_depth_t"));
  EXPECT_EQ(clh::scan::imageDimensions("image1d_t"), 1);
  EXPECT_EQ(clh::scan::imageDimensions("image2d_t"), 2);
  EXPECT_EQ(clh::scan::imageDimensions("image3d_t"), 3);
  EXPECT_EQ(clh::scan::imageDimensions("image2d_array_t"), 0);
  EXPECT_EQ(clh::scan::imageDimensions("float*"), 0);
  EXPECT_TRUE(clh::scan::isSampler("sampler_t"));
  EXPECT_TRUE(clh::scan::fillableType("struct Params"));
  EXPECT_TRUE(clh::scan::fillableType("float4"));
}

}  // namespace
