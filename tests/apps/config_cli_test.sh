#!/usr/bin/env bash
# One config file for every command that takes --config (selfplay, soak, train, cluster launch): the
# presets in configs/ get past validation everywhere; an unknown top-level section, or an unknown key
# in a section the command reads, is a one-line error with file and line; --set works the same way.
set -u
BIN=$1
SRC=$2
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
T=$(mktemp -d /tmp/jz_config_test.XXXXXX)
trap 'rm -rf "$T"' EXIT
CPU=$SRC/configs/cpu.yaml   # the preset the main job runs (any preset with every section would do)
one_line_error() { [ "$(wc -l < "$1")" -eq 1 ] && grep -q '^error: ' "$1"; }
has() { grep -qF -- "$2" "$1"; }

# Quick self-play and soak settings on top of any preset.
QUICK=(--set selfplay.games_per_thread=1 --set selfplay.max_plies=12 --set selfplay.random_opening_plies=0)
selfplay() { "$BIN" selfplay --models-dir "$T/m" --output-dir "$T/g" --stub material --threads 1 --games 1 "$@"; }
soak() { "$BIN" soak --stub material --threads 1 --seconds 3 --warmup-seconds 1 --sample-seconds 1 "$@"; }
train() { "$BIN" train --run-dir "$T/run" --steps 1 "$@"; }
launch() { "$BIN" cluster launch --run-dir "$T/crun" --workers 1 --dry-run "$@"; }

