#!/usr/bin/env bash
# Rates the learning race (scripts/race.sh): each run's networks at the same training CPU-hour marks
# against the same opponents and openings, then the two final networks head to head, then one report.
#   scripts/race-eval.sh OUT [MARKS] [GAMES] [H2H_GAMES] [SIMS]
set -euo pipefail
out=${1:?usage: scripts/race-eval.sh OUT [MARKS] [GAMES] [H2H_GAMES] [SIMS]}
marks=${2:-0.25,0.5,1}
games=${3:-20}
h2h=${4:-100}
sims=${5:-64}
bin=${JZ_BIN:-./build/janggi-zero}
opponents="random; greedy; alphabeta:depth=1,version=1; alphabeta:depth=2,version=1; alphabeta:level=easy,version=1"
export OMP_WAIT_POLICY=passive
for run in baseline new; do
  "$bin" gauntlet --run-dir "$out/$run" --opponents "$opponents" --games "$games" --concurrency 2 \
    --net "sims=$sims,precision=auto" --cpu-hours-marks "$marks" --max-plies 300 --seed 1 >> "$out/eval-$run.log" 2>&1
done
# Head to head: each run's network at its last mark, equal simulations, colour-swapped pairs.
last_mark=${marks##*,}
net_at() {  # newest network exported when the run's cpu_hours first reached the mark
  awk -F, -v m="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_hours") c = i; next }
    c && $c >= m { print $1; exit }' "$1/metrics/train.csv" | {
    read -r step || step=999999999
    ls "$1/models" | sed -n 's/^net-0*\([0-9][0-9]*\)\.jzn$/\1/p' | sort -n | awk -v s="$step" '$1 <= s' | tail -1
  }
}
nb=$(net_at "$out/baseline" "$last_mark"); nn=$(net_at "$out/new" "$last_mark")
printf -v fb '%s/baseline/models/net-%08d.jzn' "$out" "$nb"
printf -v fn '%s/new/models/net-%08d.jzn' "$out" "$nn"
"$bin" evaluate --player1 "net:$fn,sims=$sims,precision=auto,name=new-$nn" \
  --player2 "net:$fb,sims=$sims,precision=auto,name=baseline-$nb" --games "$h2h" --concurrency 2 --seed 7 \
  --max-plies 300 --out "$out/h2h" --quiet > "$out/h2h.txt" 2>&1
"$bin" report --run-dir "$out/baseline" --run-dir "$out/new" --out "$out/race.html"
cat "$out/h2h.txt"
