#!/usr/bin/env bash
# The one prepared command for the GPU machine (docs/gpu.md). From the repository root, with the carried
# dependencies travelling with the tree:   bash scripts/gpu/device-run.sh
# (made here by scripts/gpu/prepare-deps.sh; the device tool's `carry: [".gpu-deps"]`, timeout_s 560).
#
# In order, each step under a timeout, all within DEVICE_BUDGET_S (default 510 s) from the start; a step
# that no longer fits is skipped and says so:
#   env      GPU, driver, compilers, PyTorch (env.txt)
#   build    scripts/gpu/build.sh with all cores against PyTorch's LibTorch with CUDA (build.log)
#   tests    nn_tests (its Cuda.* tests compare the GPU with the CPU) and mcts_tests (*_tests.log/.xml)
#   train    bench train 10x128 bf16, batch 512, on cuda for TRAIN_S (60) s: samples/s (train.log)
#   selfplay configs/gpu.yaml with 8 play threads for SELFPLAY_S (120) s, nvidia-smi sampled every 0.5 s:
#            evals/s, batch, fill, GPU busy share, games/hour (selfplay.log, metrics.jsonl, gpu_util.csv)
#   sweep    bench nn --sweep on cuda: 6x64, 10x128, 15x192 x fp32/bf16 x batch 64..1024 (bench_nn.csv/.log)
# Then summary.json and summary.md (the figures docs/gpu.md asks for). Everything goes to $OUT
# (default out/gpu-run). Exit status 0 when the build and the tests passed, else 1.
# For a dry run of the steps on a CPU machine: DEVICE=cpu SKIP_BUILD=1 BUILD_DIR=build TRAIN_S=5 SELFPLAY_S=20
# TRAIN_MODEL=4x32 TRAIN_BATCH=64 SWEEP_SIZES=4x32 SWEEP_BATCHES=64 (the figures are then the CPU's).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT="${OUT:-$ROOT/out/gpu-run}"
BUDGET="${DEVICE_BUDGET_S:-510}"
TRAIN_S="${TRAIN_S:-60}"
SELFPLAY_S="${SELFPLAY_S:-120}"
BUILD="${BUILD_DIR:-$ROOT/build-gpu}"
DEPS="${DEPS_DIR:-$ROOT/.gpu-deps}"
BIN="$BUILD/janggi-zero"
DEVICE="${DEVICE:-cuda}"
SWEEP_SIZES="${SWEEP_SIZES:-6x64,10x128,15x192}"
TRAIN_MODEL="${TRAIN_MODEL:-10x128}"
TRAIN_BATCH="${TRAIN_BATCH:-512}"
SWEEP_BATCHES="${SWEEP_BATCHES:-64,128,256,512,1024}"
mkdir -p "$OUT"
T0=$(date +%s)
STEPS="$OUT/steps.tsv"
printf 'step\tstatus\tseconds\n' >"$STEPS"

left() { echo $((BUDGET - ($(date +%s) - T0))); }
# step NAME WANT_S MIN_S LOG CMD...: runs CMD under timeout min(WANT_S, time left) into $OUT/LOG, or skips
# it when less than MIN_S is left. Records the exit status (124: timed out) in steps.tsv.
step() {
  local name="$1" want="$2" min="$3" log="$4"
  shift 4
  local l t s rc
  l=$(left)
  if [ "$l" -lt "$min" ]; then
    printf '%s\tskipped (%ss left)\t0\n' "$name" "$l" >>"$STEPS"
    echo "== $name: skipped, ${l}s left of ${BUDGET}s"
    return 99
  fi
  t=$((want < l ? want : l))
  echo "== $name (timeout ${t}s, $(($(date +%s) - T0))s elapsed)"
  s=$(date +%s)
  timeout --kill-after=10 "$t" "$@" >"$OUT/$log" 2>&1
  rc=$?
  printf '%s\t%s\t%s\n' "$name" "$rc" "$(($(date +%s) - s))" >>"$STEPS"
  echo "   exit $rc after $(($(date +%s) - s))s; tail of $log:"
  tail -n 5 "$OUT/$log" | sed 's/^/   | /'
  return $rc
}

