#!/usr/bin/env bash
# perft and uci from the command line: counts, bad input handling, the UCI loop surviving errors.
set -u
BIN=$1
DATA=$2
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}

# perft: the last line is the node count alone.
out=$("$BIN" perft --depth 3)
check "perft start depth 3" [ "$(echo "$out" | tail -1)" = "33000" ]
out=$("$BIN" perft --depth 3 --variant janggimodern)
check "perft modern depth 3" [ "$(echo "$out" | tail -1)" = "33316" ]
out=$("$BIN" perft --fen "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1" --depth 2 --divide)
check "perft bare kings janggi" [ "$(echo "$out" | tail -1)" = "8" ]
check "perft divide lines" [ "$(echo "$out" | grep -c ':')" -ge 1 ]
"$BIN" perft --fen "4k4/9/9/9/9/9/9/9/9/4K4 x - - 0 1" --depth 2 2>/tmp/jz_err.$$; rc=$?
check "perft bad fen exits non-zero" [ $rc -ne 0 ]
check "perft bad fen one-line message" [ "$(wc -l < /tmp/jz_err.$$)" -eq 1 ]
"$BIN" perft --depth 2 --variant chess 2>/dev/null; check "perft bad variant" [ $? -ne 0 ]
"$BIN" perft --depth 2 --bogus 2>/dev/null; check "perft unknown option" [ $? -ne 0 ]
"$BIN" frobnicate 2>/dev/null; check "unknown subcommand" [ $? -ne 0 ]

# bench perft --suite verifies rows (depth <= 3 here to stay quick).
out=$("$BIN" bench perft --suite "$DATA/perft_variants_public.tsv" --max-depth 3)
check "suite has no mismatch" bash -c "echo '$out' | grep -q ' 0 mismatches'"

# UCI: errors are one line each and the loop keeps going.
out=$(printf '%s\n' uci isready \
  "position fen 4k4/9/9/9/9/9/9/9/9/9 w - - 0 1" \
  "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1 moves b1c3 zz9" \
  "position startpos moves b1b5" \
  "setoption name Frobnicate value 3" \
  "setoption name UCI_Variant value chess" \
  "flurb" \
  "setoption name UCI_Variant value janggimodern" \
  "position startpos" "go perft 3" \
  "setoption name UCI_Variant value janggi" \
  "position startpos moves e2e2 e9e9" "d" \
  "position startpos moves e2e2 e9e9 b1c3" \
  "position fen 3k5/9/9/9/9/4r4/9/9/9/4K4 w - - 0 1 moves e1e1" \
  "position startpos moves b1c3 b10c8" "go perft 1" isready quit | "$BIN" uci)
check "uciok" bash -c "echo '$out' | grep -q '^uciok'"
check "errors reported" [ "$(echo "$out" | grep -c '^info string error')" -eq 8 ]
check "modern perft 3 over uci" bash -c "echo '$out' | grep -q 'Nodes searched: 33316'"
check "double pass shown as over" bash -c "echo '$out' | grep -q 'Result: 0-1 (double pass, counting)'"
check "still alive at the end" [ "$(echo "$out" | grep -c '^readyok')" -eq 2 ]
check "perft 1 after moves" bash -c "echo '$out' | tail -2 | grep -q 'Nodes searched: '"

rm -f /tmp/jz_err.$$
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
