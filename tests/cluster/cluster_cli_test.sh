#!/usr/bin/env bash
# `janggi-zero cluster launch|status|stop` against stand-in Slurm tools (PATH), and the generated
# scripts' job control run directly by bash: worker ids, TERM forwarded so workers flush, requeue
# when the time limit stops a job. The real Slurm run is slurm_integration.sh.
set -u
BIN=$1
T=$(mktemp -d /tmp/jz-cluster-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
contains() { grep -q -- "$2" "$1"; }

# Stand-in Slurm tools: sbatch hands out ids from a counter, squeue prints $T/fake/queue.
F=$T/fake; mkdir -p "$F/bin"
echo 100 > "$F/next"; : > "$F/queue"
cat > "$F/bin/sbatch" <<'SH'
#!/bin/bash
F=$(dirname "$0")/..
echo "$*" >> "$F/sbatch.log"
[ -e "$F/sbatch_fail_at" ] && [ "$(wc -l < "$F/sbatch.log")" -ge "$(cat "$F/sbatch_fail_at")" ] && { echo "sbatch: error: Batch job submission failed: Invalid partition" >&2; exit 1; }
id=$(cat "$F/next"); echo $((id + 1)) > "$F/next"
echo "$id|RUNNING|0:01|node1" >> "$F/queue"
echo "$id;local"
SH
cat > "$F/bin/squeue" <<'SH'
#!/bin/bash
cat "$(dirname "$0")/../queue"
SH
cat > "$F/bin/scancel" <<'SH'
#!/bin/bash
F=$(dirname "$0")/..
echo "$*" >> "$F/scancel.log"
for id in "$@"; do grep -v "^$id[|_]" "$F/queue" > "$F/queue.new"; mv "$F/queue.new" "$F/queue"; done
SH
cat > "$F/bin/scontrol" <<'SH'
#!/bin/bash
echo "$*" >> "$(dirname "$0")/../scontrol.log"
SH
# Stand-in janggi-zero for the jobs: records its arguments, flushes on TERM.
cat > "$F/bin/jz-fake" <<'SH'
#!/bin/bash
log=$JZ_FAKE_LOG
echo "args $*" >> "$log"
trap 'echo flushed >> "$log"; exit 0' TERM
echo started >> "$log"
while :; do sleep 0.1; done
SH
chmod +x "$F"/bin/*
FPATH="$F/bin:$PATH"
CFG=$T/tiny.yaml
printf 'selfplay:\n  games_per_chunk: 1\ntraining:\n  lr: 0.5\n' > "$CFG"
RUN=$T/run

# --- bad input: one line on stderr, non-zero exit ---
bad() {  # bad NAME ARGS...: must fail with exactly one line of error output
  local name=$1; shift
  PATH=$FPATH "$BIN" cluster "$@" > /dev/null 2> "$T/err"; local rc=$?
  check "$name exits non-zero" [ $rc -ne 0 ]
  check "$name one-line error" [ "$(wc -l < "$T/err")" -eq 1 ]
}
for args in "launch --run-dir $RUN --config $CFG" "launch --run-dir $RUN --config $CFG --workers 0"; do
  PATH=$FPATH "$BIN" cluster $args > /dev/null 2>&1  # CLI11's own messages (two lines)
  check "$args exits non-zero" [ $? -ne 0 ]
done
bad "bad time" launch --run-dir "$RUN" --config "$CFG" --workers 2 --time soon
bad "missing config" launch --run-dir "$RUN" --config "$T/nope.yaml" --workers 2
bad "no config at all" launch --run-dir "$RUN" --workers 2
bad "bad sbatch arg" launch --run-dir "$RUN" --config "$CFG" --workers 2 --sbatch-arg account=x
bad "stop without jobs" stop --run-dir "$RUN"
bad "status of nothing" status --run-dir "$T/does-not-exist"
PATH=$FPATH "$BIN" cluster --run-dir "$RUN" > /dev/null 2>&1
check "no subcommand exits non-zero" [ $? -ne 0 ]
printf 'selfplay\n  games_per_chunk: 1\n' > "$T/broken.yaml"
bad "broken config" launch --run-dir "$RUN" --config "$T/broken.yaml" --workers 1
# The config is checked as the jobs will read it: every section, unknown keys with file and line.
printf 'selfplay:\n  games_per_chunk: 1\ntraining:\n  lr: 0.5\n  lr_typo: 1\n' > "$T/typo.yaml"
bad "unknown training key" launch --run-dir "$RUN" --config "$T/typo.yaml" --workers 1 --dry-run
check "unknown training key: file and line" contains "$T/err" "$T/typo.yaml:5: unknown option 'training.lr_typo'"
printf 'selfplay:\n  games_per_chunk: 1\nsurch:\n  gumbel: true\n' > "$T/section.yaml"
bad "unknown section" launch --run-dir "$RUN" --config "$T/section.yaml" --workers 1 --dry-run
check "unknown section: file and line" contains "$T/err" "$T/section.yaml:3: unknown section 'surch'"
bad "unknown --set key" launch --run-dir "$RUN" --config "$CFG" --workers 1 --dry-run --set training.nope=1
check "unknown --set key named" contains "$T/err" "--set training.nope=1: unknown option 'training.nope'"
check "failed launches created nothing" [ ! -e "$RUN" ]

# --- dry run: prints every script, writes and submits nothing; the scripts are valid bash ---
PATH=$FPATH "$BIN" cluster launch --run-dir "$RUN" --config "$CFG" --workers 3 --evaluator --time 2:00:00 \
  --gpus-per-worker 1 --trainer-gpus 1 --dry-run > "$T/dry" 2> "$T/err"
check "dry run exits 0" [ $? -eq 0 ]
check "dry run prints three scripts" [ "$(grep -c '^==> ' "$T/dry")" -eq 3 ]
check "dry run array" contains "$T/dry" '#SBATCH --array=0-2'
check "dry run gres" contains "$T/dry" '#SBATCH --gres=gpu:1'
check "dry run wrote nothing" [ ! -e "$RUN" ]
PATH=$FPATH "$BIN" cluster launch --run-dir "$RUN" --config "$CFG" --workers 1 --set selfplay.max_plies=50 \
  --set "evaluation.opponents=random; alphabeta:level=easy" --dry-run > "$T/dry-set" 2> "$T/err"
check "dry run with --set exits 0" [ $? -eq 0 ]
sets="--set selfplay.max_plies=50 --set 'evaluation.opponents=random; alphabeta:level=easy'"
check "--set passed to the workers" grep -qF -- "--worker-id \"\$WORKER\" $sets" "$T/dry-set"
check "--set passed to the trainer" grep -qF -- "--resume --trainer-only $sets" "$T/dry-set"
check "dry run submitted nothing" [ ! -e "$F/sbatch.log" ]
awk -v d="$T" '/^==> /{n++; f=d "/dry-" n ".sh"; next} n{print > f}' "$T/dry"
for s in "$T"/dry-*.sh; do check "bash -n $(basename "$s")" bash -n "$s"; done

# --- launch with the stand-ins ---
PATH=$FPATH "$BIN" cluster launch --run-dir "$RUN" --config "$CFG" --workers 2 --binary "$F/bin/jz-fake" \
  --sbatch-arg=--oversubscribe > "$T/out" 2> "$T/err"
check "launch exits 0" [ $? -eq 0 ]
check "launch prints ids" contains "$T/out" 'selfplay  job 100'
check "launch prints trainer" contains "$T/out" 'trainer   job 101'
check "sbatch --parsable" contains "$F/sbatch.log" "--parsable $RUN/slurm/selfplay.sbatch"
check "two submissions" [ "$(wc -l < "$F/sbatch.log")" -eq 2 ]
check "config copied" cmp -s "$CFG" "$RUN/config.yaml"
check "workers read the run's config" grep -qxE "SPCONFIG='?$RUN/config.yaml'?" "$RUN/slurm/selfplay.sbatch"
check "no derived workers' config" [ ! -e "$RUN/slurm/selfplay.yaml" ]
check "jobs.json ids" contains "$RUN/slurm/jobs.json" '"id": "100"'
check "jobs.json trainer" contains "$RUN/slurm/jobs.json" '"role": "trainer"'
check "scripts written" [ -s "$RUN/slurm/selfplay.sbatch" ] && [ -s "$RUN/slurm/trainer.sbatch" ]
check "extra sbatch arg" contains "$RUN/slurm/trainer.sbatch" '#SBATCH --oversubscribe'
check "logs dir exists" [ -d "$RUN/slurm/logs" ]
check "no temporaries left" [ -z "$(find "$RUN" -name '*.tmp*')" ]

# A second launch while the first is queued would start a second w0.
PATH=$FPATH "$BIN" cluster launch --run-dir "$RUN" --workers 2 --binary "$F/bin/jz-fake" > /dev/null 2> "$T/err"
check "relaunch refused while running" [ $? -ne 0 ]
check "relaunch names the jobs" contains "$T/err" '100, 101'
printf 'selfplay:\n  games_per_chunk: 2\n' > "$T/other.yaml"
PATH=$FPATH "$BIN" cluster launch --run-dir "$RUN" --config "$T/other.yaml" --workers 1 --binary "$F/bin/jz-fake" > /dev/null 2> "$T/err"
check "different config refused" contains "$T/err" 'differs'

# --- status ---
mkdir -p "$RUN/models" "$RUN/metrics"
echo x > "$RUN/models/net-00000042.jzn"
printf 'step,loss,samples_per_s\n42,1.5,321.5\n' > "$RUN/metrics/train.csv"
PATH=$FPATH "$BIN" cluster status --run-dir "$RUN" > "$T/st" 2> "$T/err"
check "status exits 0" [ $? -eq 0 ]
check "status job state" contains "$T/st" 'RUNNING'
check "status network" contains "$T/st" 'net-00000042.jzn (step 42'
check "status samples/s" contains "$T/st" '321.5 samples/s'
PATH=$FPATH "$BIN" cluster status --run-dir "$RUN" --json > "$T/sj"
check "status json" contains "$T/sj" '"state": "RUNNING"'
# Without Slurm the status still reports the run.
mkdir -p "$T/no-slurm"
PATH=$T/no-slurm "$BIN" cluster status --run-dir "$RUN" > "$T/st" 2>&1
check "status without slurm exits 0" [ $? -eq 0 ]
check "status without slurm says so" contains "$T/st" 'squeue not found'

# --- stop ---
PATH=$FPATH "$BIN" cluster stop --run-dir "$RUN" --wait 5 > "$T/out" 2> "$T/err"
check "stop exits 0" [ $? -eq 0 ]
check "scancel got both ids" contains "$F/scancel.log" '^100 101$'
check "queue empty" [ ! -s "$F/queue" ]
PATH=$FPATH "$BIN" cluster status --run-dir "$RUN" > "$T/st"
check "status after stop" contains "$T/st" 'not in queue'

# Relaunch after stop: allowed, earlier ids kept.
PATH=$FPATH "$BIN" cluster launch --run-dir "$RUN" --workers 2 --binary "$F/bin/jz-fake" --evaluator > "$T/out" 2> "$T/err"
check "relaunch after stop" [ $? -eq 0 ]
check "earlier ids kept" contains "$RUN/slurm/jobs.json" '"earlier_ids"'
check "three jobs now" [ "$(grep -c '"role"' "$RUN/slurm/jobs.json")" -eq 3 ]
PATH=$FPATH "$BIN" cluster stop --run-dir "$RUN" > /dev/null

# A failed submission cancels what was already submitted.
echo 2 > "$F/sbatch_fail_at"; : > "$F/sbatch.log"; : > "$F/scancel.log"
PATH=$FPATH "$BIN" cluster launch --run-dir "$RUN" --workers 1 --binary "$F/bin/jz-fake" > /dev/null 2> "$T/err"
check "failed sbatch exits non-zero" [ $? -ne 0 ]
check "failed sbatch message" contains "$T/err" 'Invalid partition'
check "first job cancelled" [ -s "$F/scancel.log" ]
rm -f "$F/sbatch_fail_at"

# --- job control inside the scripts (bash runs them as Slurm would) ---
export JZ_FAKE_LOG=$T/fake.log
run_job() {  # run_job SCRIPT [array]: starts it like slurmstepd would: job 555, or task 3 of array 550
  : > "$JZ_FAKE_LOG"; : > "$F/scontrol.log"
  if [ "${2:-}" = array ]; then
    PATH=$FPATH SLURM_JOB_ID=555 SLURM_ARRAY_JOB_ID=550 SLURM_ARRAY_TASK_ID=3 SLURM_CPUS_PER_TASK=2 bash "$1" > "$T/job.out" 2>&1 &
  else
    PATH=$FPATH SLURM_JOB_ID=555 SLURM_CPUS_PER_TASK=2 bash "$1" > "$T/job.out" 2>&1 &
  fi
  job=$!
  for _ in $(seq 100); do grep -q started "$JZ_FAKE_LOG" && break; sleep 0.1; done
}
# scancel: TERM reaches the worker, which flushes; no requeue.
run_job "$RUN/slurm/selfplay.sbatch" array
check "worker args" contains "$JZ_FAKE_LOG" "selfplay --config $RUN/config.yaml --models-dir $RUN/models --output-dir $RUN/games --threads 2 --worker-id w3"
kill -TERM $job; wait $job; rc=$?
check "TERM: worker flushed" contains "$JZ_FAKE_LOG" flushed
check "TERM: exit 0" [ $rc -eq 0 ]
check "TERM: no requeue" [ ! -s "$F/scontrol.log" ]
check "worker dir created" [ -d "$RUN/games/w3" ]
# scancel signals every process of the job: the worker must get exactly one TERM. This stand-in,
# like selfplay, restores the default action after the first TERM, then takes 2 s to flush.
cat > "$F/bin/jz-fake1" <<'SH'
#!/bin/bash
log=$JZ_FAKE_LOG
on_term() { trap - TERM; echo term >> "$log"; for _ in $(seq 20); do sleep 0.1; done; echo flushed >> "$log"; exit 0; }
trap on_term TERM
echo $$ > "$log.pid"
echo started >> "$log"
while :; do sleep 0.1; done
SH
chmod +x "$F/bin/jz-fake1"
sed "s|^BIN=.*|BIN=$F/bin/jz-fake1|" "$RUN/slurm/selfplay.sbatch" > "$T/one-term.sbatch"
run_job "$T/one-term.sbatch" array
fake_pid=$(cat "$JZ_FAKE_LOG.pid")
kill -TERM $job $fake_pid; wait $job; rc=$?
check "scancel: one TERM" [ "$(grep -c term "$JZ_FAKE_LOG")" -eq 1 ]
check "scancel: flushed" contains "$JZ_FAKE_LOG" flushed
check "scancel: exit 0" [ $rc -eq 0 ]
# --signal=B:USR1@60 (time nearly up): TERM forwarded, then requeue.
run_job "$RUN/slurm/trainer.sbatch"
check "trainer args" contains "$JZ_FAKE_LOG" "train --config $RUN/config.yaml --run-dir $RUN --resume --trainer-only"
kill -USR1 $job; wait $job; rc=$?
check "USR1: trainer flushed" contains "$JZ_FAKE_LOG" flushed
check "USR1: requeued" contains "$F/scontrol.log" 'requeue 555'
check "USR1: exit 0" [ $rc -eq 0 ]
# The timeout inside the job: --time 0:08 lets the command run 6 s, then requeues.
PATH=$FPATH "$BIN" cluster launch --run-dir "$T/run2" --config "$CFG" --workers 1 --time 0:08 \
  --binary "$F/bin/jz-fake" > /dev/null 2>&1
PATH=$FPATH "$BIN" cluster stop --run-dir "$T/run2" > /dev/null
start=$SECONDS
run_job "$T/run2/slurm/selfplay.sbatch" array
wait $job; rc=$?
check "timeout: stopped after about 6 s" [ $((SECONDS - start)) -ge 5 ] && [ $((SECONDS - start)) -le 12 ]
check "timeout: flushed" contains "$JZ_FAKE_LOG" flushed
check "timeout: requeued this task only" contains "$F/scontrol.log" '^requeue 550_3$'
# A script run outside an array task refuses clearly.
PATH=$FPATH bash "$RUN/slurm/selfplay.sbatch" > "$T/job.out" 2>&1
check "no array index: fails" [ $? -ne 0 ]
check "no array index: says why" contains "$T/job.out" 'SLURM_ARRAY_TASK_ID'

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