env_info() {
  echo "date: $(date -u +%FT%TZ)"
  echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git status --porcelain 2>/dev/null | wc -l) changed files"
  echo "cpus: $(nproc); $(free -g | awk '/Mem:/ {print $2 " GiB memory"}')"
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader || true
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn",
    torch.backends.cudnn.version(), "available", torch.cuda.is_available(), "cxx11abi",
    torch.compiled_with_cxx11_abi()); print("cmake prefix", torch.utils.cmake_prefix_path)' || true
  command -v nvcc >/dev/null && nvcc --version | tail -2 || ls /usr/local/cuda*/bin/nvcc 2>/dev/null || echo "nvcc: not on PATH"
  c++ --version | head -1; cmake --version | head -1; echo "ninja $(ninja --version 2>/dev/null || echo none)"
  cat "$DEPS/jz-carried-deps.txt" 2>/dev/null || echo "no carried deps at $DEPS"
}
echo "== env"
env_info >"$OUT/env.txt" 2>&1
printf 'env\t0\t%s\n' "$(($(date +%s) - T0))" >>"$STEPS"

if [ -n "${SKIP_BUILD:-}" ]; then
  BUILD_RC=0
else
  step build 330 60 build.log bash scripts/gpu/build.sh --build-dir "$BUILD" --deps "$DEPS" --torch python \
    --jobs "$(nproc)" --keep-going
  BUILD_RC=$?
fi
cp "$BUILD/CMakeCache.txt" "$OUT/CMakeCache.txt" 2>/dev/null

TESTS_OK=1
for t in nn_tests mcts_tests; do
  exe="$BUILD/tests/${t%_tests}/$t"
  if [ -x "$exe" ]; then
    step "$t" 120 20 "$t.log" "$exe" --gtest_output="xml:$OUT/$t.xml" || TESTS_OK=0
  else
    printf '%s\tnot built\t0\n' "$t" >>"$STEPS"; TESTS_OK=0
  fi
done

if [ -x "$BIN" ]; then
  step train $((TRAIN_S + 40)) $((TRAIN_S / 2 + 20)) train.log "$BIN" bench train --model "$TRAIN_MODEL" --batch "$TRAIN_BATCH" \
    --device "$DEVICE" --precision bf16 --threads 2 --seconds "$TRAIN_S"

  W="$OUT/selfplay-run"
  rm -rf "$W" && mkdir -p "$W/models"
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,power.draw --format=csv,noheader,nounits \
    -lms 500 >"$OUT/gpu_util.csv" 2>/dev/null &
  SMI=$!
  echo "selfplay start $(date +%s.%N)" >"$OUT/selfplay.window"
  step selfplay $((SELFPLAY_S + 45)) $((SELFPLAY_S / 2 + 20)) selfplay.log "$BIN" selfplay --config configs/gpu.yaml \
    --models-dir "$W/models" --output-dir "$W/games" --worker-id gpu --threads 8 \
    --hours "$(python3 -c "print($SELFPLAY_S / 3600)")" --set selfplay.metrics_seconds=10 \
    --set network.device="$DEVICE"
  echo "selfplay end $(date +%s.%N)" >>"$OUT/selfplay.window"
  kill "$SMI" 2>/dev/null; wait "$SMI" 2>/dev/null
  cp "$W/games/gpu/metrics.jsonl" "$OUT/metrics.jsonl" 2>/dev/null
  du -sh "$W/games" >>"$OUT/selfplay.log" 2>&1; rm -rf "$W"  # chunks of a random network: not kept

  step sweep 200 40 bench_nn.log "$BIN" bench nn --device "$DEVICE" --sweep --sizes "$SWEEP_SIZES" \
    --batches "$SWEEP_BATCHES" --seconds 0.4 --csv "$OUT/bench_nn.csv"
else
  printf 'benchmarks\tnot run: no binary\t0\n' >>"$STEPS"
fi

python3 - "$OUT" "$BUDGET" <<'PY'
import csv, json, os, re, sys
out, budget = sys.argv[1], int(sys.argv[2])
def read(name):
    try:
        return open(os.path.join(out, name), encoding="utf-8", errors="replace").read()
    except OSError:
        return ""
