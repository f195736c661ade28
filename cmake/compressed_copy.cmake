# compressed_copy(SOURCE DESTINATION [ONLY_VARIABLES]): DESTINATION.gz, SOURCE
# configured (@VAR@ replaced with ONLY_VARIABLES, copied as it is without)
# and compressed as man and Debian expect, without a name or a time in the
# gzip header so that the same source gives the same bytes.
function(compressed_copy source destination)
  if(ARGN STREQUAL "ONLY_VARIABLES")
    configure_file("${source}" "${destination}" @ONLY)
  else()
    configure_file("${source}" "${destination}" COPYONLY)
  endif()
  execute_process(COMMAND gzip -9nf "${destination}" RESULT_VARIABLE gzip_failed)
  if(gzip_failed)
    message(FATAL_ERROR "gzip could not compress ${destination}")
  endif()
endfunction()
