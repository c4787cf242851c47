#!/usr/bin/env bash
# The UCI engine end to end: legal bestmoves under every limit and rule set, info lines, go infinite +
# stop, isready while searching, bestmove (none) when mated, option errors.
set -u
BIN=$1
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
export JZ_MODEL=${JZ_MODEL:-none}
START="rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

# is_legal VARIANT FEN MOVE: the move is legal there (perft 1 lists it).
is_legal() {
  local out
  out=$(printf '%s\n' "setoption name UCI_Variant value $1" "position fen $2" "go perft 1" quit | "$BIN" uci)
  echo "$out" | grep -q "^$3: 1$"
}
bestmove_of() { echo "$1" | grep '^bestmove' | tail -1 | awk '{print $2}'; }

# 1. Options and identification.
out=$(printf '%s\n' uci quit | "$BIN" uci)
for opt in UCI_Variant ModelPath UseNetwork Simulations Threads Hash Level; do
  check "option $opt" bash -c "echo '$out' | grep -q '^option name $opt '"
done
check "uciok" bash -c "echo '$out' | grep -q '^uciok'"

# 2. go depth 2 from several positions and rule sets (end of input waits for finite searches).
positions=(
  "janggi|$START"
  "janggitraditional|rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
  "janggimodern|4ka3/4a4/9/9/2c6/9/9/9/4A4/3AK4 w - - 0 1"
  "janggicasual|3k5/4a4/9/p8/9/9/P8/4C4/4K4/9 b - - 0 1"
  "janggi|r2k5/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1"
)
for entry in "${positions[@]}"; do
  v=${entry%%|*}; fen=${entry#*|}
  out=$(printf '%s\n' "setoption name UCI_Variant value $v" "position fen $fen" "go depth 2" | "$BIN" uci)
  bm=$(bestmove_of "$out")
  check "depth 2 bestmove in $v [$fen]: '$bm'" is_legal "$v" "$fen" "$bm"
  check "depth 2 info line ($v)" bash -c "echo '$out' | grep -qE '^info depth 2 .*score (cp|mate) -?[0-9]+ .*nodes [0-9]+ nps [0-9]+ .* pv [a-i][0-9]'"
done

# Process start-up (shared libraries) can take seconds on a loaded machine: time limits are checked
# against the engine's own "time" field, or against a baseline run.
last_time() { echo "$1" | grep '^info depth' | tail -1 | sed -E 's/.* time ([0-9]+) .*/\1/'; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(now_ms); printf '%s\n' quit | "$BIN" uci > /dev/null; base=$(( $(now_ms) - t0 ))

# 3. Moves after startpos, then go movetime 200: answered in time.
out=$(printf '%s\n' "position startpos moves b1c3 b10c8 c1d3" "go movetime 200" | "$BIN" uci)
bm=$(bestmove_of "$out")
fen_after=$(printf '%s\n' "position startpos moves b1c3 b10c8 c1d3" d quit | "$BIN" uci | grep '^Fen:' | cut -c6-)
check "movetime 200 bestmove '$bm'" is_legal janggi "$fen_after" "$bm"
ms=$(last_time "$out")
check "movetime 200 took ${ms} ms (<= 2000: slack for a loaded machine)" [ "$ms" -le 2000 ]
check "seldepth and time in info" bash -c "echo '$out' | grep -q 'seldepth [0-9]* .*time [0-9]'"

# 4. nodes and clock limits.
out=$(printf '%s\n' "position startpos" "go nodes 5000" | "$BIN" uci)
check "go nodes bestmove" is_legal janggi "$START" "$(bestmove_of "$out")"
out=$(printf '%s\n' "position startpos" "go wtime 3000 btime 3000 winc 100 binc 100 movestogo 20" | "$BIN" uci)
ms=$(last_time "$out")
check "clock bestmove" is_legal janggi "$START" "$(bestmove_of "$out")"
check "clock search took ${ms} ms (< 3000: its cap is 900)" [ "$ms" -lt 3000 ]

# 5. go infinite: isready is answered while it runs, bestmove only after stop.
fifo=$(mktemp -u /tmp/jz_uci_fifo.XXXXXX)
mkfifo "$fifo"
outf=$(mktemp /tmp/jz_uci_out.XXXXXX)
"$BIN" uci < "$fifo" > "$outf" &
pid=$!
exec 3> "$fifo"
wait_for() {  # wait_for PATTERN COUNT: up to 60 s for COUNT lines matching PATTERN
  for _ in $(seq 600); do [ "$(grep -c "$1" "$outf")" -ge "$2" ] && return 0; sleep 0.1; done; return 1
}
printf '%s\n' isready >&3
wait_for '^readyok' 1
printf '%s\n' "position startpos" "go infinite" >&3
sleep 1
printf '%s\n' isready >&3
wait_for '^readyok' 2
ready_during=$(grep -c '^readyok' "$outf")
sleep 0.5
bm_before_stop=$(grep -c '^bestmove' "$outf")
printf '%s\n' stop >&3
wait_for '^bestmove' 1
printf '%s\n' isready quit >&3
exec 3>&-
wait $pid
check "isready answered during infinite" [ "$ready_during" -eq 2 ]
check "no bestmove before stop" [ "$bm_before_stop" -eq 0 ]
check "bestmove after stop" is_legal janggi "$START" "$(bestmove_of "$(cat "$outf")")"
check "info lines during infinite" [ "$(grep -c '^info depth' "$outf")" -ge 2 ]
rm -f "$fifo" "$outf"

# 6. quit stops a long search at once.
t0=$(now_ms)
printf '%s\n' "position startpos" "go movetime 60000" quit | "$BIN" uci > /dev/null
ms=$(( $(now_ms) - t0 - base ))
check "quit ends a 60 s search (${ms} ms over start-up)" [ "$ms" -lt 5000 ]

# 7. No legal move: bestmove (none).
out=$(printf '%s\n' "position fen R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1" "go depth 3" | "$BIN" uci)
check "mated: bestmove (none)" bash -c "echo '$out' | grep -q '^bestmove (none)$'"

# 8. Mate found and reported as mate.
out=$(printf '%s\n' "position fen 3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1" "go depth 3" | "$BIN" uci)
check "mate in 1 found: $(bestmove_of "$out")" [ "$(bestmove_of "$out")" = "b1b10" ]
check "score mate 1" bash -c "echo '$out' | grep -q 'score mate 1 '"

# 9. Options: levels, bad values, UseNetwork without a model, WDL.
out=$(printf '%s\n' "setoption name Level value easy" "setoption name Level value godlike" \
  "setoption name Threads value 0" "setoption name Hash value 8" "setoption name Simulations value abc" \
  "setoption name UseNetwork value maybe" "setoption name UseNetwork value true" \
  "setoption name ModelPath value /nonexistent/model.jzn" "setoption name UCI_ShowWDL value true" \
  "position startpos" "go depth 2" "go badparam 3" "go depth x" isready | "$BIN" uci)
check "option errors" [ "$(echo "$out" | grep -c '^info string error')" -eq 7 ]
check "bad model falls back to alpha-beta" bash -c "echo '$out' | grep -q 'cannot use model.*alpha-beta'"
check "wdl shown" bash -c "echo '$out' | grep -qE ' wdl [0-9]+ [0-9]+ [0-9]+ '"
check "bestmove with missing model" is_legal janggi "$START" "$(bestmove_of "$out")"
check "alive" bash -c "echo '$out' | grep -q '^readyok'"

# 10. The default engine: the network only when its record (latest.json next to it) shows it beats
#     alpha-beta expert at the same time per move, else alpha-beta expert; the first info string says
#     which and why. The shipped network is the model when there is one (any network will do).
first_info() { echo "$1" | grep -m1 '^info string'; }
starts() { [[ "$1" == "$2"* ]]; }     # starts TEXT PREFIX
contains_all() { local t=$1; shift; for p in "$@"; do grep -qF -- "$p" <<< "$t" || return 1; done; }
out=$(printf '%s\n' isready quit | "$BIN" uci)
check "no model: alpha-beta expert, and why" starts "$(first_info "$out")" 'info string engine: alpha-beta expert (default: no network model found'
MODEL=$(dirname "$0")/../../models/latest.jzn
FIX=$(dirname "$0")/fixtures
if [ -f "$MODEL" ]; then
  d=$(mktemp -d /tmp/jz_uci_model.XXXXXX)
  cp "$MODEL" "$d/latest.jzn"
  out=$(printf '%s\n' isready quit | JZ_MODEL=$d/latest.jzn "$BIN" uci)
  check "no record: alpha-beta expert" contains_all "$(first_info "$out")" 'engine: alpha-beta expert (default: ' 'latest.json not found'
  cp "$FIX/strength_loses_to_expert.json" "$d/latest.json"
  out=$(printf '%s\n' isready "position startpos" "go depth 1" quit | JZ_MODEL=$d/latest.jzn "$BIN" uci)
  check "record loses: alpha-beta expert" contains_all "$(first_info "$out")" 'engine: alpha-beta expert (default: ' 'scored 0.31'
  check "record loses: alpha-beta plays" contains_all "$out" ' hashfull '
  cp "$FIX/strength_beats_expert.json" "$d/latest.json"
  out=$(printf '%s\n' isready "position startpos" "go nodes 40" quit | JZ_MODEL=$d/latest.jzn "$BIN" uci)
  check "record wins: the network" starts "$(first_info "$out")" 'info string engine: network latest.jzn@'
  check "record wins: why" contains_all "$(first_info "$out")" '(default: ' 'scored 0.58'
  check "record wins: network bestmove" is_legal janggi "$START" "$(bestmove_of "$out")"
  out=$(printf '%s\n' "setoption name Level value normal" isready quit | JZ_MODEL=$d/latest.jzn "$BIN" uci)
  check "explicit Level wins over the record" [ "$(first_info "$out")" = 'info string engine: alpha-beta normal (Level normal)' ]
  printf '{"network_id": "latest.jzn@00000000", "strength": [{"vs": "alphabeta:level=expert", "movetime_ms": 1000, "games": 10, "score": 0.9}]}' > "$d/latest.json"
  out=$(printf '%s\n' isready quit | JZ_MODEL=$d/latest.jzn "$BIN" uci)
  check "record of another network: alpha-beta expert" contains_all "$(first_info "$out")" 'alpha-beta expert (default: the strength record is for network latest.jzn@00000000'
  rm -rf "$d"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
