# Install rules and the exported package: the tool, the Oclgrind plugin, the libraries as
# clharness:: targets, their headers under include/clharness/ (included as "core/...", "cl/...",
# as in this tree), and find_package(clharness) files (docs/framework.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CLHARNESS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/clharness")
set(CLHARNESS_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/clharness")

# The library layers whose headers are public (harness/layers.txt, read by harness/CMakeLists.txt):
# all but the CLI (harness/app), the simulator's plugin and the references, which have none.
set(clharness_layers ${CLH_LAYERS})
list(REMOVE_ITEM clharness_layers app oclgrind references)
set(clharness_libraries clharness_cli)
foreach(layer ${clharness_layers})
  list(APPEND clharness_libraries clharness_${layer})
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/harness/${layer}/"
          DESTINATION "${CLHARNESS_INSTALL_INCLUDEDIR}/${layer}" FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES "${CLHARNESS_GENERATED_INCLUDE_DIR}/core/version.hpp"
        DESTINATION "${CLHARNESS_INSTALL_INCLUDEDIR}/core")

# A layer puts its source folder on its include path; exported, that is this build's path only.
foreach(target ${clharness_libraries})
  string(REGEX REPLACE "^clharness_" "" name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(dirs)
    set(wrapped "")
    foreach(dir ${dirs})
      if(dir MATCHES "^\\$<")
        list(APPEND wrapped "${dir}")
      else()
        list(APPEND wrapped "$<BUILD_INTERFACE:${dir}>")
      endif()
    endforeach()
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${wrapped}")
  endif()
endforeach()

install(TARGETS clharness ${clharness_libraries} EXPORT clharnessTargets
        RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CLHARNESS_INSTALL_INCLUDEDIR}")
if(TARGET clharness_oclgrind_plugin)
  # Not a library to link: in a folder of its own, where the installed tool looks for it
  # (sim/oclgrind_session.cpp: BINDIR/../LIBDIR/clharness).
  set_target_properties(clharness_oclgrind_plugin PROPERTIES EXPORT_NAME oclgrind_plugin)
  install(TARGETS clharness_oclgrind_plugin EXPORT clharnessTargets
          LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/clharness")
endif()

# The sanitizer's rewriting helper: beside the tool, where it looks first (sanitize/helper.cpp).
install(TARGETS clharness-rewrite RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

install(EXPORT clharnessTargets NAMESPACE clharness:: DESTINATION "${CLHARNESS_INSTALL_CMAKEDIR}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/clharnessConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/clharnessConfig.cmake"
                              INSTALL_DESTINATION "${CLHARNESS_INSTALL_CMAKEDIR}")
# 0.x: a minor version may change the API, so 0.1 accepts 0.1.* only.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/clharnessConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/clharnessConfig.cmake"
              "${PROJECT_BINARY_DIR}/clharnessConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/clharnessFunctions.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/clharnessDiscoverTests.cmake"
        DESTINATION "${CLHARNESS_INSTALL_CMAKEDIR}")
