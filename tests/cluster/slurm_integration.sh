#!/usr/bin/env bash
# End to end on a real single-node Slurm (scripts/slurm-local.sh): `cluster launch` with 2 self-play
# workers (1 CPU each) and a trainer on a tiny config; both workers' games arrive; the workers switch
# to a network the trainer exported (chunks carry its id); `scancel` of one worker mid-run leaves only
# valid chunks; `cluster stop` ends the rest. Installs slurm-wlm and munge with apt-get; skips (exit
# 77, shown as skipped by ctest) only when Slurm is missing and apt-get is not available.
set -u
BIN=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUDGET=${JZ_SLURM_TEST_SECONDS:-270}  # all the waits below together; the test stays under 5 minutes
# JZ_SLURM_TEST_JOB_BINARY: run the jobs with another janggi-zero build (debugging aid).
export JZ_SLURM_DIR=/tmp/jz-slurm-it.$$ JZ_SLURM_PORT=${JZ_SLURM_TEST_PORT:-26817}
RUN=$JZ_SLURM_DIR/run
T0=$SECONDS
say() { echo "[$((SECONDS - T0)) s] $*"; }
die() { say "FAIL: $*"; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  if ! command -v apt-get >/dev/null; then echo "SKIP: Slurm is not installed and apt-get is not available"; exit 77; fi
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: Slurm is not installed and installing it needs root"; exit 77; }
  say "installing slurm-wlm and munge"
  bash "$ROOT/scripts/slurm-local.sh" install || die "apt-get install slurm-wlm munge failed"
fi
[ "$(id -u)" -eq 0 ] || { echo "SKIP: a local Slurm needs root (slurmd)"; exit 77; }

cleanup() {
  set +e
  if [ -n "${SLURM_CONF:-}" ]; then
    timeout 40 "$BIN" cluster stop --run-dir "$RUN" --wait 30 > /dev/null 2>&1
    timeout 10 scancel --full $(timeout 10 squeue -h -o %A 2>/dev/null | sort -u) > /dev/null 2>&1  # only this test's cluster
  fi
  bash "$ROOT/scripts/slurm-local.sh" stop
  # slurmd does not take its jobs' processes with it: end any left, found by this run's directory.
  for p in /proc/[0-9]*; do
    grep -qaF "$RUN" "$p/cmdline" 2>/dev/null && kill -KILL "${p#/proc/}" 2>/dev/null
  done
  [ -n "${KEEP:-}" ] || rm -rf "$JZ_SLURM_DIR"
}
trap cleanup EXIT

say "starting Slurm in $JZ_SLURM_DIR (port $JZ_SLURM_PORT)"
out=$(bash "$ROOT/scripts/slurm-local.sh" start) || die "slurm-local.sh start failed"
eval "$out"
[ -n "${SLURM_CONF:-}" ] || die "no SLURM_CONF from slurm-local.sh"
sinfo

# configs/tiny.yaml, made quicker: train and export early and often.
CFG=$JZ_SLURM_DIR/tiny.yaml
sed -e 's/^\(  min_positions:\).*/\1 150/' -e 's/^\(  export_every:\).*/\1 10/' \
    -e 's/^\(  checkpoint_every:\).*/\1 10/' -e 's/^\(  batch_size:\).*/\1 32/' \
    -e 's/^\(  model_poll_seconds:\).*/\1 2/' -e 's/^\(  games_per_chunk:\).*/\1 2/' \
    -e 's/^\(  games_per_thread:\).*/\1 8/' -e 's/^\(  max_plies:\).*/\1 80/' \
    "$ROOT/configs/tiny.yaml" > "$CFG" || die "no configs/tiny.yaml"

say "launching 2 workers + trainer"
"$BIN" cluster launch --run-dir "$RUN" --config "$CFG" --workers 2 --cpus-per-worker 1 --trainer-cpus 1 \
  --time 10 ${JZ_SLURM_TEST_JOB_BINARY:+--binary "$JZ_SLURM_TEST_JOB_BINARY"} > "$JZ_SLURM_DIR/launch.out" ||
  die "cluster launch failed"
cat "$JZ_SLURM_DIR/launch.out"
ARRAY=$(sed -n 's/^selfplay *job \([0-9][0-9]*\).*/\1/p' "$JZ_SLURM_DIR/launch.out")
[ -n "$ARRAY" ] || die "no self-play job id in the launch output"
grep -q "\"id\": \"$ARRAY\"" "$RUN/slurm/jobs.json" || die "jobs.json does not record job $ARRAY"

DEADLINE=$((SECONDS + BUDGET))
wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...: at most SECONDS, and never past DEADLINE
  local limit=$1 what=$2; shift 2
  local end=$((SECONDS + limit))
  [ $end -le $DEADLINE ] || end=$DEADLINE
  until "$@"; do
    [ $SECONDS -lt $end ] || { "$BIN" cluster status --run-dir "$RUN"; tail -n 5 "$RUN"/slurm/logs/*.log; die "timed out waiting for $what"; }
    sleep 2
  done
  say "ok: $what"
}
has_chunks() { [ -n "$(ls "$RUN/games/$1/" 2>/dev/null | grep '\.jzc$')" ]; }
newest_step() { ls "$RUN/models" 2>/dev/null | sed -n 's/^net-0*\([0-9][0-9]*\)\.jzn$/\1/p' | sort -n | tail -1; }
trained_net_exported() { local s; s=$(newest_step); [ -n "$s" ] && [ "$s" -gt 0 ]; }
# Some chunk's games were played by a network of step > 0 (records carry the network id).
picked_up() {
  local f
  for f in $(ls -t "$RUN"/games/w*/*.jzc 2>/dev/null | head -6); do
    "$BIN" record --chunk "$f" --format json 2>/dev/null | grep -o '"network":"[^"]*"' |
      grep -q 'net-0*[1-9][0-9]*' && { PICKED=$f; return 0; }
  done
  return 1
}
worker_gone() { ! squeue -h -r -o %i | grep -qx "${ARRAY}_1"; }

