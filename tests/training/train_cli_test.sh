#!/usr/bin/env bash
# `train` and `report` from the command line: a trainer-only run on stub self-play data, resume by
# --steps and after SIGTERM, refused inputs (one-line errors, non-zero exit), the report page.
set -u
BIN=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
RUN=$T/run
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
one_line_error() { [ "$(wc -l < "$1")" -eq 1 ] && grep -q '^error: ' "$1"; }

cat > "$T/sp.yaml" <<'YAML'
selfplay:
  max_plies: 60
  games_per_thread: 8
  games_per_chunk: 4
  full_simulations: 8
  cheap_simulations: 2
  full_fraction: 0.5
  resign: false
  seed: 3
YAML
cat "$T/sp.yaml" > "$T/cfg.yaml"
cat >> "$T/cfg.yaml" <<'YAML'
training:
  model: 2x16
  batch_size: 16
  warmup_steps: 5
  min_positions: 100
  samples_per_position: 0
  checkpoint_every: 10
  keep_checkpoints: 2
  export_every: 10
  log_every: 5
  selfplay_threads: 0
YAML
"$BIN" selfplay --config "$T/sp.yaml" --models-dir "$T/none" --output-dir "$RUN/games" --worker-id w0 \
  --stub material --games 12 2>"$T/sp.log"
if [ "$(ls "$RUN/games/w0/"*.jzc 2>/dev/null | wc -l)" -lt 1 ]; then
  echo "FAIL: stub self-play wrote no chunks: $(tail -1 "$T/sp.log")"
  exit 1
fi

timeout 300 "$BIN" train --config "$T/cfg.yaml" --run-dir "$RUN" --steps 20 --set training.refresh_seconds=14 2>"$T/t1.log"
check "train --steps 20 exits 0" [ $? -eq 0 ]
check "config copied" cmp -s "$T/cfg.yaml" "$RUN/config.yaml"
check "checkpoint at 20" [ -f "$RUN/checkpoints/ckpt-00000020.jzckpt" ]
check "network at 0 and 20" [ -f "$RUN/models/net-00000000.jzn" -a -f "$RUN/models/net-00000020.jzn" ]
check "train.csv has 4 rows" [ "$(tail -n +2 "$RUN/metrics/train.csv" | wc -l)" -eq 4 ]

timeout 300 "$BIN" train --run-dir "$RUN" --steps 30 2>"$T/t2.log"
check "resume to 30 exits 0" [ $? -eq 0 ]
check "resume says so" grep -q "resumed from .*ckpt-00000020.jzckpt at step 20" "$T/t2.log"
check "resume names the --set lines it no longer has" grep -q "trained with --set training.refresh_seconds=14; this session does not set them" "$T/t2.log"
check "only 2 checkpoints kept" [ "$(ls "$RUN/checkpoints" | wc -l)" -eq 2 ]
check "train.csv steps unique" [ "$(cut -d, -f1 "$RUN/metrics/train.csv" | sort | uniq -d | wc -l)" -eq 0 ]
check "train.csv has 6 rows" [ "$(tail -n +2 "$RUN/metrics/train.csv" | wc -l)" -eq 6 ]
check "cpu_hours is logged" awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "cpu_hours") c = i } END { exit !(c && $c > 0) }' "$RUN/metrics/train.csv"
cpu_before=$(awk -F, 'END { print $NF }' "$RUN/metrics/train.csv")
# A train.csv from before cpu_hours existed (a prefix of today's columns) keeps its rows on resume.
cut -d, -f1-18 "$RUN/metrics/train.csv" > "$T/old.csv" && cp "$T/old.csv" "$RUN/metrics/train.csv"
timeout 300 "$BIN" train --run-dir "$RUN" --steps 40 2>"$T/t2b.log"
check "resume over an older train.csv" [ $? -eq 0 ]
check "older train.csv rows kept" [ "$(tail -n +2 "$RUN/metrics/train.csv" | wc -l)" -eq 8 -a ! -e "$RUN/metrics/train.csv.old" ]
check "older rows get empty new cells" [ "$(sed -n 2p "$RUN/metrics/train.csv" | awk -F, '{ print NF }')" -eq 20 ]

