# Test of cmake/clharnessDiscoverTests.cmake (cmake -DROOT=SOURCE_ROOT -P this): from the lines of
# `__ctest` (printed by a stand-in program), tests named PREFIX.SPEC.DEVICE with the extra labels,
# the properties `__ctest` gave (RESOURCE_LOCK, RESOURCE_GROUPS) kept, POOL handed to it as
# `--pool KIND=TYPE`, a failing test when the program fails, and a bad POOL refused by
# clharness_discover_spec_tests.
string(RANDOM LENGTH 8 suffix)
set(dir "${CMAKE_CURRENT_BINARY_DIR}/clharness-discover-${suffix}")
file(MAKE_DIRECTORY "${dir}")
# add_test() and set_tests_properties() are ctest's; here they record what they are given.
function(add_test)
  set_property(GLOBAL APPEND_STRING PROPERTY recorded "add_test(${ARGV})\n")
endfunction()
function(set_tests_properties)
  set_property(GLOBAL APPEND_STRING PROPERTY recorded "set_tests_properties(${ARGV})\n")
endfunction()

function(expect what text)
  get_property(recorded GLOBAL PROPERTY recorded)
  string(FIND "${recorded}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: '${text}' not in:\n${recorded}")
  endif()
endfunction()

file(WRITE "${dir}/fake.sh" [===[#!/bin/sh
[ "$1" = __ctest ] || exit 2
echo "$@" > "$(dirname "$0")/args"
cat <<'LINES'
add_test([==[spec.k.gpu0]==] [==[/x/runner]==] check [==[/s/k.yaml]==] --device [==[^G$]==] --no-driver-checks)
set_tests_properties([==[spec.k.gpu0]==] PROPERTIES LABELS "spec;gpu;device" SKIP_RETURN_CODE 3 TIMEOUT 900 RESOURCE_LOCK gpu)
add_test([==[spec.k.cpu0]==] [==[/x/runner]==] check [==[/s/k.yaml]==] --device [==[^C$]==] --no-driver-checks)
set_tests_properties([==[spec.k.cpu0]==] PROPERTIES LABELS "spec;cpu;device" SKIP_RETURN_CODE 3 TIMEOUT 900)
add_test([==[spec.k.cpus]==] [==[/x/runner]==] check [==[/s/k.yaml]==] --device [==[ctest:cpus]==] --no-driver-checks)
set_tests_properties([==[spec.k.cpus]==] PROPERTIES LABELS "spec;cpu;device" SKIP_RETURN_CODE 3 TIMEOUT 900 RESOURCE_GROUPS "cpus:1")
LINES
]===])
file(CHMOD "${dir}/fake.sh" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(CLHARNESS_EXE "${dir}/fake.sh")
set(CLHARNESS_SPECS "/s")
set(CLHARNESS_PREFIX "mine")
set(CLHARNESS_LABELS "a;b")
set(CLHARNESS_POOLS "cpu=cpus;gpu=gpus")
set(CLHARNESS_LIST "${dir}/list.cmake")
include("${ROOT}/cmake/clharnessDiscoverTests.cmake")
expect("renamed" "add_test(mine.k.gpu0;")
expect("GPU locked" "set_tests_properties(mine.k.gpu0;PROPERTIES;LABELS;spec;a;b;gpu;device;SKIP_RETURN_CODE;3;TIMEOUT;900;RESOURCE_LOCK;gpu)")
expect("CPU not locked" "set_tests_properties(mine.k.cpu0;PROPERTIES;LABELS;spec;a;b;cpu;device;SKIP_RETURN_CODE;3;TIMEOUT;900)")
expect("pool test" "add_test(mine.k.cpus;/x/runner;check;/s/k.yaml;--device;ctest:cpus;--no-driver-checks)")
expect("pool resources" "set_tests_properties(mine.k.cpus;PROPERTIES;LABELS;spec;a;b;cpu;device;SKIP_RETURN_CODE;3;TIMEOUT;900;RESOURCE_GROUPS;cpus:1)")
file(READ "${dir}/args" args)
string(FIND "${args}" "--exe ${dir}/fake.sh --pool cpu=cpus --pool gpu=gpus" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the pools were not handed to __ctest: ${args}")
endif()

set_property(GLOBAL PROPERTY recorded "")
set(CLHARNESS_EXE "${dir}/missing-program")
include("${ROOT}/cmake/clharnessDiscoverTests.cmake")
expect("a failing test" "add_test(mine.registration-failed;${dir}/missing-program;check;/s)")

# A POOL that `__ctest` would refuse stops the configuration.
file(WRITE "${dir}/bad_pool.cmake" "include([==[${ROOT}/cmake/clharnessFunctions.cmake]==])
clharness_discover_spec_tests(EXE x SPECS /s PREFIX p POOL gpu=GPUs)\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -P "${dir}/bad_pool.cmake" RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "POOL gpu=GPUs: expected KIND=TYPE")
  message(FATAL_ERROR "a bad POOL was not refused (exit ${rc}):\n${err}")
endif()
file(REMOVE_RECURSE "${dir}")
message(STATUS "discovery: names, labels, pools and the GPU lock as expected")
