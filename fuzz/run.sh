#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (in build-fuzz/) and runs one of them,
# or all in turn, for a bounded time each.
#
#   fuzz/run.sh TARGET SECONDS [libFuzzer options...]
#   TARGET: position | moves | tablebase | all
#
# The seed corpus fuzz/corpus/<target>/ is read but never written: new inputs go
# to build-fuzz/fuzz/work/<target>/, crash/timeout/leak reproducers to
# build-fuzz/fuzz/artifacts/<target>/. One process, one job: the run uses a
# single core. Exits non-zero when libFuzzer found a fault.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
  echo "usage: fuzz/run.sh position|moves|tablebase|all SECONDS [libFuzzer options...]" >&2
  exit 2
fi
target=$1
seconds=$2
shift 2
build=${FANO_FUZZ_BUILD:-build-fuzz}

case $target in
  all) targets=(position moves tablebase) ;;
  position | moves | tablebase) targets=("$target") ;;
  *) echo "fuzz/run.sh: unknown target '$target' (position, moves, tablebase or all)" >&2; exit 2 ;;
esac

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DFANO_FUZZ=ON -DFANO_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}"

status=0
for t in "${targets[@]}"; do
  work="$build/fuzz/work/$t"
  artifacts="$build/fuzz/artifacts/$t"
  mkdir -p "$work" "$artifacts"
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
  echo "== fuzz_$t for ${seconds}s (corpus $work + fuzz/corpus/$t, artifacts $artifacts)"
  # -timeout: one input taking over 5 s is a hang; -rss_limit_mb: a 2 GB
  # process is a memory blow-up; both are reported as faults.
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$@" \
    "$work" "fuzz/corpus/$t" || status=$?
done
exit $status
