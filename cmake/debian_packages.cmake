# The Debian packages (cpack -G DEB in a build folder; tools/debian-packages
# makes both). A build with ParaView's SDK makes `sphero-paraview`, the
# plugin alone; a build against Debian's VTK (-DSPHERO_WITH_PARAVIEW=OFF)
# makes `sphero`: the program, data, docs, Python module, headers and CMake
# package. Two builds, because the program built with ParaView links
# ParaView's VTK, and a command-line package must not pull in ParaView.
#
# The maintainer is given when the package is made, as Debian's tools take
# it: DEBFULLNAME and DEBEMAIL, or cpack -D
# CPACK_DEBIAN_PACKAGE_MAINTAINER="Name <address>".

set(SPHERO_DEBIAN_DIR "${PROJECT_BINARY_DIR}/debian")
# The Debian revision of this version's packages; raised when the
# packaging alone changes.
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(SPHERO_PACKAGE_VERSION "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")
file(COPY "${PROJECT_SOURCE_DIR}/cmake/debian/copyright" DESTINATION "${SPHERO_DEBIAN_DIR}")

if(SPHERO_HAVE_PARAVIEW)
  set(SPHERO_PACKAGE sphero-paraview)
  # ParaView loads at start the plugins of the folders PV_PLUGIN_PATH names
  # (Remoting/Core/vtkPVPluginLoader.cxx); an environment file sets it for
  # login shells and one for systemd's graphical sessions.
  set(SPHERO_PLUGIN_PATH "/usr/${SPHERO_PLUGIN_INSTALL_DIR}")
  configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/sphero-paraview.sh.in"
    "${SPHERO_DEBIAN_DIR}/sphero-paraview.sh" @ONLY)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/60-sphero-paraview.conf.in"
    "${SPHERO_DEBIAN_DIR}/60-sphero-paraview.conf" @ONLY)
  # Relative to the package's /usr: /etc and /usr/lib. Left out of
  # `cmake --install`, which must not write into a prefix's etc.
  install(FILES "${SPHERO_DEBIAN_DIR}/sphero-paraview.sh" DESTINATION "../etc/profile.d"
    COMPONENT debian EXCLUDE_FROM_ALL)
  install(FILES "${SPHERO_DEBIAN_DIR}/60-sphero-paraview.conf" DESTINATION "lib/environment.d"
    COMPONENT debian EXCLUDE_FROM_ALL)
  file(WRITE "${SPHERO_DEBIAN_DIR}/conffiles" "/etc/profile.d/sphero-paraview.sh\n")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${SPHERO_DEBIAN_DIR}/conffiles")
  set(CPACK_COMPONENTS_ALL Unspecified debian)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "sphero (= ${SPHERO_PACKAGE_VERSION})")
  # The plugin was in sphero 0.1.0, the one package of program and plugin
  # before the split.
  set(CPACK_DEBIAN_PACKAGE_BREAKS "sphero (<< 0.1.0-2)")
  set(CPACK_DEBIAN_PACKAGE_REPLACES "sphero (<< 0.1.0-2)")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ParaView plugin for Sphero's granular simulations")
  set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Opens Sphero's runs (run.sphero) in ParaView 5.11 as one time-aware source:
grains, contacts, walls and the energy ledger as a table; shape files as
their exact rounded outlines; and filters for granular stress, void ratio,
force chains and coarse-grained continuum fields. ParaView loads it at
start through PV_PLUGIN_PATH, set for login shells and graphical sessions.")
else()
  set(SPHERO_PACKAGE sphero)
  set(CPACK_COMPONENTS_ALL sphero debian)
  # The Python module is built for one Python: the one this build found.
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  math(EXPR next_minor "${Python3_VERSION_MINOR} + 1")
  set(python "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "python3 (>= ${python}), python3 (<< ${Python3_VERSION_MAJOR}.${next_minor}), python3-numpy")
  # Programs of one's own built with find_package(Sphero) need the headers
  # of what the static libraries link.
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "sphero-paraview (= ${SPHERO_PACKAGE_VERSION}), libvtk9-dev, libcgal-dev, libeigen3-dev, \
libsuitesparse-dev, libfmt-dev, libboost-program-options-dev, libcairo2-dev, libopenmpi-dev, libtrilinos-zoltan-dev")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Discrete-element simulations of 2D spheropolygon grains")
  set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Sphero simulates 2D granular materials made of spheropolygons (polygons,
polylines, segments or points swept by a disk, convex or not) with a soft
contact model or the rigid A-CD2 model, packs samples, drives multi-stage
compression and shear, and analyses the runs: stress, void ratio, force
chains, coarse-grained fields and publication figures.
.
This package holds the program sphero (run, pack, analyze, figure,
coarse-grain, bench), the shape library and example scenes, the Python
module, and the static libraries, headers and CMake package for programs
of one's own. The ParaView plugin is in sphero-paraview.")
endif()

# The copyright and changelog every Debian package carries, in its own doc
# folder; the changelog is written when the package is made, with its
# maintainer (cmake/debian/package_time.cmake).
install(FILES "${SPHERO_DEBIAN_DIR}/copyright" "${SPHERO_DEBIAN_DIR}/changelog.Debian.gz"
  DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/${SPHERO_PACKAGE}" COMPONENT debian EXCLUDE_FROM_ALL)

set(CPACK_PACKAGE_NAME "${SPHERO_PACKAGE}")
set(CPACK_PACKAGE_VENDOR "Sphero")
set(CPACK_PACKAGE_CONTACT "")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
# dpkg-shlibdeps names the packages of the shared libraries the binaries
# link (Debian's VTK or ParaView, CHOLMOD, MPI, ...).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(SPHERO_CHANGELOG_IN "${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in")
configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/package_time.cmake.in"
  "${SPHERO_DEBIAN_DIR}/package_time.cmake" @ONLY)
set(CPACK_PROJECT_CONFIG_FILE "${SPHERO_DEBIAN_DIR}/package_time.cmake")
include(CPack)
