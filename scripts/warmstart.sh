#!/usr/bin/env bash
# Warm start (issue 16): a network that first learns from teacher games, then goes on with self-play.
#   scripts/warmstart.sh OUT TEACH_DIR SUPERVISED_STEPS RL_CPU_HOURS
# Stage 1, OUT/sup: configs/warmstart-cpu.yaml with no self-play, every batch from TEACH_DIR (made by
# `janggi-zero teach`), SUPERVISED_STEPS steps on a cosine learning rate, 2 torch threads. Stage 2, OUT/rl: a new run from stage 1's
# last network (--init-from), self-play on, the teacher games' share decaying as the config says, until
# RL_CPU_HOURS of training CPU. Both stages resume when the script runs again with the same arguments. The
# config's evaluation section is switched off: rate the networks afterwards (gauntlet or evaluate).
# Environment: JZ_CONFIG (the config), JZ_INIT_FROM (stage 1 fine-tunes this network instead of starting from
# random weights; give a config with its architecture), JZ_SUP_LR and JZ_SUP_LR_MIN_FACTOR (stage 1's cosine:
# 0.02 and 0.05 from scratch; warmstart-3 fine-tuned the zero network with JZ_CONFIG=configs/cpu.yaml, 0.003, 0.1).
set -euo pipefail
out=${1:?usage: scripts/warmstart.sh OUT TEACH_DIR SUPERVISED_STEPS RL_CPU_HOURS}
teach=${2:?teacher chunk folder}
steps=${3:?supervised steps}
hours=${4:?RL CPU hours}
bin=${JZ_BIN:-./build/janggi-zero}
config=${JZ_CONFIG:-configs/warmstart-cpu.yaml}
export OMP_WAIT_POLICY=passive
init=()
if [ -n "${JZ_INIT_FROM:-}" ]; then init=(--init-from "$JZ_INIT_FROM"); fi
mkdir -p "$out"
"$bin" train --config "$config" --run-dir "$out/sup" --selfplay-threads 0 --steps "$steps" "${init[@]}" \
  --set training.extra_data="$teach" --set training.extra_share=1 --set training.extra_share_final=1 \
  --set training.threads="${JZ_SUP_THREADS:-2}" --set training.lr="${JZ_SUP_LR:-0.02}" \
  --set training.lr_schedule=cosine --set training.total_steps="$steps" \
  --set training.lr_min_factor="${JZ_SUP_LR_MIN_FACTOR:-0.05}" --set evaluation.opponents= \
  >> "$out/sup.log" 2>&1
net=$(printf '%s/sup/models/net-%08d.jzn' "$out" "$steps")
[ -f "$net" ] || { echo "error: stage 1 left no $net (see $out/sup.log)" >&2; exit 1; }
"$bin" train --config "$config" --run-dir "$out/rl" --init-from "$net" --cpu-hours "$hours" \
  --set training.extra_data="$teach" --set evaluation.opponents= >> "$out/rl.log" 2>&1
echo "warmstart: supervised network $net; self-play run $out/rl (logs $out/*.log)"
