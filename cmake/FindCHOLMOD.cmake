# Finds SuiteSparse's CHOLMOD (Debian: libsuitesparse-dev), which ships
# neither a CMake config nor a pkg-config file before SuiteSparse 7.
# Defines the imported target SuiteSparse::CHOLMOD; the shared library
# brings its own dependencies (AMD, COLAMD, METIS, BLAS, LAPACK).
find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse)
find_library(CHOLMOD_LIBRARY cholmod)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CHOLMOD REQUIRED_VARS CHOLMOD_LIBRARY CHOLMOD_INCLUDE_DIR)

if(CHOLMOD_FOUND AND NOT TARGET SuiteSparse::CHOLMOD)
  add_library(SuiteSparse::CHOLMOD UNKNOWN IMPORTED)
  set_target_properties(SuiteSparse::CHOLMOD PROPERTIES
    IMPORTED_LOCATION "${CHOLMOD_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CHOLMOD_INCLUDE_DIR}")
endif()
mark_as_advanced(CHOLMOD_INCLUDE_DIR CHOLMOD_LIBRARY)
