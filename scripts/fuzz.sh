#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each from its seed corpus for SECONDS (default 10).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (TARGET = fen, uci, model, ...; default: all built)
# Exits non-zero if any target finds a crash (or is missing). fuzz/README.md lists the targets.
# Long runs by hand: scripts/fuzz.sh 3600 uci; FUZZ_KEEP=1 keeps the grown corpus (path printed) so
# that a few small new inputs can be picked into fuzz/corpus/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-10}
shift || true
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
CC=clang CXX=clang++ cmake -S fuzz -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
mkdir -p "$BUILD/logs"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$BUILD"/fuzz_*; do
    [ -f "$exe" ] && [ -x "$exe" ] && targets+=("${exe##*/fuzz_}")
  done
fi
status=0
for t in "${targets[@]}"; do
  exe="$BUILD/fuzz_$t"
  if [ ! -x "$exe" ]; then
    echo "fuzz $t: no such target in $BUILD (not built: see the cmake output)"
    status=1
    continue
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$t.XXXXXX")
  cp -r "fuzz/corpus/$t/." "$work/" 2>/dev/null || true
  seeds=$(find "$work" -type f | wc -l)
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  log="$BUILD/logs/fuzz_$t.log"
  if "$exe" "$work" "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$BUILD/crash-$t-" -print_final_stats=1 >"$log" 2>&1; then
    execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    cov=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 | sed -E 's/.*cov: ([0-9]+).*/\1/')
    corpus=$(find "$work" -type f | wc -l)
    echo "fuzz $t: ${execs:-?} executions in ${SECONDS_PER_TARGET}s, no crash (coverage ${cov:-?}," \
         "corpus $seeds -> $corpus)"
  else
    echo "fuzz $t: CRASH (see $log and $BUILD/crash-$t-*)"
    tail -30 "$log"
    status=1
  fi
  if [ "${FUZZ_KEEP:-0}" = 1 ]; then echo "  corpus kept in $work"; else rm -rf "$work"; fi
done
exit $status