# 1. The shipped presets: self-play and soak play on them (--set makes it quick), and cluster launch
#    (which checks every section as the trainer and the workers will) accepts them.
selfplay --config "$CPU" "${QUICK[@]}" > /dev/null 2> "$T/err"; rc=$?
check "selfplay with cpu.yaml exits 0 (rc $rc: $(head -c 300 "$T/err"))" [ $rc -eq 0 ]
check "selfplay with cpu.yaml wrote a chunk" [ -n "$(find "$T/g" -name '*.jzc' 2>/dev/null)" ]
soak --config "$CPU" "${QUICK[@]}" > "$T/soak.json" 2> "$T/err"; rc=$?
check "soak with cpu.yaml gets past validation (rc $rc: $(grep error "$T/err" | head -c 300))" [ $rc -ne 1 ]
check "soak with cpu.yaml ran games" grep -q '"games": [1-9]' "$T/soak.json"
for cfg in "$SRC"/configs/*.yaml; do
  launch --config "$cfg" > /dev/null 2> "$T/err"; rc=$?
  check "cluster launch accepts $(basename "$cfg") (rc $rc: $(head -c 300 "$T/err"))" [ $rc -eq 0 ]
done

# 2. An unknown top-level section: every command refuses it, with file and line.
{ cat "$CPU"; printf 'surch:\n  gumbel: true\n'; } > "$T/section.yaml"
line=$(( $(wc -l < "$CPU") + 1 ))
want="$T/section.yaml:$line: unknown section 'surch'"
selfplay --config "$T/section.yaml" > /dev/null 2> "$T/err"; rc=$?
check "selfplay: unknown section fails" [ $rc -eq 1 ]
check "selfplay: unknown section one line" one_line_error "$T/err"
check "selfplay: unknown section with file and line ($(cat "$T/err"))" has "$T/err" "$want"
soak --config "$T/section.yaml" > /dev/null 2> "$T/err"; rc=$?
check "soak: unknown section fails" [ $rc -eq 1 ]
check "soak: unknown section with file and line ($(cat "$T/err"))" has "$T/err" "$want"
train --config "$T/section.yaml" > /dev/null 2> "$T/err"; rc=$?
check "train: unknown section fails" [ $rc -ne 0 ]
check "train: unknown section with file and line ($(cat "$T/err"))" has "$T/err" "$want"
check "train: nothing created" [ ! -e "$T/run" ]
launch --config "$T/section.yaml" > /dev/null 2> "$T/err"; rc=$?
check "cluster: unknown section fails" [ $rc -ne 0 ]
check "cluster: unknown section with file and line ($(cat "$T/err"))" has "$T/err" "$want"

# 3. An unknown key inside a section the command reads: file and line. A typo in a section of
#    another command is that command's business.
printf 'selfplay:\n  max_plies: 12\n  games_per_thred: 1\n' > "$T/key.yaml"
selfplay --config "$T/key.yaml" > /dev/null 2> "$T/err"; rc=$?
check "selfplay: unknown key fails" [ $rc -eq 1 ]
check "selfplay: unknown key one line" one_line_error "$T/err"
check "selfplay: unknown key with file and line ($(cat "$T/err"))" \
  has "$T/err" "$T/key.yaml:3: unknown option 'selfplay.games_per_thred'"
soak --config "$T/key.yaml" > /dev/null 2> "$T/err"; rc=$?
check "soak: unknown key fails" [ $rc -eq 1 ]
check "soak: unknown key with file and line" has "$T/err" "$T/key.yaml:3: unknown option 'selfplay.games_per_thred'"
printf 'selfplay:\n  max_plies: 12\n  games_per_thread: 1\ntraining:\n  model: 2x16\n  lr_sceduel: 3\n' > "$T/other.yaml"
selfplay --config "$T/other.yaml" > /dev/null 2> "$T/err"; rc=$?
check "selfplay ignores a typo in training: (rc $rc: $(head -c 300 "$T/err"))" [ $rc -eq 0 ]
train --config "$T/other.yaml" > /dev/null 2> "$T/err"; rc=$?
check "train: unknown training key fails" [ $rc -ne 0 ]
check "train: unknown key one line" one_line_error "$T/err"
check "train: unknown key with file and line ($(cat "$T/err"))" has "$T/err" "$T/other.yaml:6: unknown option 'training.lr_sceduel'"
printf 'selfplay:\n  max_plies: lots\n' > "$T/value.yaml"
selfplay --config "$T/value.yaml" > /dev/null 2> "$T/err"
check "bad value with file and line ($(cat "$T/err"))" has "$T/err" "$T/value.yaml:2: 'selfplay.max_plies' must be an integer"

# 4. --set: applied before the checks, named in errors, the same in every command.
selfplay --config "$CPU" "${QUICK[@]}" --set selfplay.max_plies=x > /dev/null 2> "$T/err"
check "selfplay --set reaches the reader ($(cat "$T/err"))" \
  has "$T/err" "--set selfplay.max_plies=x: 'selfplay.max_plies' must be an integer, got 'x'"
selfplay --config "$CPU" --set selfplay.bogus=1 > /dev/null 2> "$T/err"
check "selfplay --set unknown key ($(cat "$T/err"))" has "$T/err" "--set selfplay.bogus=1: unknown option 'selfplay.bogus'"
soak --config "$CPU" --set bogus.x=1 > /dev/null 2> "$T/err"; rc=$?
check "soak --set unknown section ($(cat "$T/err"))" has "$T/err" "--set bogus.x=1: unknown section 'bogus'"
soak --set search.nope=1 > /dev/null 2> "$T/err"; rc=$?
check "soak --set without --config ($(cat "$T/err"))" has "$T/err" "--set search.nope=1: unknown option 'search.nope'"
train --config "$CPU" --set training.nope=1 > /dev/null 2> "$T/err"; rc=$?
check "train --set unknown key ($(cat "$T/err"))" has "$T/err" "--set training.nope=1: unknown option 'training.nope'"
train --config "$CPU" --set training.batch_size=0 > /dev/null 2> "$T/err"; rc=$?
check "train --set reaches the reader ($(cat "$T/err"))" has "$T/err" "training.batch_size"
check "train: still nothing created" [ ! -e "$T/run" ]
launch --config "$CPU" --set network.bach=2 > /dev/null 2> "$T/err"; rc=$?
check "cluster --set unknown key ($(cat "$T/err"))" has "$T/err" "--set network.bach=2: unknown option 'network.bach'"
selfplay --config "$CPU" --set nokey > /dev/null 2> "$T/err"; rc=$?
check "--set without = fails" [ $rc -eq 1 ]
check "--set without = one line" one_line_error "$T/err"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
