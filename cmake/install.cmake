# Installation (cmake --install build --prefix P) and the Debian package
# (cpack -G DEB in the build folder). The program, libraries and headers are
# installed by solver/ and analysis/, the plugin by paraview-plugin/; here the
# data, the docs, the CMake package and CPack's settings. Everything of
# Sphero's own is the component `sphero`; the plugin's shared object is
# ParaView's `Unspecified` (its module's static library `runtime`, which the
# plugin no longer needs once linked, and `development` are left out of the
# package).
include(CMakePackageConfigHelpers)

set(SPHERO_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/sphero")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/data/shapes" "${PROJECT_SOURCE_DIR}/data/scenes"
  "${PROJECT_SOURCE_DIR}/data/examples" DESTINATION "${SPHERO_INSTALL_DATADIR}" COMPONENT sphero
  USE_SOURCE_PERMISSIONS)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT sphero)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT sphero)

set(SPHERO_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/Sphero")
install(EXPORT SpheroTargets NAMESPACE Sphero:: DESTINATION "${SPHERO_CMAKE_DIR}" COMPONENT sphero)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/SpheroConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/SpheroConfig.cmake" INSTALL_DESTINATION "${SPHERO_CMAKE_DIR}"
  PATH_VARS SPHERO_INSTALL_DATADIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/SpheroConfigVersion.cmake" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/SpheroConfig.cmake" "${PROJECT_BINARY_DIR}/SpheroConfigVersion.cmake"
  DESTINATION "${SPHERO_CMAKE_DIR}" COMPONENT sphero)

# One package, sphero_<version>_amd64.deb, for a /usr prefix (configure with
# -DCMAKE_INSTALL_PREFIX=/usr, then cpack -G DEB). The program links
# ParaView's VTK, hence paraview; the rest are the shared libraries of what
# it links (CGAL is header-only).
set(CPACK_PACKAGE_NAME sphero)
set(CPACK_PACKAGE_VENDOR "Sphero")
set(CPACK_PACKAGE_CONTACT "Sphero developers <sphero@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Spheropolygon discrete-element simulations, packings and analysis\n"
  " sphero run/pack/analyze/figure/bench, the shape library and example scenes,\n"
  " the ParaView 5.11 plugin, and the libraries and CMake package (find_package(Sphero)).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "paraview (>= 5.11), libfmt9, libgmp10, libmpfr6, libboost-program-options1.74.0, libcairo2, libc6, libstdc++6")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "paraview-dev, libcgal-dev, libfmt-dev, libboost-program-options-dev, libcairo2-dev")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL sphero Unspecified)
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
include(CPack)