# A lineage moves to a new run directory (another machine): --resume-from a checkpoint continues with its
# config, optimizer state and step, and takes the same steps as the run continued in place (the window is
# refilled; here from the same chunks, as self-play would on a fresh machine).
cp -r "$RUN" "$T/same"
mkdir -p "$T/moved" && cp -r "$RUN/games" "$T/moved/games"
timeout 300 "$BIN" train --run-dir "$T/same" --steps 50 2>"$T/l1.log"
timeout 300 "$BIN" train --resume-from "$RUN/checkpoints/ckpt-00000040.jzckpt" --run-dir "$T/moved" --steps 50 2>"$T/l2.log"
check "--resume-from exits 0" [ $? -eq 0 ]
check "--resume-from brings the config" cmp -s "$T/cfg.yaml" "$T/moved/config.yaml"
check "--resume-from resumes at step 40" grep -q "resumed from .*ckpt-00000040.jzckpt at step 40" "$T/l2.log"
check "--resume-from records where the run started" grep -q "^step 40 samples 640\$" "$T/moved/lineage.txt"
losses() { awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "loss") c = i } $1 == 45 || $1 == 50 { print $1, $c }' "$1"; }
check "the moved lineage takes the same steps" [ "$(losses "$T/same/metrics/train.csv")" = "$(losses "$T/moved/metrics/train.csv")" -a -n "$(losses "$T/moved/metrics/train.csv")" ]
timeout 60 "$BIN" train --resume-from "$RUN/checkpoints/ckpt-00000040.jzckpt" --run-dir "$RUN" --steps 60 2>"$T/e8.log"
check "--resume-from into a run with checkpoints: one line" one_line_error "$T/e8.log"
# A refused --resume-from leaves the new directory untouched, so the same command works once the cause is fixed
# (a labeller's folder that did not exist yet): no half-made run with a checkpoint that refuses the retry.
timeout 60 "$BIN" train --resume-from "$RUN/checkpoints/ckpt-00000040.jzckpt" --run-dir "$T/late" --steps 45 \
  --set training.extra_data="$T/late-labels" 2>"$T/e9.log"
check "--resume-from with a missing extra_data folder: one line" one_line_error "$T/e9.log"
check "--resume-from refused: the new run directory is not made" [ ! -e "$T/late" ]
mkdir -p "$T/late-labels" "$T/late" && cp -r "$RUN/games" "$T/late/games"
timeout 300 "$BIN" train --resume-from "$RUN/checkpoints/ckpt-00000040.jzckpt" --run-dir "$T/late" --steps 45 \
  --set training.extra_data="$T/late-labels" 2>"$T/l3.log"
check "--resume-from again once the folder exists: resumes at step 40" grep -q "resumed from .*ckpt-00000040.jzckpt at step 40" "$T/l3.log"

# Stopped by SIGTERM mid-run: a checkpoint at the step it stopped, and the next run goes on from it.
timeout 300 "$BIN" train --run-dir "$RUN" 2>"$T/t3.log" &
pid=$!
# Up to 4 minutes: on a machine with slow disk I/O, loading LibTorch alone once took over 30 s, and a signal
# before main() installs the handler ends the process by default.
for _ in $(seq 1 2400); do
  [ "$(tail -1 "$RUN/metrics/train.csv" | cut -d, -f1)" -ge 60 ] 2>/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
kill -TERM $pid
wait $pid
check "SIGTERM exits 0" [ $? -eq 0 ]
last=$(ls "$RUN/checkpoints" | tail -1 | sed 's/ckpt-0*\([0-9]*\).jzckpt/\1/')
check "checkpoint at the stop step" grep -q "stopping at step $last: signal" "$T/t3.log"
timeout 300 "$BIN" train --run-dir "$RUN" --steps $((last + 5)) 2>"$T/t4.log"
check "resume after SIGTERM" grep -q "at step $last\$" "$T/t4.log"

# Teacher games and a warm start: `teach` writes chunks; a new run starts from a network's weights and
# mixes the teacher games into its batches at a share that decays while its own games come in.
"$BIN" teach --teacher alphabeta:depth=1 --games 4 --max-plies 40 --out "$T/teach" >"$T/teach.out" 2>"$T/teach.log"
check "teach exits 0" [ $? -eq 0 ]
check "teach wrote chunks and a summary" [ -f "$T/teach/teach.json" -a "$(ls "$T/teach/"*.jzc | wc -l)" -ge 1 ]
check "teach reports the CPU split" grep -q "CPU: teacher" "$T/teach.out"
mkdir -p "$T/warm" && cp -r "$RUN/games" "$T/warm/games"
timeout 300 "$BIN" train --config "$T/cfg.yaml" --run-dir "$T/warm" --init-from "$RUN/models/net-00000020.jzn" \
  --steps 10 --set training.extra_data="$T/teach" --set training.extra_share=1 --set training.extra_decay_steps=10 \
  2>"$T/w1.log"
check "warm start exits 0" [ $? -eq 0 ]
check "warm start says so" grep -q "weights from .*net-00000020.jzn" "$T/w1.log"
check "extra share logged, decaying" awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "extra_share") c = i }
  NR == 2 { first = $c } END { exit !(c && first == "0.500" && $c == "0.000") }' "$T/warm/metrics/train.csv"
