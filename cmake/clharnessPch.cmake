# Precompiled headers: the standard library, fmt, nlohmann-json and GoogleTest parsed once per
# optimisation level rather than once per unity batch (docs/performance.md, "Precompiled headers
# with clang"): clang's header holds them with their templates instantiated, and a clean build
# takes 0.77 of the CPU it took without. -DCLHARNESS_PCH=OFF builds without them; with GCC they are
# off unless -DCLHARNESS_PCH=ON.
#
# A precompiled header is valid only where the compile's language options match its own: the
# optimisation level (__OPTIMIZE__), RTTI and position-independent code. So there are three donors,
# each a target of one empty source that builds the header: `hot` (-O2, the layers a case runs
# through), `cold` (-O0, the layers no run waits on) and `test` (-O0 with GoogleTest). A target
# takes a donor's header with clh_use_pch(); a source with options of its own (another -O, no RTTI)
# is left out of it. The Oclgrind plugin (no RTTI, position-independent) precompiles a header of
# its own with LLVM's. Headers of the project stay out: editing one rebuilds its users only.
# On by default with clang only: GCC's precompiled header cost a unit about what it saved
# (docs/performance.md, "The build").
set(clh_pch_default OFF)
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(clh_pch_default ON)
endif()
option(CLHARNESS_PCH "Precompile the third-party headers, once per optimisation level"
       ${clh_pch_default})
# ccache can reuse an object compiled with a precompiled header only when clang leaves the header's
# time stamp out of it (and ccache's sloppiness allows pch_defines and time_macros: ci/build.sh).
if(CLHARNESS_PCH AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  add_compile_options("SHELL:-Xclang -fno-pch-timestamp")
endif()

set(CLH_PCH_COMMON <algorithm> <chrono> <cstdint> <filesystem> <fstream> <functional> <map>
                   <memory> <mutex> <optional> <regex> <set> <sstream> <string> <thread>
                   <vector> <fmt/format.h> <nlohmann/json.hpp>)
# Not the OpenCL bindings: clang instantiates a precompiled header's templates once, in the header,
# and then emits them into every object that takes it, where their calls into OpenCL would be
# undefined in a library that has none (core, report, the sanitizer's rewrite).

# clh_pch_donor(KIND [OPTIONS...] [LIBS...] HEADERS...): the donor target clh_pch_KIND, whose
# header holds CLH_PCH_COMMON and HEADERS, compiled with OPTIONS and LIBS' usage requirements
# (their definitions, so that the header's users have no definition the header lacks).
function(clh_pch_donor kind)
  cmake_parse_arguments(ARG "" "" "OPTIONS;LIBS;HEADERS" ${ARGN})
  if(NOT CLHARNESS_PCH)
    return()
  endif()
  set(donor ${CMAKE_BINARY_DIR}/pch/donor.cpp)
  if(NOT EXISTS ${donor})
    file(WRITE ${donor} "// The source of a precompiled header's donor (cmake/clharnessPch.cmake).\n")
  endif()
  add_library(clh_pch_${kind} OBJECT ${donor})
  target_compile_features(clh_pch_${kind} PRIVATE cxx_std_20)
  target_compile_options(clh_pch_${kind} PRIVATE ${ARG_OPTIONS})
  target_link_libraries(clh_pch_${kind} PRIVATE ${ARG_LIBS})
  target_precompile_headers(clh_pch_${kind} PRIVATE ${CLH_PCH_COMMON} ${ARG_HEADERS})
  set_target_properties(clh_pch_${kind} PROPERTIES UNITY_BUILD OFF)
endfunction()

clh_pch_donor(hot)
clh_pch_donor(cold OPTIONS ${CLHARNESS_COLD_OPTIONS})

# clh_use_pch(TARGET KIND): TARGET's sources take the precompiled header of KIND (hot, cold or
# test), except those with compile options of their own.
function(clh_use_pch target kind)
  if(NOT CLHARNESS_PCH)
    return()
  endif()
  target_precompile_headers(${target} REUSE_FROM clh_pch_${kind})
  get_target_property(sources ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  foreach(source ${sources})
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${dir})
    get_source_file_property(options ${source} TARGET_DIRECTORY ${target} COMPILE_OPTIONS)
    if(options)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES
                                  SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
