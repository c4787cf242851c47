#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each from its seed corpus for SECONDS (default 10).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]. Exits non-zero if any target finds a crash.
# Long runs by hand: scripts/fuzz.sh 3600 fen
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-10}
shift || true
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
CC=clang CXX=clang++ cmake -S fuzz -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$BUILD"/fuzz_*; do targets+=("$(basename "$exe" | sed 's/^fuzz_//')"); done
fi
status=0
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  cp -r "fuzz/corpus/$t/." "$work/" 2>/dev/null || true
  log="$BUILD/fuzz_$t.log"
  if "$BUILD/fuzz_$t" "$work" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$BUILD/crash-$t-" -print_final_stats=1 >"$log" 2>&1; then
    execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz $t: ${execs:-?} executions in ${SECONDS_PER_TARGET}s, no crash"
  else
    echo "fuzz $t: CRASH (see $log and $BUILD/crash-$t-*)"
    tail -30 "$log"
    status=1
  fi
  rm -rf "$work"
done
exit $status
