#!/usr/bin/env bash
# `janggi-zero play` scripted through stdin: moves in both notations, illegal input rejected, undo,
# pass, hint, save / load, resignation and checkmate announced with their reason; Xiangqi's board and notation.
set -u
BIN=$1
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
has() { grep -q -- "$2" <<< "$1"; }
export JZ_MODEL=${JZ_MODEL:-none} JZ_MODEL_XIANGQI=${JZ_MODEL_XIANGQI:-none}
tmp=$(mktemp -d /tmp/jz_play_test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# 1. A game against the easy level: moves, bad input, undo, Korean notation, hint, save, resign.
out=$(printf '%s\n' help b1c3 zz a1a9 "" undo "71졸61" hint moves resign "save $tmp/game.json" undo quit |
      "$BIN" play --side cho --opponent easy --cho-setup inner --han-setup outer --no-color 2>&1)
check "banner" has "$out" "you play cho against alpha-beta (easy)"
check "help" has "$out" "Commands: pass, undo, hint"
check "board drawn with Hanja" has "$out" "楚"
check "palace diagonal drawn" has "$out" "╲"
check "engine replied" [ "$(grep -c '^engine plays ' <<< "$out")" -ge 2 ]
check "engine shows its thinking" has "$out" "W/D/L .*depth .*pv"
check "illegal 'zz' rejected" has "$out" "error: .*zz"
check "illegal 'a1a9' rejected" has "$out" "error: .*a1a9"
check "undo takes back the reply too" has "$out" "took back 2 moves"
check "Korean move played" has "$out" "last move: a4a5 (71졸61)"
check "hint" has "$out" "hint: [a-i][0-9]*[a-i][0-9]* ("
check "saved" has "$out" "saved .* moves to $tmp/game.json"
check "resignation announced" has "$out" "Game over: han wins by resignation - 0-1 (resignation)"
check "record written" grep -q '"ending": "resignation"' "$tmp/game.json"
check "record has moves" grep -q '"a4a5"' "$tmp/game.json"

# 2. Load the record (the resignation stays), undo it, and go on against normal with Hangul pieces.
out=$(printf '%s\n' "load $tmp/game.json" undo board quit |
      "$BIN" play --side cho --opponent normal --movetime 100 --hangul --no-color 2>&1)
check "loaded" has "$out" "loaded .* moves from"
check "loaded game is over" has "$out" "Game over: han wins by resignation"
check "Hangul pieces" has "$out" "졸"

# 2a. No --opponent: the default engine, and why (no model here: alpha-beta expert).
out=$(printf '%s\n' quit | "$BIN" play --side both --no-color 2>&1)
check "default opponent: alpha-beta expert" has "$out" "against alpha-beta (expert)"
check "default opponent: the reason" has "$out" "engine: alpha-beta (expert), the default (no network model found"
MODEL=$(dirname "$0")/../../models/latest.jzn
if [ -f "$MODEL" ]; then
  cp "$MODEL" "$tmp/latest.jzn"
  cp "$(dirname "$0")/fixtures/strength_beats_expert.json" "$tmp/latest.json"
  out=$(printf '%s\n' quit | JZ_MODEL=$tmp/latest.jzn "$BIN" play --side both --no-color 2>&1)
  check "default opponent with a winning record: the network" has "$out" "engine: the network latest.jzn@"
  check "default opponent with a winning record: why" has "$out" "scored 0.58 in 200 games against alphabeta:level=expert"
  out=$(printf '%s\n' quit | JZ_MODEL=$tmp/latest.jzn "$BIN" play --side both --opponent easy --no-color 2>&1)
  check "--opponent wins over the record" has "$out" "against alpha-beta (easy)"
fi

# 2b. Two people: a pass, a reply, undo one ply; illegal pass in check is refused.
out=$(printf '%s\n' pass b10c8 undo undo undo quit | "$BIN" play --side both --no-color 2>&1)
check "pass played" has "$out" "last move: e2e2 (한수쉼)"
check "two-person undo is one ply" [ "$(grep -c 'took back 1 move$' <<< "$out")" -eq 2 ]
check "nothing left to undo" has "$out" "error: nothing to undo"
cat > "$tmp/check.json" <<'JSON'
{"rules":"janggi","start_fen":"3k5/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1","moves":[]}
JSON
out=$(printf '%s\n' pass e1e2 quit | "$BIN" play --side both --load "$tmp/check.json" --no-color 2>&1)
check "in check shown" has "$out" "cho to move, in check"
check "pass in check refused" has "$out" "error: .*cannot pass in check"
check "general takes the checker" has "$out" "last move: e1e2"

# 3. Checkmate from a loaded position, two people at one keyboard, ASCII board.
cat > "$tmp/mate.json" <<'JSON'
{"format":"janggi-zero-game","rules":"janggi","start_fen":"3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1","moves":[]}
JSON
out=$(printf '%s\n' b1b10 e9e9 quit | "$BIN" play --side both --ascii --load "$tmp/mate.json" 2>&1)
check "checkmate announced" has "$out" "Game over: cho wins by checkmate - 1-0 (checkmate)"
check "no move after the end" has "$out" "error: the game is over"
board_rows=$(grep -E '^ *[0-9]+  |^    [|+]' <<< "$out")
check "ASCII board rows" [ "$(wc -l <<< "$board_rows")" -ge 19 ]
check "ASCII board is ASCII" bash -c "! LC_ALL=C grep -q '[^ -~]' <<< \"\$1\"" _ "$board_rows"

# 4. Han side, colors: the board is flipped (rank 1 at the top) and colored.
out=$(printf '%s\n' quit | "$BIN" play --side han --opponent easy --color 2>&1)
check "engine moves first for Cho" has "$out" "engine plays "
check "ANSI colors" has "$out" $'\x1b\[1;34m'
first_rank=$(grep -m1 -E '^ *[0-9]+  ' <<< "$out" | awk '{print $1}')
check "flipped board starts at rank 1 (got $first_rank)" [ "$first_rank" = "1" ]

# 5. Bad options fail with one line.
"$BIN" play --opponent grandmaster < /dev/null > /dev/null 2> "$tmp/err"; rc=$?
check "bad opponent exits non-zero" [ $rc -ne 0 ]
check "bad opponent one line" [ "$(wc -l < "$tmp/err")" -eq 1 ]
"$BIN" play --opponent net < /dev/null > /dev/null 2> "$tmp/err"; rc=$?
check "net without a model exits non-zero" [ $rc -ne 0 ]
check "net without a model says so" grep -q "no janggi network model found" "$tmp/err"
"$BIN" play --cho-setup sideways < /dev/null > /dev/null 2>&1
check "bad setup exits non-zero" [ $? -ne 0 ]
"$BIN" play --load "$tmp/nonexistent.json" < /dev/null > /dev/null 2>&1
check "missing record exits non-zero" [ $? -ne 0 ]

# 6. Xiangqi (--variant, the same as --rules): its board and river, moves in Chinese and WXF; its own network.
out=$(printf '%s\n' 炮二平五 H8+7 moves quit | "$BIN" play --variant xiangqi --side both --no-color 2>&1)
check "xiangqi banner" has "$out" "you play both against alpha-beta (expert) (xiangqi"
check "xiangqi default engine and why" has "$out" "the default (no network model found (models/xiangqi-latest.jzn))"
check "xiangqi board and river" has "$out" "楚  河         漢  界"
check "xiangqi move list in Chinese" has "$out" "1. h3e3 炮二平五  h10g8 馬8進7"
"$BIN" play --variant xiangqi --opponent net < /dev/null > /dev/null 2> "$tmp/err"; rc=$?
check "xiangqi without its network" [ $rc -ne 0 ]
check "xiangqi without its network in one line" [ "$(wc -l < "$tmp/err")" -eq 1 ]
check "xiangqi says why" grep -q "no xiangqi network model found (models/xiangqi-latest.jzn)" "$tmp/err"
if [ -f "$tmp/latest.jzn" ]; then
  "$BIN" play --variant xiangqi --model "$tmp/latest.jzn" < /dev/null > /dev/null 2> "$tmp/err"; rc=$?
  check "xiangqi refuses a janggi network" [ $rc -ne 0 ]
  check "xiangqi names both games" grep -q "plays janggi, not xiangqi" "$tmp/err"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
