// Slurm batch scripts for a distributed run: a job array of self-play workers, one trainer and an
// optional evaluator, all sharing one run directory (cluster/README.md). Pure text generation, so
// the scripts are unit-tested without Slurm; cluster/launch.h submits them.
#pragma once
#include <string>
#include <vector>

namespace jz {

struct LaunchOptions {
  std::string run_dir;                 // absolute; shared by every node
  std::string config;                  // absolute path of the run's config (RUN/config.yaml)
  std::string selfplay_config;         // workers' config; empty (what launch uses): `config`, the run's own
  std::vector<std::string> overrides;  // --set key=value, passed on to the workers and the trainer
  std::string binary;                  // absolute path of janggi-zero, visible from every node
  int workers = 1;                     // self-play array size
  int cpus_per_worker = 1;             // also the worker's search threads
  int gpus_per_worker = 0;
  int trainer_cpus = 1;
  int trainer_gpus = 0;
  std::string partition;  // empty: the cluster's default
  std::string time;       // Slurm --time string; empty: the partition's default (no timeout inside)
  bool evaluator = false;
  int eval_games = 20;
  int eval_sims = 0;                       // 0: evaluate's default
  std::string eval_opponent = "previous";  // "previous" evaluated network, or any player spec
  int eval_poll_seconds = 30;
  int eval_cpus = 1;
  int eval_gpus = -1;  // -1: as many as the trainer
  std::string job_name = "jz";
  std::string trainer_flag = "--trainer-only";  // train without local self-play
  std::vector<std::string> sbatch_args;         // extra #SBATCH lines (--account=..., --mem=...)
};

struct JobScript {
  std::string role;      // "selfplay", "trainer", "evaluator"
  std::string filename;  // under RUN/slurm/
  std::string text;
};

// The scripts for these options (selfplay first). Options must have passed check_launch_options.
std::vector<JobScript> make_job_scripts(const LaunchOptions& o);
// False with a one-line reason if an option is out of range or would break a script.
bool check_launch_options(const LaunchOptions& o, std::string* error);

// Slurm's --time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S; "UNLIMITED"/"INFINITE" give 0.
bool parse_slurm_time(const std::string& s, long* seconds, std::string* error);
// How long the command inside a job may run before `timeout` stops it, leaving time to flush:
// Slurm enforces --time late and kills hard, so the job stops itself first.
long inner_time_limit(long slurm_seconds);
// Single-quotes a word for bash.
std::string shell_quote(const std::string& s);

}  // namespace jz
