// The GoogleTest main of every suite (clh_add_gtest), some of which run drivers in-process on
// launches the specification forbids or that fail:
// ended without exit-time destructors, since PoCL 3.1 (__local arguments over its own
// CL_DEVICE_LOCAL_MEM_SIZE) and Oclgrind 21.10 (a 0 in the local size) can leave the heap damaged,
// and a free() at exit then aborts a run whose tests passed ("corrupted double-linked list").
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  std::fflush(nullptr);
  std::_Exit(rc);
}
