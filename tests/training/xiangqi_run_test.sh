#!/usr/bin/env bash
# Xiangqi end to end with no Xiangqi code outside core/ and nn/: a tiny self-play + training run from
# configs/tiny.yaml with selfplay.rules=xiangqi, its network named as Xiangqi's, that network playing a UCI
# game (janggi-zero uci through the arena) and refusing Janggi, and teacher games mixed into training.
set -u
BIN=$1
CONFIGS=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
export JZ_MODEL=none JZ_MODEL_XIANGQI=none

# 1. Teacher games (alpha-beta) for the warm start, then self-play + training with them mixed in.
timeout 300 "$BIN" teach --rules xiangqi --teacher alphabeta:depth=2 --games 6 --max-plies 80 --seed 3 \
  --out "$T/teach" 2> "$T/teach.log"
check "xiangqi teacher games" [ $? -eq 0 ]
RUN=$T/xq
timeout 600 "$BIN" train --config "$CONFIGS/tiny.yaml" --run-dir "$RUN" --steps 20 --set selfplay.rules=xiangqi \
  --set training.min_positions=200 --set training.export_every=10 --set training.checkpoint_every=10 \
  --set training.extra_data="$T/teach" --set training.extra_share=0.5 2> "$T/train.log"
check "xiangqi train --steps 20 exits 0" [ $? -eq 0 ] || tail -5 "$T/train.log"
check "self-play wrote chunks" [ "$(find "$RUN/games" -name '*.jzc' | wc -l)" -ge 1 ]
NET=$RUN/models/net-00000020.jzn
check "network at step 20" [ -f "$NET" ]
check "the network names its game" grep -aq "xiangqi" "$NET"
check "the checkpoint names its game" grep -aq "xiangqi" "$RUN/checkpoints/ckpt-00000020.jzckpt"
check "train.csv has rows" [ "$(tail -n +2 "$RUN/metrics/train.csv" | wc -l)" -ge 2 ]

# 2. Resume continues the same game; a Janggi run cannot take the Xiangqi checkpoint.
# (the run directory keeps the config file; --set lines are given again, as with every resumed run)
timeout 300 "$BIN" train --run-dir "$RUN" --steps 30 --set selfplay.rules=xiangqi --set training.min_positions=200 \
  --set training.export_every=10 --set training.checkpoint_every=10 --set training.extra_data="$T/teach" \
  --set training.extra_share=0.5 2> "$T/resume.log"
check "resume to 30" [ $? -eq 0 ]
check "network at 30" [ -f "$RUN/models/net-00000030.jzn" ]
timeout 60 "$BIN" train --config "$CONFIGS/tiny.yaml" --run-dir "$T/jg" --steps 1 \
  --resume-from "$RUN/checkpoints/ckpt-00000030.jzckpt" --set selfplay.rules=janggi 2> "$T/mix.log"
check "a janggi run refuses the xiangqi checkpoint" [ $? -ne 0 ]
check "and says which games" grep -q "xiangqi network, this run trains a 4x32 janggi one" "$T/mix.log"

# 3. A UCI game: the network through `janggi-zero uci` (UCI_Variant xiangqi) against random, refereed by the arena.
timeout 300 "$BIN" evaluate --variant xiangqi --player1 "uci:$BIN uci,nodes=16,ModelPath=$NET,name=xqnet" \
  --player2 random --games 2 --max-plies 80 --seed 5 --out "$T/arena" --concurrency 1 > "$T/eval.log" 2>&1
check "uci game with the xiangqi network" [ $? -eq 0 ] || tail -5 "$T/eval.log"
check "two games played" grep -q '"games": *2' "$T/arena/"*.result.json
out=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nsetoption name ModelPath value %s\nposition startpos\ngo nodes 16\nisready\nsetoption name UCI_Variant value janggi\nposition startpos\ngo nodes 16\nquit\n' "$NET" | timeout 60 "$BIN" uci 2>&1)
check "uci plays xiangqi with the network" grep -q "info string .*network net-00000020" <<< "$out"
check "uci refuses janggi with it, naming both games" grep -q "plays xiangqi, not janggi" <<< "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