s = {"steps": list(csv.DictReader(open(os.path.join(out, "steps.tsv")), delimiter="\t")), "budget_s": budget}
m = re.search(r"bench train: (\S+) (\S+) \S+, batch (\d+), .* on (\S+): (\d+) steps, ([\d.]+) ms/step, (\d+) samples/s",
              read("train.log"))
if m:
    s["train"] = {"model": m[1], "precision": m[2], "batch": int(m[3]), "device": m[4], "steps": int(m[5]),
                  "ms_per_step": float(m[6]), "samples_per_s": int(m[7])}
lines = [json.loads(l) for l in read("metrics.jsonl").splitlines() if l.strip().startswith("{")]
if lines:
    last = lines[-1]
    steady = [l for l in lines if l["elapsed"] >= 30] or lines
    el = max(last["elapsed"], 1e-9)
    sp = {"elapsed_s": last["elapsed"], "games": last["games"], "positions": last["positions"],
          "evals_per_s_after_30s": round(sum(l["evals_per_s"] for l in steady) / len(steady), 1),
          "net_batch": last.get("net_batch"), "batch_fill": last.get("batch_fill"),
          "cache_hit_rate": last.get("cache_hit_rate"), "eval_wait_share": last.get("eval_wait_share"),
          "backend_s_per_s": round(last.get("backend_s", 0) / el, 3),  # summed over server threads
          "moves_per_s_after_30s": round(sum(l["moves_per_s"] for l in steady) / len(steady), 1),
          "games_per_hour_finished": round(last["games"] * 3600 / el, 1)}
    if last.get("avg_game_plies"):  # moves of all games in play / the length of the games finished so far
        sp["avg_game_plies_finished"] = last["avg_game_plies"]
        sp["games_per_hour_from_moves"] = round(sp["moves_per_s_after_30s"] * 3600 / last["avg_game_plies"], 1)
    s["selfplay_gpu_yaml_8_threads"] = sp
util = []
for row in csv.reader(read("gpu_util.csv").splitlines()):
    try:
        util.append(float(row[1]))
    except (IndexError, ValueError):
        pass
if util:
    steady = util[40:] or util  # after the first 20 s (network set-up, first wave of searches)
    s.setdefault("selfplay_gpu_yaml_8_threads", {})["gpu_util_pct_nvidia_smi"] = round(sum(steady) / len(steady), 1)
if read("bench_nn.csv"):
    s["bench_nn"] = list(csv.DictReader(read("bench_nn.csv").splitlines()))
json.dump(s, open(os.path.join(out, "summary.json"), "w"), indent=1)
md = ["# GPU run summary", "", "| step | status | s |", "|---|---|---|"]
md += [f"| {x['step']} | {x['status']} | {x['seconds']} |" for x in s["steps"]]
if "train" in s:
    t = s["train"]
    md += ["", f"Training {t['model']} {t['precision']} batch {t['batch']} on {t['device']}: {t['samples_per_s']} samples/s "
           f"({t['ms_per_step']} ms/step, {t['steps']} steps)"]
if "selfplay_gpu_yaml_8_threads" in s:
    md += ["", "Self-play, configs/gpu.yaml, 8 play threads:", ""]
    md += [f"- {k}: {v}" for k, v in s["selfplay_gpu_yaml_8_threads"].items()]
if "bench_nn" in s:
    md += ["", "bench nn (positions/s):", "", "| model | prec | batch | raw | direct | batching | avg batch |", "|---|---|---|---|---|---|---|"]
    md += [f"| {r['model']} | {r['precision']} | {r['batch']} | {float(r['raw_per_s']):.0f} | {float(r['direct_per_s']):.0f} | "
           f"{float(r['batching_per_s']):.0f} | {float(r['avg_batch']):.1f} |" for r in s["bench_nn"]]
open(os.path.join(out, "summary.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
echo "== done in $(($(date +%s) - T0))s; build exit $BUILD_RC, tests $([ $TESTS_OK = 1 ] && echo passed || echo FAILED)"
[ "$BUILD_RC" = 0 ] && [ "$TESTS_OK" = 1 ]
