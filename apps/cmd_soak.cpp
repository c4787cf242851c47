// `janggi-zero soak`: self-play under load for a fixed time (selfplay/soak_run.h).
// Exit code: 0 pass, 1 bad usage or setup, 2 the soak failed (stall, memory growth after warm-up,
// corrupt or missing chunks, worker error, no finished game). Formats: selfplay/README.md.
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "selfplay/soak_run.h"

namespace jz::app {

void add_soak(CLI::App& app, int& rc) {
  auto a = std::make_shared<SoakRun>();
  CLI::App* cmd = app.add_subcommand(
      "soak", "Self-play under load for a fixed time: memory over time, stalls, chunk check (exit 2 on failure)");
  cmd->add_option("--config", a->config,
                  "Config file (as for selfplay: configs/*.yaml, reads selfplay, search, network; default: light "
                  "built-in searches)");
  cmd->add_option("--set", a->overrides, "Config override key=value (repeatable)");
  cmd->add_option("--threads", a->threads, "Play threads (default or 0: 4 x hardware threads)");
  cmd->add_option("--games-per-thread", a->games_per_thread, "Concurrent games per thread (selfplay.games_per_thread)");
  auto* minutes = cmd->add_option("--minutes", a->minutes, "Run time in minutes (default 10)");
  cmd->add_option("--seconds", a->seconds, "Run time in seconds")->excludes(minutes);
  auto* model = cmd->add_option("--model", a->model, "Network file (*.jzn)");
  auto* random = cmd->add_option("--random-network", a->random_network, "A random network of this size, e.g. 4x32")
                     ->excludes(model);
  cmd->add_option("--stub", a->stub, "Network-free evaluator (uniform | material): search and threads only")
      ->excludes(model)
      ->excludes(random);
  cmd->add_option("--sample-seconds", a->sample_seconds, "Seconds between samples (default 5)");
  cmd->add_option("--stall-seconds", a->stall_seconds,
                  "A play thread without progress this long is a stall (default 5)");
  auto* wp = cmd->add_option("--warmup-percent", a->warmup_percent, "Warm-up: this share of the run (default 20)");
  cmd->add_option("--warmup-seconds", a->warmup_seconds, "Warm-up in seconds (instead of --warmup-percent)")
      ->excludes(wp);
  cmd->add_option("--max-growth-mib", a->max_growth_mib, "Allowed RSS growth after warm-up, fitted (default 64)");
  cmd->add_option("--out", a->out, "Output directory, kept (default: a temporary one, removed after a pass)");
  cmd->add_flag("--keep", a->keep, "Keep the temporary output directory");
  cmd->add_option("--csv", a->csv, "Sample CSV (default <out>/soak.csv)");
  cmd->add_option("--json", a->json, "Summary JSON (default <out>/soak.json; also printed)");
  cmd->add_option("--inject-stall", a->inject_stall,
                  "Self-check: stall one play thread this many seconds after warm-up");
  set_command(cmd, rc, [a] {
    SoakSummary summary;
    std::string err;
    switch (run_soak(*a, install_stop_signals(), &summary, &err)) {
      case SoakResult::PASS:
        return 0;
      case SoakResult::FAIL:
        return 2;
      default:
        return report_error(err);
    }
  });
}

}  // namespace jz::app
