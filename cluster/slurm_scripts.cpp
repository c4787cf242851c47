// Batch script text. Every script is self-contained (no file next to it is needed at run time) and
// shares one job-control block: run the command in the background with a timer, forward Slurm's
// signals to it so a worker flushes its finished games, and requeue itself when the time is up.
// The time limit is a timer in bash rather than `timeout`: timeout would pass on scancel's TERM a
// second time, and the self-play worker treats a second TERM as "exit now".
#include "cluster/slurm_scripts.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace jz {

std::string shell_quote(const std::string& s) {
  bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+' || c == ':' || c == '=' ||
           c == ',' || c == '@';
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool parse_slurm_time(const std::string& s, long* seconds, std::string* error) {
  auto fail = [&] {
    *error = "bad --time '" + s + "' (Slurm formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S)";
    return false;
  };
  if (s == "UNLIMITED" || s == "INFINITE" || s == "unlimited" || s == "infinite") {
    *seconds = 0;
    return true;
  }
  std::string rest = s;
  long days = -1;
  size_t dash = rest.find('-');
  if (dash != std::string::npos) {
    std::string d = rest.substr(0, dash);
    if (d.empty() || d.size() > 4 || !std::all_of(d.begin(), d.end(), ::isdigit)) return fail();
    days = std::stol(d);
    rest = rest.substr(dash + 1);
  }
  std::vector<long> parts;
  std::istringstream is(rest);
  for (std::string tok; std::getline(is, tok, ':');) {
    if (tok.empty() || tok.size() > 6 || !std::all_of(tok.begin(), tok.end(), ::isdigit)) return fail();
    parts.push_back(std::stol(tok));
  }
  if (rest.empty() || rest.back() == ':' || parts.empty() || parts.size() > 3) return fail();
  long t = 0;
  if (days >= 0) {  // D-H, D-H:M, D-H:M:S
    t = days * 86400 + parts[0] * 3600;
    if (parts.size() > 1) t += parts[1] * 60;
    if (parts.size() > 2) t += parts[2];
  } else if (parts.size() == 1) {
    t = parts[0] * 60;  // M
  } else if (parts.size() == 2) {
    t = parts[0] * 60 + parts[1];  // M:S
  } else {
    t = parts[0] * 3600 + parts[1] * 60 + parts[2];  // H:M:S
  }
  if (t <= 0) return fail();
  *seconds = t;
  return true;
}

long inner_time_limit(long t) {
  if (t <= 0) return 0;
  // Room to flush and exit: a tenth of the limit, between one and ten minutes; short test jobs a quarter.
  long margin = t < 240 ? std::max<long>(1, t / 4) : std::min<long>(600, std::max<long>(60, t / 10));
  return std::max<long>(1, t - margin);
}

bool check_launch_options(const LaunchOptions& o, std::string* error) {
  auto bad = [&](const std::string& m) {
    *error = m;
    return false;
  };
  if (o.run_dir.empty() || o.run_dir[0] != '/') return bad("run directory must be an absolute path");
  if (o.binary.empty() || o.binary[0] != '/') return bad("--binary must be an absolute path");
  if (o.config.empty() || o.config[0] != '/') return bad("config must be an absolute path");
  if (!o.selfplay_config.empty() && o.selfplay_config[0] != '/') return bad("selfplay config must be an absolute path");
  for (const std::string* p : {&o.run_dir, &o.binary, &o.config, &o.selfplay_config})
    if (p->find_first_of("\n\r") != std::string::npos) return bad("paths must not contain line breaks");
  for (const std::string& s : o.overrides)
    if (s.find('=') == std::string::npos || s.find_first_of("\n\r") != std::string::npos)
      return bad("--set '" + s + "': expected key=value on one line");
  if (o.evaluator && o.run_dir.find(',') != std::string::npos)
    return bad("--evaluator: the run directory must not contain ',' (player specs are comma-separated)");
  if (o.workers < 1 || o.workers > 10000) return bad("--workers must be in 1..10000");
  if (o.cpus_per_worker < 1 || o.cpus_per_worker > 1024) return bad("--cpus-per-worker must be in 1..1024");
  if (o.trainer_cpus < 1 || o.trainer_cpus > 1024) return bad("--trainer-cpus must be in 1..1024");
  if (o.gpus_per_worker < 0 || o.gpus_per_worker > 64) return bad("--gpus-per-worker must be in 0..64");
  if (o.trainer_gpus < 0 || o.trainer_gpus > 64) return bad("--trainer-gpus must be in 0..64");
  if (o.eval_games < 1 || o.eval_sims < 0 || o.eval_poll_seconds < 1) return bad("bad evaluator settings");
  if (o.eval_opponent.empty() || o.eval_opponent.find_first_of("\n\r") != std::string::npos)
    return bad("bad --eval-opponent");
  if (!o.time.empty()) {
    long t = 0;
    if (!parse_slurm_time(o.time, &t, error)) return false;
  }
  for (char c : o.partition + o.job_name)
    if (std::isspace((unsigned char)c) || c == '\'' || c == '"' || c == '$')
      return bad("--partition and --job-name must be plain words");
  if (o.job_name.empty()) return bad("--job-name must not be empty");
  if (o.eval_cpus < 1 || o.eval_cpus > 1024 || o.eval_gpus < -1 || o.eval_gpus > 64)
    return bad("--eval-cpus must be in 1..1024 and --eval-gpus in 0..64");
  for (const std::string& a : o.sbatch_args)
    if (a.size() < 2 || a[0] != '-' || a.find_first_of("\n\r") != std::string::npos)
      return bad("--sbatch-arg '" + a + "': expected one sbatch option such as --account=NAME");
  return true;
}

namespace {

// The #SBATCH header.
std::string sbatch_header(const LaunchOptions& o, const std::string& role, int cpus, int gpus,
                          const std::string& array) {
  std::ostringstream s;
  const std::string log = o.run_dir + "/slurm/logs/" + role + (array.empty() ? "-%j.log" : "-%A_%a.log");
  s << "#!/bin/bash\n";
  s << "#SBATCH --job-name=" << o.job_name << "-" << role << "\n";
  if (!array.empty()) s << "#SBATCH --array=" << array << "\n";
  s << "#SBATCH --ntasks=1\n";
  s << "#SBATCH --cpus-per-task=" << cpus << "\n";
  if (gpus > 0) s << "#SBATCH --gres=gpu:" << gpus << "\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  s << "#SBATCH --requeue\n";
  // B: signals the batch shell only; it forwards TERM to the command and then requeues the job.
  s << "#SBATCH --signal=B:USR1@60\n";
  s << "#SBATCH --open-mode=append\n";
  s << "#SBATCH --output=" << log << "\n";
  for (const std::string& a : o.sbatch_args) s << "#SBATCH " << a << "\n";
  return s.str();
}

// The run's paths and the command's time limit, as shell variables.
std::string run_variables(const LaunchOptions& o, const std::string& role) {
  std::ostringstream s;
  s << "# Written by `janggi-zero cluster launch` (" << role << "). Nothing here but the array index and\n"
    << "# the CPU/GPU counts comes from Slurm: the same run directory works with `janggi-zero train`.\n";
  s << "set -u\n";
  s << "RUN=" << shell_quote(o.run_dir) << "\n";
  s << "BIN=" << shell_quote(o.binary) << "\n";
  s << "CONFIG=" << shell_quote(o.config) << "\n";
  long t = 0;
  std::string err;
  if (!o.time.empty()) parse_slurm_time(o.time, &t, &err);
  long limit = inner_time_limit(t);
  s << "LIMIT=" << limit << "  # seconds the command may run (0: no limit); Slurm's --time kills late\n";
  // Grace between the TERM and a SIGKILL: 30 s, or half the room before Slurm's own limit.
  s << "KILL_AFTER=" << (t > 0 ? std::max<long>(1, std::min<long>(30, (t - limit) / 2)) : 30) << "\n";
  return s.str();
}

// The job-control block every script shares: signals, the command's run with its time limit, requeue.
const char* const JOB_CONTROL =
    R"SH(# An array task's own id is ARRAY_TASK: `scontrol requeue $SLURM_JOB_ID` could hit the whole array.
if [ -n "${SLURM_ARRAY_JOB_ID:-}" ]; then JOB=${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}; else JOB=${SLURM_JOB_ID:-local}; fi
child=0 timer=0 killer=0 sleeper=0 forwarded=0 time_up=0 stopping=0
say() { echo "$(date '+%F %T') [$JOB] $*"; }
# after SECONDS CMD...: runs CMD later from a subshell that a TERM cancels (with its sleep).
# Only if the sleep ran out: scancel signals the sleep too, and must not set off the command.
after() { local d=$1; shift; ( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep "$d" & s=$!; wait $s && "$@" ) & }
# One TERM to the command, SIGKILL if it is still there KILL_AFTER seconds later. Only one: a
# second TERM may end a worker before it has flushed its finished games.
stop_child() {
  [ "$child" -gt 0 ] && [ "$forwarded" = 0 ] || return 0
  forwarded=1
  kill -TERM "$child" 2>/dev/null
  after "$KILL_AFTER" kill -KILL "$child" 2>/dev/null; killer=$!
}
catches_term() {  # does process $1 still have a SIGTERM handler (bit 15 of SigCgt)?
  local cgt
  cgt=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null)
  [ -n "$cgt" ] && [ $(( (16#$cgt >> 14) & 1 )) = 1 ]
}
# USR1: the time is nearly up (--signal=B:USR1@60, or the timer in jz_run); Slurm tells only this
# shell, so pass it on. TERM (scancel, preemption): Slurm signals every process of the job; forward
# only if the command has not handled one itself, as when someone signals this shell alone.
trap 'time_up=1; stopping=1; stop_child; wake' USR1
trap 'stopping=1; wake; if [ "$child" -gt 0 ]; then sleep 1; kill -0 "$child" 2>/dev/null && catches_term "$child" && stop_child; fi' TERM INT
wake() { [ "$sleeper" -gt 0 ] && kill "$sleeper" 2>/dev/null; return 0; }
nap() { sleep "$1" & sleeper=$!; wait "$sleeper"; sleeper=0; }  # a pause that a signal cuts short
# jz_run SECONDS CMD...: runs CMD in the background (so traps fire at once), TERM after SECONDS.
jz_run() {
  local lim=$1 rc r2; shift
  forwarded=0 timer=0 killer=0
  "$@" &
  child=$!
  if [ "$lim" -gt 0 ]; then after "$lim" kill -USR1 $$; timer=$!; fi
  while :; do
    wait "$child"; rc=$?
    kill -0 "$child" 2>/dev/null || break
  done
  if [ "$rc" -gt 128 ]; then wait "$child" 2>/dev/null; r2=$?; [ "$r2" -ne 127 ] && rc=$r2; fi
  for p in $timer $killer; do [ "$p" -gt 0 ] && kill "$p" 2>/dev/null; done
  child=0 timer=0 killer=0
  return "$rc"
}
# jz_finish RC: requeue when the time limit (not scancel) stopped the command, else exit with RC.
jz_finish() {
  local rc=$1
  if [ "$time_up" = 1 ]; then
    say "time limit: requeueing"
    if [ "$JOB" != local ] && scontrol requeue "$JOB"; then exit 0; fi
  fi
  say "exit $rc"
  exit "$rc"
}
)SH";

// The #SBATCH header and the shared job-control block.
std::string prologue(const LaunchOptions& o, const std::string& role, int cpus, int gpus, const std::string& array) {
  return sbatch_header(o, role, cpus, gpus, array) + run_variables(o, role) + JOB_CONTROL;
}

// " --set 'k=v'" for each override (the same for every command that reads the config).
std::string set_args(const LaunchOptions& o) {
  std::string s;
  for (const std::string& v : o.overrides) s += " --set " + shell_quote(v);
  return s;
}

std::string selfplay_script(const LaunchOptions& o) {
  std::string s = prologue(o, "selfplay", o.cpus_per_worker, o.gpus_per_worker, "0-" + std::to_string(o.workers - 1));
  s += "SPCONFIG=" + shell_quote(o.selfplay_config.empty() ? o.config : o.selfplay_config) + "\n";
  s += R"SH(# One worker id per array index: w0, w1, ... Ids never collide, so neither do files.
WORKER="w${SLURM_ARRAY_TASK_ID:?not a Slurm array task: set SLURM_ARRAY_TASK_ID}"
THREADS="${SLURM_CPUS_PER_TASK:-1}"
mkdir -p "$RUN/games/$WORKER" "$RUN/models" || exit 1
say "selfplay worker $WORKER, $THREADS threads, on $(hostname)"
# selfplay writes to <output-dir>/<worker-id>/, i.e. RUN/games/$WORKER/.
jz_run "$LIMIT" "$BIN" selfplay --config "$SPCONFIG" --models-dir "$RUN/models" \
  --output-dir "$RUN/games" --threads "$THREADS" --worker-id "$WORKER")SH";
  s += set_args(o) + "\njz_finish $?\n";
  return s;
}

std::string trainer_script(const LaunchOptions& o) {
  std::string s = prologue(o, "trainer", o.trainer_cpus, o.trainer_gpus, "");
  s += "say \"trainer on $(hostname)\"\n";
  s += "jz_run \"$LIMIT\" \"$BIN\" train --config \"$CONFIG\" --run-dir \"$RUN\" --resume " + o.trainer_flag +
       set_args(o) + "\n";
  s += "jz_finish $?\n";
  return s;
}

std::string evaluator_script(const LaunchOptions& o) {
  std::string s = prologue(o, "evaluator", o.eval_cpus, o.eval_gpus < 0 ? o.trainer_gpus : o.eval_gpus, "");
  s += "GAMES=" + std::to_string(o.eval_games) + "\n";
  s += "SIMS=" + std::string(o.eval_sims > 0 ? ",sims=" + std::to_string(o.eval_sims) : "") + "\n";
  s += "OPPONENT=" + shell_quote(o.eval_opponent) + "\n";
  s += "POLL=" + std::to_string(o.eval_poll_seconds) + "\n";
  s += R"SH(# Rates the newest network against the previously rated one (or OPPONENT) as networks appear.
# eval/done/<net>.txt (written by rename) marks a rated network, so a requeued job does not repeat it.
mkdir -p "$RUN/eval/done" || exit 1
say "evaluator on $(hostname)"
rc=0
while [ "$stopping" = 0 ]; do
  if [ "$LIMIT" -gt 0 ] && [ "$SECONDS" -ge "$LIMIT" ]; then time_up=1; break; fi
  net=$(ls -1 "$RUN/models" 2>/dev/null | grep -E '^net-[0-9]+\.jzn$' | sort | tail -n 1)
  name=${net%.jzn}
  if [ -n "$net" ] && [ ! -e "$RUN/eval/done/$name.txt" ]; then
    opp=$OPPONENT opp_name=$OPPONENT
    if [ "$opp" = previous ]; then
      prev=$(ls -1 "$RUN/eval/done" | grep -E '^net-[0-9]+\.txt$' | sort | tail -n 1)
      prev=${prev%.txt}
      opp=random opp_name=random
      [ -n "$prev" ] && [ -e "$RUN/models/$prev.jzn" ] && opp="net:$RUN/models/$prev.jzn$SIMS,name=$prev" opp_name=$prev
    fi
    left=0
    [ "$LIMIT" -gt 0 ] && left=$((LIMIT - SECONDS)) && [ "$left" -lt 1 ] && left=1
    say "rating $name against $opp"
    tmp="$RUN/eval/done/.$name.$$.tmp"
    jz_run "$left" "$BIN" evaluate --player1 "net:$RUN/models/$net$SIMS,name=$name" --player2 "$opp" \
      --games "$GAMES" --out "$RUN/eval" --quiet > "$tmp"
    rc=$?
    cat "$tmp"
    if [ "$rc" = 0 ]; then
      # The row `janggi-zero report` plots, then the marker (both by rename).
      result=$(sed -n 's/^Result: //p' "$tmp" | tail -n 1)
      [ -n "$result" ] && "$BIN" cluster eval-row --result "$result" --network "$name" --opponent "$opp_name" \
        --csv "$RUN/eval/evaluator.csv"
      mv -f "$tmp" "$RUN/eval/done/$name.txt"
    else
      rm -f "$tmp"
    fi
    [ "$time_up" = 1 ] && break
    [ "$rc" != 0 ] && [ "$stopping" = 0 ] && say "evaluate failed ($rc); retrying after $POLL s"
  fi
  [ "$stopping" = 0 ] && nap "$POLL"
done
[ "$stopping" = 1 ] && [ "$time_up" = 0 ] && rc=0
jz_finish "$rc"
)SH";
  return s;
}

}  // namespace

std::vector<JobScript> make_job_scripts(const LaunchOptions& o) {
  std::vector<JobScript> out;
  out.push_back({"selfplay", "selfplay.sbatch", selfplay_script(o)});
  out.push_back({"trainer", "trainer.sbatch", trainer_script(o)});
  if (o.evaluator) out.push_back({"evaluator", "evaluator.sbatch", evaluator_script(o)});
  return out;
}

}  // namespace jz
