#!/usr/bin/env bash
# The learning race (issue 15): two runs from random weights with the same training CPU budget, one
# core each (taskset), each run's self-play child and trainer sharing its core. Resumable: run it
# again with the same arguments and both runs continue up to the budget.
#   scripts/race.sh OUT CPU_HOURS [BASELINE_CONFIG] [NEW_CONFIG]
# The runs' configs are the given ones without their evaluation: section (the gauntlet would take CPU
# from the run's core without being counted); rate them afterwards with scripts/race-eval.sh.
set -euo pipefail
out=${1:?usage: scripts/race.sh OUT CPU_HOURS [BASELINE_CONFIG] [NEW_CONFIG]}
hours=${2:?CPU hours per run}
base=${3:-configs/baseline-cpu.yaml}
new=${4:-configs/cpu.yaml}
bin=${JZ_BIN:-./build/janggi-zero}
[ "$(nproc)" -ge 2 ] || { echo "error: the race needs 2 cores (one per run)" >&2; exit 1; }
mkdir -p "$out"
strip_evaluation() {  # drops the top-level evaluation: section
  awk '/^[^ #]/ { skip = ($0 ~ /^evaluation:/) } !skip' "$1"
}
strip_evaluation "$base" > "$out/baseline.yaml"
strip_evaluation "$new" > "$out/new.yaml"
export OMP_WAIT_POLICY=passive
taskset -c 0 "$bin" train --config "$out/baseline.yaml" --run-dir "$out/baseline" --cpu-hours "$hours" \
  >> "$out/baseline.log" 2>&1 &
a=$!
taskset -c 1 "$bin" train --config "$out/new.yaml" --run-dir "$out/new" --cpu-hours "$hours" >> "$out/new.log" 2>&1 &
b=$!
trap 'kill -INT $a $b 2>/dev/null; wait' INT TERM
ra=0; wait $a || ra=$?
rb=0; wait $b || rb=$?
echo "race: baseline exit $ra, new exit $rb; logs in $out/*.log"
