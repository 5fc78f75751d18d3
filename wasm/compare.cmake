# ctest's Portable.WasmEqualsNative: builds the portable layers with
# emscripten (emcmake, Debian's em++) into WORK, runs check.js under node and
# the native check program, and requires byte-identical outputs.
#   cmake -DSOURCE=<repo> -DWORK=<folder> -DNATIVE=<native check> -P compare.cmake
foreach(v SOURCE WORK NATIVE)
  if(NOT ${v})
    message(FATAL_ERROR "compare.cmake needs -D${v}=...")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
find_program(NODE node REQUIRED)

run(${EMCMAKE} ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK} --target fano_portable_check -j2)

# node 18+ would fetch() the .wasm by its path and fail: read it from disk.
# Outputs go to files: node writes to a pipe asynchronously and drops what is
# still pending when the program exits; to a file it writes synchronously.
execute_process(COMMAND ${NODE} --no-experimental-fetch ${WORK}/wasm/fano_portable_check.js
                RESULT_VARIABLE wasm_rc OUTPUT_FILE ${WORK}/wasm.txt ERROR_VARIABLE wasm_err)
execute_process(COMMAND ${NATIVE} RESULT_VARIABLE native_rc OUTPUT_FILE ${WORK}/native.txt
                ERROR_VARIABLE native_err)
if(NOT wasm_rc EQUAL 0 OR NOT native_rc EQUAL 0)
  message(FATAL_ERROR "exit codes: WebAssembly ${wasm_rc} (${wasm_err}), native ${native_rc} (${native_err})")
endif()
file(READ ${WORK}/wasm.txt wasm_out)
file(READ ${WORK}/native.txt native_out)

# The standard game is a draw, solved in the WebAssembly build itself.
if(NOT wasm_out MATCHES "^standard reachable 1639939 classes 138125 [^\n]* start draw 0\n")
  string(SUBSTRING "${wasm_out}" 0 200 head)
  message(FATAL_ERROR "the WebAssembly build did not solve the standard game as a draw: ${head}")
endif()
string(REGEX MATCHALL "\n" lines "${wasm_out}")
list(LENGTH lines count)
if(NOT wasm_out STREQUAL native_out)
  message(FATAL_ERROR "WebAssembly and native outputs differ: compare ${WORK}/wasm.txt and ${WORK}/native.txt")
endif()
message(STATUS "WebAssembly and native agree on ${count} lines (four variants solved, their sampled reports)")