both_have_chunks() { has_chunks w0 && has_chunks w1; }
wait_for 150 "games from both workers" both_have_chunks
wait_for 200 "a trained network exported" trained_net_exported
say "newest network: step $(newest_step)"
wait_for 200 "workers playing with it" picked_up
say "picked up in $PICKED: $("$BIN" record --chunk "$PICKED" --format json | grep -o '"network":"[^"]*"' | sort -u | tr '\n' ' ')"

# Kill one worker mid-run: it gets SIGTERM (then SIGKILL after KillWait) while it is playing.
before=$(ls "$RUN/games/w1" | grep -c '\.jzc$')
say "scancel ${ARRAY}_1 (w1 has $before chunks)"
scancel "${ARRAY}_1" || die "scancel failed"
DEADLINE=$((SECONDS + 90))  # KillWait (20 s) at most, plus Slurm's bookkeeping
wait_for 60 "w1 gone from the queue" worker_gone
squeue -h -r -o '%i %T' | grep -qx "${ARRAY}_0 RUNNING" || die "w0 did not keep running when w1 was cancelled"
grep -q requeueing "$RUN/slurm/logs/selfplay-${ARRAY}_1.log" && die "w1 requeued itself after scancel"
grep -q "signal" "$RUN"/slurm/logs/selfplay-"${ARRAY}"_1.log && say "w1 log: $(grep signal "$RUN"/slurm/logs/selfplay-"${ARRAY}"_1.log | tail -1)"
check_chunks() {  # every chunk through the replay reader (one process), a few through `record --validate`
  "$BIN" cluster status --run-dir "$RUN" --validate --json > "$JZ_SLURM_DIR/st.json" || die "status --validate failed"
  grep -q '"bad_chunks": [1-9]' "$JZ_SLURM_DIR/st.json" && { cat "$JZ_SLURM_DIR/st.json"; die "corrupt chunks $1"; }
  local f
  for f in $(ls -t "$RUN"/games/w1/*.jzc | head -3) $(ls -t "$RUN"/games/w0/*.jzc | head -2); do
    "$BIN" record --chunk "$f" --validate > /dev/null 2>&1 || die "record --validate rejects $f $1"
  done
  say "$(find "$RUN/games" -name '*.jzc' | wc -l) chunks valid $1"
}
check_chunks "after scancel"
[ -z "$(find "$RUN/games/w1" -name '*.tmp*')" ] || die "w1 left temporary files: $(find "$RUN/games/w1" -name '*.tmp*')"

"$BIN" cluster status --run-dir "$RUN" || die "cluster status failed"
"$BIN" cluster stop --run-dir "$RUN" --wait 60 || die "cluster stop failed"
left=$(squeue -h -o %i)
[ -z "$left" ] || die "jobs still queued after stop: $left"
check_chunks "after stop"
"$BIN" cluster status --run-dir "$RUN" | grep -q 'not in queue' || die "status does not show the stopped jobs"
say "PASS"
