# clharness_add_kernel_tests() and the spec x device CTest registration, in-tree and installed
# (docs/framework.md). Included by the package config (find_package(clharness)) and by this build.
include_guard(GLOBAL)
set(_CLHARNESS_DISCOVER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/clharnessDiscoverTests.cmake")

# clharness_add_program_source(TARGET ROOT root NAME name)
# What a program that links clharness::cli says of itself (harness/app/main.cpp): the folder spec
# `source:` paths and the default specs/ resolve against, and the name its replay commands use.
# NAME may be a generator expression.
function(clharness_add_program_source target)
  cmake_parse_arguments(ARG "" "ROOT;NAME" "" ${ARGN})
  set(source "${CMAKE_CURRENT_BINARY_DIR}/${target}_program.cpp")
  file(GENERATE OUTPUT "${source}" CONTENT "// What ${target} says of itself to clharness's main().
namespace clh {
extern const char* const kProgramRoot;
extern const char* const kProgramName;
const char* const kProgramRoot = R\"clh(${ARG_ROOT})clh\";
const char* const kProgramName = R\"clh(${ARG_NAME})clh\";
}  // namespace clh
")
  target_sources(${target} PRIVATE "${source}")
endfunction()

# clharness_discover_spec_tests(EXE exe SPECS dir PREFIX name [LABELS label...]
#                               [POOL kind=type...])
# One CTest test PREFIX.SPEC.DEVICE per spec of `dir` x device found, listed when ctest starts
# (`EXE __ctest`), so a new spec or device needs no CMake run. Labels: spec, the device's kind (cpu,
# gpu, accelerator), simulator or device, and LABELS; a GPU test holds RESOURCE_LOCK gpu. POOL
# gpu=gpus: the devices of that kind get one test PREFIX.SPEC.gpus per spec instead, with
# RESOURCE_GROUPS "gpus:1", run on the device ctest allocates (`ctest --resource-spec-file`,
# docs/ci.md).
function(clharness_discover_spec_tests)
  cmake_parse_arguments(ARG "" "EXE;SPECS;PREFIX" "LABELS;POOL" ${ARGN})
  if(NOT ARG_EXE OR NOT ARG_SPECS OR NOT ARG_PREFIX)
    message(FATAL_ERROR "clharness_discover_spec_tests: EXE, SPECS and PREFIX are required")
  endif()
  foreach(pool IN LISTS ARG_POOL)
    # What `__ctest --pool` accepts: checked here, where a mistake can stop the configuration.
    if(NOT pool MATCHES "^(cpu|gpu|accelerator|simulator)=[a-z_][a-z0-9_]*$")
      message(FATAL_ERROR "clharness_discover_spec_tests: POOL ${pool}: expected KIND=TYPE, KIND "
                          "one of cpu, gpu, accelerator, simulator and TYPE a CTest resource type "
                          "(lower-case letters, digits, '_'), e.g. POOL gpu=gpus")
    endif()
  endforeach()
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${ARG_PREFIX}_spec_tests.cmake")
  file(GENERATE OUTPUT "${script}" CONTENT "# Lists ${ARG_PREFIX}'s spec tests when ctest starts.
set(CLHARNESS_EXE [==[${ARG_EXE}]==])
set(CLHARNESS_SPECS [==[${ARG_SPECS}]==])
set(CLHARNESS_PREFIX [==[${ARG_PREFIX}]==])
set(CLHARNESS_LABELS [==[${ARG_LABELS}]==])
set(CLHARNESS_POOLS [==[${ARG_POOL}]==])
set(CLHARNESS_LIST [==[${CMAKE_CURRENT_BINARY_DIR}/${ARG_PREFIX}_spec_tests_list.cmake]==])
include([==[${_CLHARNESS_DISCOVER_SCRIPT}]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

# clharness_add_kernel_tests(TARGET name SPECS dir REFERENCES refs.cpp... [LABELS label...]
#                            [ROOT dir] [POOL kind=type...])
# Builds `name`, a runner: the clharness tool (every command, `check` included) with the
# CLH_REFERENCE functions of REFERENCES linked in, and registers one CTest test name.SPEC.DEVICE
# per spec of SPECS x device found when ctest runs (clharness_discover_spec_tests, which POOL goes
# to). ROOT (default: the current source folder) is where the runner resolves `source:` paths
# first; a spec's own folder comes next.
function(clharness_add_kernel_tests)
  cmake_parse_arguments(ARG "" "TARGET;SPECS;ROOT" "REFERENCES;LABELS;POOL" ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_SPECS)
    message(FATAL_ERROR "clharness_add_kernel_tests: TARGET and SPECS are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "clharness_add_kernel_tests: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(specs "${ARG_SPECS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(root "${CMAKE_CURRENT_SOURCE_DIR}")
  if(ARG_ROOT)
    get_filename_component(root "${ARG_ROOT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()

  # The references are the executable's own objects, so every CLH_REFERENCE registration is kept;
  # main() and the commands come from the clharness::cli static library.
  add_executable(${ARG_TARGET} ${ARG_REFERENCES})
  target_link_libraries(${ARG_TARGET} PRIVATE clharness::cli clharness::core)
  clharness_add_program_source(${ARG_TARGET} ROOT "${root}" NAME "$<TARGET_FILE:${ARG_TARGET}>")
  if(TARGET clharness::oclgrind_plugin)
    # The simulator's plugin beside the runner, where clharness looks for it (sim/).
    add_custom_command(TARGET ${ARG_TARGET} POST_BUILD
                       COMMAND "${CMAKE_COMMAND}" -E copy_if_different
                               "$<TARGET_FILE:clharness::oclgrind_plugin>"
                               "$<TARGET_FILE_DIR:${ARG_TARGET}>")
  endif()
  clharness_discover_spec_tests(EXE "$<TARGET_FILE:${ARG_TARGET}>" SPECS "${specs}"
                                PREFIX ${ARG_TARGET} LABELS ${ARG_LABELS} POOL ${ARG_POOL})
endfunction()
