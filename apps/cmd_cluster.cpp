// `janggi-zero cluster launch|status|stop`: runs self-play workers, the trainer and an evaluator as
// Slurm jobs over one shared run directory (cluster/README.md).
#include <cstdio>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "cluster/cluster_commands.h"
#include "cluster/eval_csv.h"
#include "selfplay/selfplay_config.h"
#include "training/train_options.h"
#include "util/config.h"

namespace jz::app {

void add_cluster(CLI::App& app, int& rc) {
  auto* cluster = app.add_subcommand("cluster", "Run training on a Slurm cluster (launch, status, stop)");
  cluster->require_subcommand(1);

  auto req = std::make_shared<jz::LaunchRequest>();
  auto* launch = cluster->add_subcommand("launch", "Write the Slurm batch scripts into RUN/slurm/ and submit them");
  LaunchOptions& o = req->opts;
  launch->add_option("--run-dir", o.run_dir, "Run directory on a filesystem every node shares")->required();
  launch->add_option("--config", req->config_file,
                     "Config file; copied to RUN/config.yaml on the first launch (default: the run's own)");
  launch->add_option("--set", o.overrides,
                     "Config override key=value (repeatable): checked now, passed to the workers and the trainer; "
                     "RUN/config.yaml is not changed");
  launch->add_option("--workers", o.workers, "Self-play workers (a job array; ids w0, w1, ...)")
      ->required()
      ->check(CLI::Range(1, 10000));
  launch->add_option("--cpus-per-worker", o.cpus_per_worker, "CPUs per worker, also its search threads (default 1)")
      ->check(CLI::Range(1, 1024));
  launch->add_option("--gpus-per-worker", o.gpus_per_worker, "GPUs per worker, through --gres=gpu:G (default 0)")
      ->check(CLI::Range(0, 64));
  launch->add_option("--trainer-cpus", o.trainer_cpus, "CPUs for the trainer (default 1)")->check(CLI::Range(1, 1024));
  launch->add_option("--trainer-gpus", o.trainer_gpus, "GPUs for the trainer (default 0)")->check(CLI::Range(0, 64));
  launch->add_option("--partition", o.partition, "Slurm partition (default: the cluster's default)");
  launch->add_option("--time", o.time, "Time limit per job, Slurm format (e.g. 1-00:00:00); jobs requeue themselves");
  launch->add_flag("--evaluator", o.evaluator, "Also run an evaluator job that rates each new network into RUN/eval/");
  launch->add_option("--eval-games", o.eval_games, "Games per rating match (default 20)")->check(CLI::Range(1, 100000));
  launch->add_option("--eval-sims", o.eval_sims, "Simulations per move in rating games (default: evaluate's)")
      ->check(CLI::Range(0, 10000000));
  launch->add_option("--eval-opponent", o.eval_opponent,
                     "Opponent: 'previous' rated network (default) or a player spec such as alphabeta:level=easy");
  launch->add_option("--eval-cpus", o.eval_cpus, "CPUs for the evaluator (default 1)")->check(CLI::Range(1, 1024));
  launch->add_option("--eval-gpus", o.eval_gpus, "GPUs for the evaluator (default: as the trainer)")
      ->check(CLI::Range(0, 64));
  launch->add_option("--job-name", o.job_name, "Job name prefix (default jz)");
  launch->add_option("--sbatch-arg", o.sbatch_args,
                     "Extra sbatch option for every job, e.g. --sbatch-arg=--account=NAME (repeatable)");
  launch->add_option("--binary", o.binary, "janggi-zero binary the jobs run (default: this one)");
  launch->add_flag("--dry-run", req->dry_run, "Print the scripts; write and submit nothing");
  // The jobs read every section: check them all now, as `train` and `selfplay` will.
  req->check_config = [](const std::string& path, const std::vector<std::string>& overrides, std::string* error) {
    Config cfg;
    auto read = [](const Config& c, std::string* e) {
      SelfPlayOptions sp;
      TrainOptions t;
      return load_selfplay_options(c, sp, e) && load_train_options(c, t, e);
    };
    return load_command_config("cluster", path, overrides, read, cfg, error);
  };
  set_command(launch, rc, [req] {
    std::string err;
    return exit_code(cluster_launch(*req, &err), err);
  });

  auto status_dir = std::make_shared<std::string>();
  auto status_json = std::make_shared<bool>(false);
  auto* status = cluster->add_subcommand("status", "Jobs, games per worker, newest network, training speed");
  status->add_option("--run-dir", *status_dir, "Run directory")->required();
  auto status_validate = std::make_shared<bool>(false);
  status->add_flag("--json", *status_json, "Machine-readable output");
  status->add_flag("--validate", *status_validate, "Check every chunk fully (decode, replay games); counts bad ones");
  set_command(status, rc, [status_dir, status_json, status_validate] {
    std::string err;
    return exit_code(cluster_status(*status_dir, *status_json, *status_validate, &err), err);
  });

  auto stop_dir = std::make_shared<std::string>();
  auto stop_wait = std::make_shared<double>(0);
  auto* stop = cluster->add_subcommand("stop", "Cancel the recorded jobs (workers flush finished games)");
  stop->add_option("--run-dir", *stop_dir, "Run directory")->required();
  stop->add_option("--wait", *stop_wait, "Wait up to this many seconds until the jobs are gone")
      ->check(CLI::Range(0.0, 86400.0));
  set_command(stop, rc, [stop_dir, stop_wait] {
    std::string err;
    return exit_code(cluster_stop(*stop_dir, *stop_wait, &err), err);
  });

  // Used by the evaluator job: one row of RUN/eval/evaluator.csv from an `evaluate` result file.
  struct RowArgs {
    std::string result, network, opponent, csv;
  };
  auto ra = std::make_shared<RowArgs>();
  auto* row = cluster->add_subcommand("eval-row", "Append an evaluate result to an eval CSV (evaluator job)");
  row->group("");  // internal: hidden from help
  row->add_option("--result", ra->result, "evaluate's *.result.json")->required();
  row->add_option("--network", ra->network, "Rated network, e.g. net-00000120")->required();
  row->add_option("--opponent", ra->opponent, "Opponent name")->required();
  row->add_option("--csv", ra->csv, "CSV file to append to")->required();
  set_command(row, rc, [ra] {
    std::string err;
    return exit_code(append_eval_row(ra->result, ra->network, ra->opponent, ra->csv, &err), err);
  });
}

}  // namespace jz::app