timeout 60 "$BIN" train --config "$T/cfg.yaml" --run-dir "$T/warm2" --init-from "$T/nope.jzn" --steps 1 2>"$T/e5.log"
check "missing --init-from: one line" one_line_error "$T/e5.log"
sed 's/model: 2x16/model: 3x16/' "$T/cfg.yaml" > "$T/wide.yaml"
timeout 60 "$BIN" train --config "$T/wide.yaml" --run-dir "$T/warm3" --init-from "$RUN/models/net-00000020.jzn" \
  --steps 1 2>"$T/e6.log"
check "--init-from of another architecture refused" bash -c "[ \$(grep -c '2x16 janggi network, but this run trains a 3x16 janggi one' '$T/e6.log') -eq 1 ]"
timeout 60 "$BIN" train --config "$T/cfg.yaml" --run-dir "$T/warm4" --set training.extra_data="$T/missing" --steps 1 \
  2>"$T/e7.log"
check "missing extra data refused" grep -q "is not a folder" "$T/e7.log"
# An empty one is a teacher that has not written yet (teach --relabel-from): the run trains on its own games.
mkdir -p "$T/empty" "$T/warm5" && cp -r "$RUN/games" "$T/warm5/games"
timeout 300 "$BIN" train --config "$T/cfg.yaml" --run-dir "$T/warm5" --set training.extra_data="$T/empty" \
  --set training.extra_full_only=true --steps 2 2>"$T/w5.log"
check "empty extra data: trains, and says so" grep -q "holds no replay chunks yet" "$T/w5.log"

# Refused inputs.
sed 's/batch_size: 16/batch_size: 32/' "$T/cfg.yaml" > "$T/other.yaml"
timeout 300 "$BIN" train --config "$T/other.yaml" --run-dir "$RUN" --steps 1000 2>"$T/e1.log"
check "different config refused" [ $? -ne 0 ]
check "different config: one line" one_line_error "$T/e1.log"
printf 'training:\n  bogus_key: 1\n' > "$T/bad.yaml"
timeout 300 "$BIN" train --config "$T/bad.yaml" --run-dir "$T/run2" 2>"$T/e2.log"
check "unknown key refused" [ $? -ne 0 ]
check "unknown key named" grep -q "training.bogus_key" "$T/e2.log"
newest=$(ls "$RUN/checkpoints/"*.jzckpt | tail -1)
head -c 1000 "$newest" > "$newest.tmp" && mv "$newest.tmp" "$newest"
timeout 300 "$BIN" train --run-dir "$RUN" --steps 100000 2>"$T/e3.log"
check "truncated checkpoint refused" [ $? -ne 0 ]
check "truncated checkpoint: one line naming it" bash -c "grep -q '$(basename "$newest")' '$T/e3.log' && [ \$(wc -l < '$T/e3.log') -eq 1 ]"

# Report.
mkdir -p "$RUN/eval"
printf 'network,step,games,opponent,score,elo,elo_lo,elo_hi\nnet-00000010,10,20,random,0.6,70,-10,150\nnet-00000020,20,20,random,0.7,147,60,240\nnet-00000040,40,20,random,0.8,241,130,350\n' \
  > "$RUN/eval/random.csv"
"$BIN" report --run-dir "$RUN" >"$T/r.log" 2>&1
check "report exits 0" [ $? -eq 0 ]
check "report has charts" [ "$(grep -o '<svg' "$RUN/report.html" | wc -l)" -ge 8 ]
check "report has no scripts" bash -c "! grep -qi '<script' '$RUN/report.html'"
check "report: strength vs compute" grep -q "Strength vs compute" "$RUN/report.html"
check "eval.csv joins games and CPU hours" bash -c "head -1 '$RUN/metrics/eval.csv' | grep -q ',selfplay_games,cpu_hours\$' && [ \$(grep -c '^net-00000020,20,20,random,0.7,147,60,240,[0-9]' '$RUN/metrics/eval.csv') -eq 1 ]"
check "games.csv written" [ "$(tail -n +2 "$RUN/metrics/games.csv" | wc -l)" -ge 1 ]
check "eval.csv merged" [ "$(tail -n +2 "$RUN/metrics/eval.csv" | wc -l)" -eq 3 ]
"$BIN" report --run-dir "$T/nope" 2>"$T/e4.log"
check "report on a missing dir fails" [ $? -ne 0 ]
check "report missing dir: one line" one_line_error "$T/e4.log"

echo "train CLI: $pass passed, $fail failed"
[ $fail -eq 0 ]
