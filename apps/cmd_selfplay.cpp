// `janggi-zero selfplay`: a self-play worker process (selfplay/selfplay_run.h).
// SIGINT/SIGTERM stop it cleanly: finished games are flushed, games in progress are dropped.
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "selfplay/selfplay_run.h"

namespace jz::app {

namespace {

struct SelfPlayArgs {
  std::string config;
  std::vector<std::string> overrides;
  SelfPlayRun run;
};

int run_selfplay_command(const SelfPlayArgs& a) {
  Config cfg;
  std::string err;
  SelfPlayOptions opts;
  auto read = [&opts](const Config& c, std::string* e) { return load_selfplay_options(c, opts, e); };
  if (!load_command_config("selfplay", a.config, a.overrides, read, cfg, &err)) return report_error(err);
  return exit_code(run_selfplay(opts, a.run, install_stop_signals(), &err), err);
}

}  // namespace

void add_selfplay(CLI::App& app, int& rc) {
  auto a = std::make_shared<SelfPlayArgs>();
  CLI::App* cmd = app.add_subcommand("selfplay", "Self-play worker: plays games and writes replay chunks");
  cmd->add_option("--config", a->config,
                  "Config file (configs/*.yaml; reads selfplay, search, network; other sections are ignored)")
      ->required();
  cmd->add_option("--models-dir", a->run.models_dir, "Directory polled for the newest network (*.jzn)")->required();
  cmd->add_option("--output-dir", a->run.output_dir, "Replay directory; chunks go to <dir>/<worker-id>/")->required();
  cmd->add_option("--threads", a->run.threads, "Play threads (each runs selfplay.games_per_thread games)");
  auto* games = cmd->add_option("--games", a->run.games, "Stop after this many games");
  cmd->add_option("--hours", a->run.hours, "Stop after this many hours")->excludes(games);
  cmd->add_option("--worker-id", a->run.worker_id, "Worker name in chunk names (default: host-pid)");
  cmd->add_option("--set", a->overrides, "Config override key=value (repeatable)");
  cmd->add_option("--stub", a->run.stub, "Use a network-free evaluator (uniform | material): tests, benchmarks");
  set_command(cmd, rc, [a] { return run_selfplay_command(*a); });
}

}  // namespace jz::app
