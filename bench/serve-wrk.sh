#!/usr/bin/env bash
# The HTTP benchmark of `fano serve` (not a test): wrk on loopback, keep-alive,
# 64 connections, a position query of the standard game. Prints wrk's report
# (requests/s, latency percentiles), twice: one position asked again and again
# (answered from the cache), then 20,000 distinct positions with the cache off
# (each answer computed: probes, rating, JSON).
#   bench/serve-wrk.sh [build/tools/fano] [seconds]
set -euo pipefail
fano=${1:-build/tools/fano}
seconds=${2:-10}
path=/api/v2/standard?position=-/-/t/C/-/-/-_w
here=$(cd "$(dirname "$0")" && pwd)
command -v wrk >/dev/null || { echo "bench/serve-wrk.sh: wrk is not installed (apt-get install wrk)" >&2; exit 2; }
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
start() {  # start ARGS...: a server on a free port; sets url and pid
  "$fano" serve --port 0 "$@" >"$work/out" 2>/dev/null &
  pid=$!
  for _ in $(seq 100); do [ -s "$work/out" ] && break; sleep 0.1; done
  url=$(head -1 "$work/out")
  [ -n "$url" ] || { echo "bench/serve-wrk.sh: the server did not start" >&2; exit 1; }
  url=${url%/}
}
stop() { kill $pid; wait $pid 2>/dev/null || true; pid=; rm -f "$work/out"; }

start
echo "== one position, cached: $path"
wrk -t2 -c64 -d2s "$url$path" >/dev/null  # warm up
wrk -t2 -c64 -d"${seconds}s" --latency "$url$path"
python3 "$here/sample-paths.py" "$url" 20000 >"$work/paths"
stop

start --cache-mb 0
echo "== 20000 distinct positions, no cache"
FANO_POSITIONS="$work/paths" wrk -t2 -c64 -d"${seconds}s" --latency -s "$here/positions.lua" "$url"
stop
