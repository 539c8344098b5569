# Files that Debian wants installed compressed (manual pages, the changelog):
# rgx_install_gzipped(SOURCE DESTINATION NAME) compresses SOURCE at build
# time with `gzip -9n` (no name, no time stamp: every build makes the same
# bytes) and installs it as DESTINATION/NAME.
find_program(RGX_GZIP gzip REQUIRED)

function(rgx_install_gzipped source destination name)
  get_filename_component(source ${source} ABSOLUTE)
  set(uncompressed ${CMAKE_CURRENT_BINARY_DIR}/gzipped/${name})
  string(REGEX REPLACE "\\.gz$" "" uncompressed ${uncompressed})
  add_custom_command(OUTPUT ${uncompressed}.gz
                     COMMAND ${CMAKE_COMMAND} -E copy ${source} ${uncompressed}
                     COMMAND ${RGX_GZIP} -9nf ${uncompressed}
                     DEPENDS ${source}
                     COMMENT "gzip -9n ${name}"
                     VERBATIM)
  add_custom_target(gzipped-${name} ALL DEPENDS ${uncompressed}.gz)
  install(FILES ${uncompressed}.gz DESTINATION ${destination})
endfunction()
