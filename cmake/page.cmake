# cmake -DSOURCE=<repo> -DOUT=<folder> -P page.cmake
# Assembles the explorer page: web/src/*.js (ES modules, JSDoc-typed) bundled
# by esbuild into one classic script, inlined in web/index.html in place of
# its module tag. One file: `fano serve` embeds it (its CSP allows the inline
# script by hash, cmake/embed.cmake), and the static app works from a file://
# URL too, where a browser refuses to load modules. Needs `npm ci` in web/.
cmake_policy(VERSION 3.20)
foreach(v SOURCE OUT)
  if(NOT ${v})
    message(FATAL_ERROR "page.cmake needs -D${v}=...")
  endif()
endforeach()
set(esbuild ${SOURCE}/web/node_modules/.bin/esbuild)
if(NOT EXISTS ${esbuild})
  message(FATAL_ERROR "no esbuild in ${SOURCE}/web/node_modules: run 'npm ci' in ${SOURCE}/web")
endif()
file(MAKE_DIRECTORY ${OUT})
execute_process(
  COMMAND ${esbuild} ${SOURCE}/web/src/main.js --bundle --format=iife --target=es2019
          --log-level=warning --outfile=${OUT}/fano_page.js
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "esbuild failed on web/src/main.js")
endif()
file(READ ${OUT}/fano_page.js bundle)
file(READ ${SOURCE}/web/index.html page)
set(tag "<script type=\"module\" src=\"src/main.js\"></script>")
string(FIND "${page}" "${tag}" at)
if(at LESS 0)
  message(FATAL_ERROR "web/index.html has no ${tag}")
endif()
string(REPLACE "${tag}" "<script>\n${bundle}</script>" page "${page}")
file(WRITE ${OUT}/index.html.tmp "${page}")
file(RENAME ${OUT}/index.html.tmp ${OUT}/index.html)
