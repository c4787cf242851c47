#!/usr/bin/env bash
# The one LibTorch seam (JZ_WITH_TORCH=OFF): the binary builds without LibTorch and keeps what it
# promises (rules, alpha-beta play, matches without networks, records), while the network commands
# are absent and a network player is refused with one line.
#   torch_free_test.sh SOURCE_DIR BUILD_DIR
set -u
SRC=$1
BUILD=$2
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
cmake -S "$SRC" -B "$BUILD" -DJZ_WITH_TORCH=OFF -DJZ_WITH_WEB=OFF -DJZ_BUILD_TESTS=OFF >"$BUILD.log" 2>&1 &&
  cmake --build "$BUILD" --target janggi-zero -j "$(nproc)" >>"$BUILD.log" 2>&1
check "configure and build without LibTorch (log: $BUILD.log)" [ $? -eq 0 ]
BIN=$BUILD/janggi-zero
[ -x "$BIN" ] || { echo "torch-free: $pass passed, $fail failed"; exit 1; }

check "perft" [ "$("$BIN" perft --depth 3 | tail -1)" = "33000" ]
out=$(printf 'uci\nisready\nposition startpos\ngo depth 2\nquit\n' | "$BIN" uci 2>&1)
check "uci answers with a move" bash -c "grep -q '^bestmove ' <<< '$out'"
out=$("$BIN" evaluate --player1 alphabeta:level=easy --player2 random --games 2 --out "$BUILD.results" --quiet 2>&1); rc=$?
check "alpha-beta vs random match" [ $rc -eq 0 ]
"$BIN" evaluate --player1 net:/nonexistent.jzn --player2 random --games 2 >/dev/null 2>"$BUILD.err"; rc=$?
check "a network player is refused" [ $rc -ne 0 ]
check "with one line" [ "$(wc -l < "$BUILD.err")" -eq 1 ]
# (`CMD --help` would pass: CLI11 answers a top-level --help before it sees an unknown word.)
commands=$("$BIN" --help | sed -n '/^Subcommands:/,$p' | awk 'NF {print $1}')
check "the alpha-beta and record commands are listed" bash -c "grep -qx uci <<< '$commands' && grep -qx import <<< '$commands'"
for cmd in train selfplay soak; do
  check "no $cmd command" bash -c "! grep -qx $cmd <<< '$commands'"
  "$BIN" "$cmd" --run-dir /nonexistent >/dev/null 2>&1
  check "$cmd is refused" [ $? -ne 0 ]
done
check "bench perft stays" "$BIN" bench perft --depth 2
echo "torch-free: $pass passed, $fail failed"
[ $fail -eq 0 ]
