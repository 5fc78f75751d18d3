#!/bin/sh
# Instructions executed by one single-threaded solve of a variant, counted by
# valgrind's callgrind: unlike wall-clock time on a shared VM (which here
# varies by half from one minute to the next), the count is the same on every
# run of the same binary, so it compares two builds exactly. Prints the total
# and the ten costliest functions.
#   bench/solve-instructions.sh [FANO_BINARY] [variant options...]
# e.g. bench/solve-instructions.sh build/tools/fano --stack-cap 3
set -eu
fano=${1:-build/tools/fano}
[ $# -gt 0 ] && shift
command -v valgrind >/dev/null || { echo "solve-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$dir/cg" "$fano" solve --threads 1 --out "$dir/t.fanotb" "$@" \
  >/dev/null 2>"$dir/log" || { cat "$dir/log" >&2; exit 1; }
grep -o 'Collected : [0-9]*' "$dir/log" | sed 's/Collected : /instructions: /'
callgrind_annotate "$dir/cg" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | sed -n '2,11p' | cut -c1-160
