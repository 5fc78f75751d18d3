# The `web` target (native build): builds the explorer's engine with
# emscripten (emcmake, Debian's em++) in WORK and assembles the static app in
# OUT: index.html (web/index.html with web/src bundled in, in its WebAssembly
# mode, carrying fano_worker.js's text for a file:// page's worker and the
# engine's answers to its first requests), fano_web.js and fano_web.wasm (the
# engine, which the page's worker loads over http), fano_web_inline.js when
# SINGLE_FILE (the same engine with its WebAssembly inside, so that the page
# also works from a file:// URL), fano_worker.js (runs the engine off the
# page's thread) and the service worker sw.js.
#   cmake -DSOURCE=<repo> -DWORK=<folder> -DOUT=<folder> [-DSINGLE_FILE=OFF] -P web.cmake
foreach(v SOURCE WORK OUT)
  if(NOT ${v})
    message(FATAL_ERROR "web.cmake needs -D${v}=...")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

if(NOT DEFINED SINGLE_FILE)
  set(SINGLE_FILE ON)
endif()
# Configured once (emcmake takes half a minute); again only to change SINGLE_FILE.
set(configured "")
if(EXISTS ${WORK}/CMakeCache.txt)
  file(STRINGS ${WORK}/CMakeCache.txt configured REGEX "^FANO_WEB_SINGLE_FILE:BOOL=")
endif()
if(SINGLE_FILE)
  set(want "FANO_WEB_SINGLE_FILE:BOOL=ON")
else()
  set(want "FANO_WEB_SINGLE_FILE:BOOL=OFF")
endif()
if(NOT configured STREQUAL want)
  run(${EMCMAKE} ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK} -DCMAKE_BUILD_TYPE=Release
      -DFANO_WEB_SINGLE_FILE=${SINGLE_FILE})
endif()
# (one at a time: the first build regenerates a sub-build configured before a target was added)
run(${CMAKE_COMMAND} --build ${WORK} --target fano_web -j2)
if(SINGLE_FILE)
  run(${CMAKE_COMMAND} --build ${WORK} --target fano_web_inline -j2)
endif()

file(MAKE_DIRECTORY ${OUT})
# The page with its modules bundled in (cmake/page.cmake), as `fano serve` embeds it.
run(${CMAKE_COMMAND} -DSOURCE=${SOURCE} -DOUT=${WORK}/page -P ${SOURCE}/cmake/page.cmake)
file(READ ${WORK}/page/index.html page)
string(REPLACE "<meta name=\"fano-engine\" content=\"http\">" "<meta name=\"fano-engine\" content=\"wasm\">"
       page "${page}")
if(NOT page MATCHES "content=\"wasm\"")
  message(FATAL_ERROR "web/index.html has no <meta name=\"fano-engine\" content=\"http\">")
endif()
# fano_worker.js's text, carried by the page (not run there): a file:// page
# starts its worker from a Blob of the engine and this text (web/src/engine.js).
file(READ ${SOURCE}/web/fano_worker.js worker)
if(worker MATCHES "</script")
  message(FATAL_ERROR "web/fano_worker.js holds '</script', which would end the page's copy of it")
endif()
string(REPLACE "</head>" "<script type=\"text/plain\" id=\"fano-worker-source\">\n${worker}</script>\n</head>"
       page "${page}")
if(NOT page MATCHES "id=\"fano-worker-source\"")
  message(FATAL_ERROR "web/index.html has no </head>")
endif()
# The engine's answers to the page's first requests, recorded now (wasm/first-answers.js):
# the page lists the readings and levels while its engine loads.
find_program(NODE node REQUIRED)
execute_process(COMMAND ${NODE} ${SOURCE}/wasm/first-answers.js ${WORK}/wasm/fano_web.js
                RESULT_VARIABLE rc OUTPUT_VARIABLE answers ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT answers MATCHES "^{")
  message(FATAL_ERROR "wasm/first-answers.js failed (${rc}): ${err}")
endif()
string(REPLACE "</head>" "<script type=\"application/json\" id=\"fano-first-answers\">${answers}</script>\n</head>"
       page "${page}")
file(WRITE ${OUT}/index.html.tmp "${page}")
file(RENAME ${OUT}/index.html.tmp ${OUT}/index.html)
set(files index.html fano_web.js fano_web.wasm fano_worker.js)
file(COPY_FILE ${WORK}/wasm/fano_web.js ${OUT}/fano_web.js ONLY_IF_DIFFERENT)
file(COPY_FILE ${WORK}/wasm/fano_web.wasm ${OUT}/fano_web.wasm ONLY_IF_DIFFERENT)
file(COPY_FILE ${SOURCE}/web/fano_worker.js ${OUT}/fano_worker.js ONLY_IF_DIFFERENT)
if(SINGLE_FILE)
  # (not among the service worker's files: an offline copy is served over http, and there
  # the worker loads fano_web.js)
  file(COPY_FILE ${WORK}/wasm/fano_web_inline.js ${OUT}/fano_web_inline.js ONLY_IF_DIFFERENT)
else()
  file(REMOVE ${OUT}/fano_web_inline.js)
endif()

# The service worker caches the app under a name that changes with its files.
set(hashes "")
foreach(f ${files})
  file(SHA256 ${OUT}/${f} h)
  string(APPEND hashes "${h}")
endforeach()
string(SHA256 app_hash "${hashes}")
string(SUBSTRING ${app_hash} 0 16 app_hash)
list(TRANSFORM files PREPEND "\"" OUTPUT_VARIABLE quoted)
list(TRANSFORM quoted APPEND "\"")
list(JOIN quoted ", " list_text)
file(READ ${SOURCE}/web/sw.js sw)
string(REPLACE "@FANO_APP_HASH@" "${app_hash}" sw "${sw}")
string(REPLACE "@FANO_APP_FILES@" "${list_text}" sw "${sw}")
file(WRITE ${OUT}/sw.js "${sw}")
list(JOIN files ", " names)
message(STATUS "The static explorer: ${OUT} (${names}, sw.js; version ${app_hash})")
