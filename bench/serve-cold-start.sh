#!/usr/bin/env bash
# Whole-process cold figures of short commands: `fano --version` and
# `fano query` of one position, each run N times as a fresh process; prints
# the min and median wall time (ms, the loop's own cost shown by /bin/true),
# the peak RSS and page faults (/usr/bin/time) and the shared libraries the
# binary loads.
#   bench/serve-cold-start.sh [build/tools/fano] [runs]
set -euo pipefail
fano=${1:-build/tools/fano}
runs=${2:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fano" solve --out "$work/standard.fanotb" >/dev/null 2>&1
times() {  # times LABEL COMMAND...: min and median of $runs runs
  local label=$1; shift
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | sort -n | awk -v label="$label" '{ a[NR] = $1 } END {
    printf "%-10s min %.2f ms  median %.2f ms  (%d runs)\n", label, a[1] / 1000, a[int((NR + 1) / 2)] / 1000, NR }'
}
measure() {  # measure LABEL ARGS...
  local label=$1; shift
  times "$label" "$fano" "$@"
  /usr/bin/time -f "%M KiB, %R minor page faults" -o "$work/rss" "$fano" "$@" >/dev/null 2>&1
  echo "           peak RSS $(cat "$work/rss")"
}
times true "$(command -v true)"
measure version --version
measure query query --tb "$work/standard.fanotb" "-/-/t/C/-/-/- w"
echo "shared libraries: $(ldd "$fano" | wc -l); httplib/ssl/crypto/brotli: $(ldd "$fano" | grep -cE 'httplib|ssl|crypto|brotli' || true)"
