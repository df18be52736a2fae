# Run by ctest when it starts (clharness_discover_spec_tests): asks the program for one test per
# spec x device (`EXE __ctest SPECS`, which gives a GPU's test RESOURCE_LOCK gpu, and with
# `--pool KIND=TYPE` one test per spec for a pooled kind), names them PREFIX.SPEC.DEVICE and adds
# LABELS. Inputs: CLHARNESS_EXE, CLHARNESS_SPECS, CLHARNESS_PREFIX, CLHARNESS_LABELS,
# CLHARNESS_POOLS (KIND=TYPE...), CLHARNESS_LIST (the file the tests are written to).
set(clharness_pool_args)
foreach(pool IN LISTS CLHARNESS_POOLS)
  list(APPEND clharness_pool_args --pool "${pool}")
endforeach()
execute_process(COMMAND "${CLHARNESS_EXE}" __ctest "${CLHARNESS_SPECS}" --exe "${CLHARNESS_EXE}"
                        ${clharness_pool_args}
                OUTPUT_VARIABLE clharness_tests ERROR_VARIABLE clharness_error
                RESULT_VARIABLE clharness_rc)
if(NOT clharness_rc EQUAL 0)
  # A failing test that shows why (a bad spec, a program that was not built), not a silent zero.
  message(WARNING "${CLHARNESS_EXE} __ctest ${CLHARNESS_SPECS}: ${clharness_rc}\n${clharness_error}")
  set(clharness_tests "add_test([==[spec.registration-failed]==] [==[${CLHARNESS_EXE}]==] check \
[==[${CLHARNESS_SPECS}]==])\nset_tests_properties([==[spec.registration-failed]==] PROPERTIES \
LABELS \"spec\")\n")
endif()
# `__ctest` names its tests spec.SPEC.DEVICE (spec.SPEC.TYPE for a pool) and labels them
# "spec;KIND;simulator|device".
if(NOT CLHARNESS_PREFIX STREQUAL "spec")
  string(REPLACE "add_test([==[spec." "add_test([==[${CLHARNESS_PREFIX}." clharness_tests
                 "${clharness_tests}")
  string(REPLACE "set_tests_properties([==[spec." "set_tests_properties([==[${CLHARNESS_PREFIX}."
                 clharness_tests "${clharness_tests}")
endif()
if(CLHARNESS_LABELS)
  string(REPLACE "LABELS \"spec" "LABELS \"spec;${CLHARNESS_LABELS}" clharness_tests
                 "${clharness_tests}")
endif()
file(WRITE "${CLHARNESS_LIST}" "${clharness_tests}")
include("${CLHARNESS_LIST}")
