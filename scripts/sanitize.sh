#!/usr/bin/env bash
# Builds janggi-zero with a sanitizer and runs the tests under it.
# Usage: scripts/sanitize.sh address|thread [REGEX]   or   scripts/sanitize.sh smoke
#   address: AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer; thread: ThreadSanitizer.
#   REGEX picks the tests (ctest -R; default: all of them). Only the executables those tests run are
#   built. The sanitizer canaries always run: they prove that the build reports errors at all.
# Environment: SANITIZE_BUILD_DIR (default build-asan or build-tsan), SANITIZE_CMAKE_ARGS (more configure
#   arguments), SANITIZE_JOBS (default: nproc), SANITIZE_CTEST_ARGS (more ctest arguments, e.g. -E name).
# Every sanitizer report, from a test or from a process a test starts, is written to
# BUILD/sanitizer-logs/ and printed at the end; any report fails the run, even one from a child process
# whose exit status the test did not look at.
# Examples: scripts/sanitize.sh address                      (the whole suite, long)
#           scripts/sanitize.sh thread '^(nn|mcts)_tests$'
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-}
REGEX=${2:-}

# smoke: what ctest's sanitizer_smoke runs, sized for CI: the suites that need no LibTorch (a sanitized
# LibTorch build takes about an hour on two cores), ASan+UBSan and TSan, in SANITIZE_BUILD_DIR/{address,thread}.
if [ "$MODE" = smoke ]; then
  base=${SANITIZE_BUILD_DIR:-build-sanitize-smoke}
  export SANITIZE_CMAKE_ARGS="-DJZ_WITH_TORCH=OFF -DJZ_WITH_WEB=OFF ${SANITIZE_CMAKE_ARGS:-}"
  status=0
  SANITIZE_BUILD_DIR=$base/address bash "$0" address \
    '^(core_tests|mcts_tests|alphabeta_tests|play_tests|cluster_tests)$' || status=1
  SANITIZE_BUILD_DIR=$base/thread bash "$0" thread '^(mcts_tests|play_tests)$' || status=1
  exit $status
fi

case "$MODE" in
  address) BUILD=${SANITIZE_BUILD_DIR:-build-asan} ;;
  thread) BUILD=${SANITIZE_BUILD_DIR:-build-tsan} ;;
  *) echo "usage: scripts/sanitize.sh address|thread [REGEX] | smoke" >&2; exit 2 ;;
esac
JOBS=${SANITIZE_JOBS:-$(nproc)}
read -r -a cmake_args <<< "${SANITIZE_CMAKE_ARGS:-}"
read -r -a ctest_args <<< "${SANITIZE_CTEST_ARGS:-}"

cmake -S . -B "$BUILD" -DJZ_SANITIZE="$MODE" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cmake_args[@]}" >/dev/null ||
  exit 1
BUILD=$(cd "$BUILD" && pwd)
select=()
[ -n "$REGEX" ] && select=(-R "($REGEX)|^sanitizer_canary_")

# The targets to build: a test named after a target runs that target; a test whose command names an
# executable of the build dir (the shell tests pass the janggi-zero binary) needs that one; anything
# else (a test whose binary is not built yet and has another name) needs the whole build.
targets=(sanitizer_canary)
if [ -n "$REGEX" ]; then
  known=$(cmake --build "$BUILD" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
  listing=$(ctest --test-dir "$BUILD" -N -V "${select[@]}")
  while read -r name; do
    [[ $name == sanitizer_canary_* ]] && continue
    if grep -qxF "$name" <<< "$known"; then targets+=("$name"); continue; fi
    num=$(grep -E "^ *Test +#[0-9]+: $name\$" <<< "$listing" | sed 's/.*#\([0-9]*\):.*/\1/')
    exe=$(grep -E "^$num: Test command:" <<< "$listing" | grep -o "\"$BUILD/[^\"]*\"" | head -1 | tr -d '"')
    if [ -n "$exe" ] && grep -qxF "$(basename "$exe")" <<< "$known"; then
      targets+=("$(basename "$exe")")
    else
      targets=(all)
      break
    fi
  done < <(sed -n 's/^ *Test *#[0-9]*: \(.*\)$/\1/p' <<< "$listing")
else
  targets=(all)
fi
mapfile -t targets < <(printf '%s\n' "${targets[@]}" | sort -u)
echo "sanitize $MODE: building ${targets[*]} in $BUILD"
cmake --build "$BUILD" -j"$JOBS" --target "${targets[@]}" >"$BUILD/sanitize-build.log" 2>&1 || {
  tail -40 "$BUILD/sanitize-build.log"
  exit 1
}

# Reports go to files (the default options in tests/sanitizers/defaults.cpp still apply).
LOGS=$BUILD/sanitizer-logs
rm -rf "$LOGS" && mkdir -p "$LOGS"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$LOGS/asan"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$LOGS/ubsan"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}log_path=$LOGS/tsan"
ctest --test-dir "$BUILD" --output-on-failure "${select[@]}" "${ctest_args[@]}"
status=$?

reports=("$LOGS"/*)
if [ -e "${reports[0]}" ]; then
  for r in "${reports[@]}"; do
    echo "==== sanitizer report $r"
    head -120 "$r"
  done
  echo "sanitize $MODE: ${#reports[@]} sanitizer report(s), see above and $LOGS"
  exit 1
fi
[ $status -eq 0 ] && echo "sanitize $MODE: all selected tests passed, no sanitizer reports"
exit $status
