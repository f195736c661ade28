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
  "${PROJECT_SOURCE_DIR}/data/examples" "${PROJECT_SOURCE_DIR}/data/opencl" DESTINATION "${SPHERO_INSTALL_DATADIR}" COMPONENT sphero
  USE_SOURCE_PERMISSIONS)
set(SPHERO_INSTALL_DOCDIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/sphero")  # Debian names it after the package
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${SPHERO_INSTALL_DOCDIR}" COMPONENT sphero)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${SPHERO_INSTALL_DOCDIR}" COMPONENT sphero)

# ParaView 5.11 loads at start every plugin in the folder `plugins` beside
# its executable (its log: "Loading Plugins from standard PLUGIN_PATHS
# /usr/bin/plugins"); Debian's ships none there. A link of that name to the
# plugin's folder makes paraview and pvpython under the same prefix load
# Sphero without PV_PLUGIN_PATH.
if(SPHERO_HAVE_PARAVIEW)
  file(RELATIVE_PATH plugin_from_bin "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${SPHERO_PLUGIN_INSTALL_DIR}")
  install(CODE "
    set(link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/plugins\")
    if(NOT EXISTS \"\${link}\" AND NOT IS_SYMLINK \"\${link}\")
      execute_process(COMMAND \"${CMAKE_COMMAND}\" -E create_symlink \"${plugin_from_bin}\" \"\${link}\")
    endif()" COMPONENT sphero)
endif()

set(SPHERO_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/Sphero")
install(EXPORT SpheroTargets NAMESPACE Sphero:: DESTINATION "${SPHERO_CMAKE_DIR}" COMPONENT sphero)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/SpheroConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/SpheroConfig.cmake" INSTALL_DESTINATION "${SPHERO_CMAKE_DIR}"
  PATH_VARS SPHERO_INSTALL_DATADIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/SpheroConfigVersion.cmake" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/SpheroConfig.cmake" "${PROJECT_BINARY_DIR}/SpheroConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/FindCHOLMOD.cmake" DESTINATION "${SPHERO_CMAKE_DIR}" COMPONENT sphero)

# One package, sphero_<version>_amd64.deb, installing under /usr (cpack -G
# DEB in the build folder). The program links ParaView's VTK, hence
# paraview; the rest are the shared libraries of what it links (CGAL is
# header-only) and what the Python module needs.
set(CPACK_PACKAGE_NAME sphero)
set(CPACK_PACKAGE_VENDOR "Sphero")
set(CPACK_PACKAGE_CONTACT "Sphero developers <sphero@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Spheropolygon discrete-element simulations, packings and analysis:
sphero run, pack, analyze, figure and bench; the shape library and example
scenes; the ParaView 5.11 plugin; the Python module; the libraries, headers
and CMake package (find_package(Sphero)).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "paraview (>= 5.11), libfmt9, libgmp10, libmpfr6, libboost-program-options1.74.0, libcairo2, libcholmod3, ocl-icd-libopencl1, libopenmpi3, libtrilinos-zoltan-13.2, libc6, libstdc++6, python3 (>= 3.11), python3-numpy")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "paraview-dev, libcgal-dev, libsuitesparse-dev, libfmt-dev, libboost-program-options-dev, libcairo2-dev")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL sphero Unspecified)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
