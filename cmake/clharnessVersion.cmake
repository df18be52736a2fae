# Generates core/version.hpp (the project version and git revision) under the build's generated/
# folder; CLHARNESS_GENERATED_INCLUDE_DIR is put on clharness::core's include path.
include(${CMAKE_CURRENT_LIST_DIR}/clharnessGitRevision.cmake)
clharness_git_revision(CLHARNESS_GIT_REVISION "${PROJECT_SOURCE_DIR}")
clharness_git_revision_inputs(clharness_git_inputs "${PROJECT_SOURCE_DIR}")
# A commit or a checkout changes these files: the next build reconfigures and takes the new revision.
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${clharness_git_inputs})
set(CLHARNESS_GENERATED_INCLUDE_DIR "${PROJECT_BINARY_DIR}/generated")
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in
               "${CLHARNESS_GENERATED_INCLUDE_DIR}/core/version.hpp" @ONLY)
message(STATUS "clharness ${PROJECT_VERSION} (git ${CLHARNESS_GIT_REVISION})")
