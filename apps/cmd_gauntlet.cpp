// `janggi-zero gauntlet`: the learning curve of a run. Rates exported networks against fixed
// opponents (arena/gauntlet.h); with --watch it keeps rating new networks as training exports them
// (the evaluator that `train` starts when the config has an evaluation: section).
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "arena/gauntlet.h"
#include "training/csv_log.h"
#include "util/log.h"

namespace jz::app {

void add_gauntlet(CLI::App& app, int& rc) {
  struct Opts {
    std::string run_dir, opponents, variant = "janggi";
    GauntletOptions g;
    bool watch = false;
    double poll = 30, hours = 0;
    std::vector<double> marks;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("gauntlet", "Rate a run's networks against fixed opponents (the learning curve)");
  cmd->add_option("--run-dir", o->run_dir, "Run directory: networks from models/, results to eval/")->required();
  cmd->add_option("--opponents", o->opponents,
                  "Player specs separated by ';', e.g. \"random; alphabeta:level=easy; alphabeta:level=normal\"")
      ->required();
  cmd->add_option("--games", o->g.games, "Games per network and opponent (color-swapped pairs)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--net", o->g.net_options, "Search options of the rated networks (sims=N or movetime=MS)");
  cmd->add_option("--every", o->g.every, "Rate steps that are multiples of N (0: every exported network)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--latest", o->g.latest, "Also rate the newest network whatever its step");
  cmd->add_option("--concurrency", o->g.concurrency, "Games in parallel")->check(CLI::Range(1, 1024));
  cmd->add_option("--openings", o->g.opening_plies, "Random opening plies after the setup")->check(CLI::Range(0, 200));
  cmd->add_option("--max-plies", o->g.max_plies, "Referee's length cap (longer games are decided by counting)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", o->g.seed, "Openings seed (the same for every network)");
  cmd->add_option("--variant", o->variant, "Rule set of the matches: janggi (default), janggitraditional, janggimodern, "
                  "janggicasual, xiangqi (the networks' game)");
  cmd->add_flag("--watch", o->watch, "Keep rating networks as they appear, until killed or --hours");
  cmd->add_option("--poll", o->poll, "Seconds between looks for new networks with --watch")->check(CLI::Range(1, 3600));
  cmd->add_option("--hours", o->hours, "Stop watching after H hours")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--progress", o->g.progress, "Live match progress line");
  cmd->add_option("--cpu-hours-marks", o->marks,
                  "Rate the networks exported when the run's training CPU (metrics/train.csv cpu_hours) reached "
                  "these marks, e.g. 0.25,0.5,1 (instead of --every)")
      ->delimiter(',');
  set_command(cmd, rc, [o] {
    GauntletOptions& g = o->g;
    g.models_dir = o->run_dir + "/models";
    g.eval_dir = o->run_dir + "/eval";
    g.opponents = split_opponents(o->opponents);
    std::string err;
    if (!parse_ruleset(o->variant, g.rules))
      return report_error("unknown variant '" + o->variant + "' (janggi, janggitraditional, janggimodern, janggicasual, xiangqi)");
    if (!o->marks.empty()) {
      CsvTable t;
      if (!read_csv(o->run_dir + "/metrics/train.csv", t, &err) || t.column("cpu_hours") < 0) {
        return report_error("--cpu-hours-marks needs " + o->run_dir +
                            "/metrics/train.csv with a cpu_hours column" + (err.empty() ? "" : ": " + err));
      }
      std::vector<int64_t> nets;
      for (auto& [step, path] : exported_networks(g.models_dir)) nets.push_back(step);
      g.steps = steps_at_marks(o->marks, t.numbers("step"), t.numbers("cpu_hours"), nets);
      std::string list;
      for (int64_t s : g.steps) list += (list.empty() ? "" : ", ") + std::to_string(s);
      JZ_LOG("gauntlet: CPU-hour marks give steps %s", list.empty() ? "(none reached yet)" : list.c_str());
      if (g.steps.empty()) {
        return 0;
      }
    }
    if (!check_gauntlet(g, &err)) {
      return report_error(err, 1);
    }
    // SIGINT/SIGTERM end the process at once: finished matches are on disk (atomic writes), an
    // unfinished one leaves no marker and is played again next time.
    const auto start = std::chrono::steady_clock::now();
    auto hours = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 3600; };
    int total = 0;
    for (;;) {
      int played = gauntlet_step(
          g, [](const std::string& line) { JZ_LOG("gauntlet: %s", line.c_str()); }, &err);
      if (played < 0) {
        return report_error(err, 1);
      }
      total += played;
      if ((o->hours > 0 && hours() >= o->hours)) break;
      if (played > 0) continue;
      if (!o->watch) break;
      std::this_thread::sleep_for(std::chrono::duration<double>(o->poll));
    }
    JZ_LOG("gauntlet: %d match(es) played; rows in %s/gauntlet.csv, results in %s/store", total, g.eval_dir.c_str(),
           g.eval_dir.c_str());
    return 0;
  });
}

}  // namespace jz::app
