# Installation (cmake --install build --prefix P). The program, libraries
# and headers are installed by solver/ and analysis/, the plugin by
# paraview-plugin/; here the data, the docs and the CMake package. Everything
# of Sphero's own is the component `sphero`; the plugin's shared object is
# ParaView's `Unspecified`. The Debian packages are made from these
# components (cmake/debian_packages.cmake).
include(CMakePackageConfigHelpers)

set(SPHERO_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/sphero")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/data/shapes" "${PROJECT_SOURCE_DIR}/data/scenes"
  "${PROJECT_SOURCE_DIR}/data/examples" "${PROJECT_SOURCE_DIR}/data/opencl" DESTINATION "${SPHERO_INSTALL_DATADIR}" COMPONENT sphero
  USE_SOURCE_PERMISSIONS)
set(SPHERO_INSTALL_DOCDIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/sphero")  # Debian names it after the package
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${SPHERO_INSTALL_DOCDIR}" COMPONENT sphero
  PATTERN "CHANGES.md" EXCLUDE)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${SPHERO_INSTALL_DOCDIR}" COMPONENT sphero)
# What changed for users, by version, where Debian keeps an upstream
# changelog: doc/sphero/changelog.gz (zless reads it).
compressed_copy("${PROJECT_SOURCE_DIR}/docs/CHANGES.md" "${PROJECT_BINARY_DIR}/doc/changelog")
install(FILES "${PROJECT_BINARY_DIR}/doc/changelog.gz" DESTINATION "${SPHERO_INSTALL_DOCDIR}" COMPONENT sphero)

set(SPHERO_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/Sphero")
install(EXPORT SpheroTargets NAMESPACE Sphero:: DESTINATION "${SPHERO_CMAKE_DIR}" COMPONENT sphero)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/SpheroConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/SpheroConfig.cmake" INSTALL_DESTINATION "${SPHERO_CMAKE_DIR}"
  PATH_VARS SPHERO_INSTALL_DATADIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/SpheroConfigVersion.cmake" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/SpheroConfig.cmake" "${PROJECT_BINARY_DIR}/SpheroConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/FindCHOLMOD.cmake" DESTINATION "${SPHERO_CMAKE_DIR}" COMPONENT sphero)

include(cmake/debian_packages.cmake)
