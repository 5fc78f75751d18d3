# What the script-mode drivers of the emscripten sub-build share
# (compare.cmake, web.cmake): emcmake, the node path and run().
find_program(EMCMAKE emcmake REQUIRED)
# emscripten's tools need acorn, which Debian keeps in /usr/share/nodejs (a
# node that is not Debian's does not look there).
set(ENV{NODE_PATH} "/usr/share/nodejs")

# Runs a command; stops the script with its output when it fails.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
