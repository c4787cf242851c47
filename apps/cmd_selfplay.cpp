// `janggi-zero selfplay`: a self-play worker process. Plays with the newest network in --models-dir
// (a random one while it is empty), writes replay chunks to --output-dir/<worker-id>/, a progress
// line on stderr and metrics (JSON lines) to --output-dir/<worker-id>/metrics.jsonl.
// SIGINT/SIGTERM stop it cleanly: finished games are flushed, games in progress are dropped.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

#include "apps/commands.h"
#include "core/rules.h"
#include "mcts/stub_evaluator.h"
#include "nn/batching_evaluator.h"
#include "selfplay/chunk_writer.h"
#include "selfplay/model_watcher.h"
#include "selfplay/worker.h"
#include "util/config.h"
#include "util/fileio.h"
#include "util/log.h"

namespace jz::app {

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) {
  g_signal = sig;
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

struct SelfPlayArgs {
  std::string config, models_dir, output_dir, worker_id, stub;
  std::vector<std::string> overrides;
  int threads = 1;
  long long games = 0;
  double hours = 0;
};

long rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

std::string default_worker_id() {
  char host[64] = "host";
  gethostname(host, sizeof(host) - 1);
  return sanitize_name(host) + "-" + std::to_string(getpid());
}

struct Rates {
  double t = 0;
  SelfPlayStats s;
};

std::string metrics_json(const SelfPlayStats& s, const Rates& prev, double now, double start, const std::string& net,
                         const EvalStats* es, int max_batch) {
  double dt = std::max(1e-9, now - prev.t);
  auto rate = [&](uint64_t a, uint64_t b) { return double(a - b) / dt; };
  std::string j = format_string(
      "{\"time\":%.1f,\"elapsed\":%.1f,\"network\":\"%s\",\"games\":%llu,\"positions\":%llu,"
      "\"full_positions\":%llu,\"games_per_s\":%.3f,\"positions_per_s\":%.2f,\"moves_per_s\":%.2f,"
      "\"evals_per_s\":%.1f,"
      "\"avg_game_plies\":%.1f,\"worker_batch\":%.1f,\"eval_wait_share\":%.3f,\"concurrent_games\":%llu,"
      "\"rss_mib\":%.1f,\"cho\":%llu,\"han\":%llu,\"draw\":%llu,\"probe_games\":%llu,\"probe_would_resign\":%llu,"
      "\"false_resigns\":%llu",
      double(unix_millis()) / 1000.0, now - start, net.c_str(), (unsigned long long)s.games,
      (unsigned long long)s.positions, (unsigned long long)s.full_positions, rate(s.games, prev.s.games),
      rate(s.positions, prev.s.positions), rate(s.moves, prev.s.moves), rate(s.leaf_evals, prev.s.leaf_evals),
      s.avg_game_plies(),
      s.avg_batch(), s.eval_share(), (unsigned long long)s.concurrent_games, rss_kib() / 1024.0,
      (unsigned long long)s.winners[int(Winner::CHO)], (unsigned long long)s.winners[int(Winner::HAN)],
      (unsigned long long)s.winners[int(Winner::DRAW)], (unsigned long long)s.probe_games,
      (unsigned long long)s.probe_would_resign, (unsigned long long)s.false_resigns);
  if (es)
    j += format_string(",\"net_batch\":%.1f,\"batch_fill\":%.3f,\"cache_hit_rate\":%.3f", es->avg_batch(),
                       es->avg_batch() / std::max(1, max_batch), es->hit_rate());
  j += ",\"endings\":{";
  bool first = true;
  for (int e = 1; e <= int(Ending::TIME); ++e) {
    if (!s.endings[e]) continue;
    j += format_string("%s\"%s\":%llu", first ? "" : ",", ending_name(Ending(e)), (unsigned long long)s.endings[e]);
    first = false;
  }
  return j + "}}";
}

std::string progress_line(const SelfPlayStats& s, const Rates& prev, double now, const EvalStats* es, int max_batch) {
  double dt = std::max(1e-9, now - prev.t);
  std::string line = format_string(
      "games %llu (%.2f/s) pos %.1f/s moves %.1f/s evals %.0f/s len %.1f batch %.0f", (unsigned long long)s.games,
      double(s.games - prev.s.games) / dt, double(s.positions - prev.s.positions) / dt,
      double(s.moves - prev.s.moves) / dt,
      double(s.leaf_evals - prev.s.leaf_evals) / dt, s.avg_game_plies(), s.avg_batch());
  if (es) line += format_string(" fill %.0f%%", 100.0 * es->avg_batch() / std::max(1, max_batch));
  line += format_string(" wait %.0f%% | cho %llu han %llu draw %llu |", 100.0 * s.eval_share(),
                        (unsigned long long)s.winners[1], (unsigned long long)s.winners[2],
                        (unsigned long long)s.winners[3]);
  for (int e = 1; e <= int(Ending::TIME); ++e)
    if (s.endings[e]) line += format_string(" %s %llu", ending_name(Ending(e)), (unsigned long long)s.endings[e]);
  return line;
}

int run_selfplay(const SelfPlayArgs& a) {
  auto fail = [](const std::string& msg) {
    std::fprintf(stderr, "error: %s\n", msg.c_str());
    return 1;
  };
  Config cfg;
  std::string err;
  if (!load_config(a.config, a.overrides, cfg, &err)) return fail(err);
  SelfPlayOptions opts;
  if (!load_selfplay_options(cfg, opts, &err)) return fail(err);
  if (!cfg.check_sections(config_sections_of("selfplay"), &err)) return fail(err);
  if (a.threads < 1 || a.threads > 1024) return fail("--threads must be 1..1024");
  if (a.games < 0 || a.hours < 0) return fail("--games and --hours must not be negative");
  if (!a.stub.empty() && a.stub != "uniform" && a.stub != "material") return fail("--stub must be uniform or material");
  std::string worker_id = sanitize_name(a.worker_id.empty() ? default_worker_id() : a.worker_id);
  std::string out_dir = a.output_dir + "/" + worker_id;
  if (!make_dirs(out_dir)) return fail("cannot create output directory '" + out_dir + "'");
  if (a.stub.empty() && !make_dirs(a.models_dir)) return fail("cannot create models directory '" + a.models_dir + "'");

  NetworkOptions net;
  net.device = opts.device;
  net.precision = opts.precision;
  net.max_batch = opts.eval_batch;
  BatchingOptions batching;
  batching.max_batch = opts.eval_batch;
  batching.max_wait_us = opts.eval_wait_us;
  batching.server_threads = opts.eval_servers;
  batching.cache_entries = size_t(opts.eval_cache);
  ModelWatcher watcher(a.models_dir, net, batching);

  std::shared_ptr<Evaluator> eval;
  std::shared_ptr<BatchingEvaluator> batch_eval;
  try {
    if (a.stub == "uniform") eval = std::make_shared<UniformEvaluator>();
    else if (a.stub == "material") eval = std::make_shared<MaterialEvaluator>(1.0f);
    else {
      batch_eval = watcher.poll();
      if (!batch_eval) {
        JZ_LOG("selfplay: no network in '%s': playing with a random %s network", a.models_dir.c_str(),
               opts.random_network.c_str());
        batch_eval = watcher.random_network(opts.random_network, opts.seed ? opts.seed : uint64_t(getpid()));
      }
      eval = batch_eval;
    }
  } catch (const std::exception& e) {
    return fail(e.what());
  }

  g_signal = 0;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  ChunkWriter writer(out_dir, worker_id, opts.games_per_chunk);
  SelfPlayWorker worker(opts, eval, writer);
  JZ_LOG("selfplay: worker %s, %d threads x %d games, rules %s, writing to %s", worker_id.c_str(), a.threads,
         opts.games_per_thread, ruleset_name(opts.ruleset), out_dir.c_str());
  worker.start(a.threads, uint64_t(a.games));

  const std::string metrics_path = out_dir + "/metrics.jsonl";
  const bool tty = isatty(STDERR_FILENO);
  const double start = now_seconds();
  Rates last_progress{start, {}}, last_metrics{start, {}};
  double last_poll = start;
  auto write_metrics = [&](double now) {
    SelfPlayStats s = worker.stats();
    EvalStats es;
    if (batch_eval) es = batch_eval->stats();
    std::string j = metrics_json(s, last_metrics, now, start, worker.evaluator()->id(), batch_eval ? &es : nullptr,
                                 opts.eval_batch);
    std::ofstream(metrics_path, std::ios::app) << j << "\n";
    last_metrics = {now, s};
  };
  while (!worker.done()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    double now = now_seconds();
    if (g_signal) {
      JZ_LOG("selfplay: signal %d: stopping", g_signal.load());
      break;
    }
    if (a.hours > 0 && now - start >= a.hours * 3600) break;
    if (a.stub.empty() && now - last_poll >= opts.model_poll_seconds) {
      last_poll = now;
      if (auto fresh = watcher.poll()) {
        batch_eval = fresh;
        worker.set_evaluator(fresh);
      }
    }
    if (now - last_progress.t >= (tty ? 1.0 : 10.0)) {
      SelfPlayStats s = worker.stats();
      EvalStats es;
      if (batch_eval) es = batch_eval->stats();
      std::string line = progress_line(s, last_progress, now, batch_eval ? &es : nullptr, opts.eval_batch);
      if (tty) std::fprintf(stderr, "\r%s\033[K", line.c_str());
      else std::fprintf(stderr, "%s\n", line.c_str());
      last_progress = {now, s};
    }
    if (now - last_metrics.t >= opts.metrics_seconds) write_metrics(now);
  }
  worker.stop();
  worker.join();
  if (tty) std::fprintf(stderr, "\n");
  int rc = 0;
  if (!writer.flush(&err)) {
    JZ_LOG("error: %s", err.c_str());
    rc = 1;
  }
  if (!worker.error().empty()) {
    JZ_LOG("error: %s", worker.error().c_str());
    rc = 1;
  }
  write_metrics(now_seconds());
  SelfPlayStats s = worker.stats();
  JZ_LOG("selfplay: done: %llu games, %llu positions in %llu chunks (%.1f s)", (unsigned long long)s.games,
         (unsigned long long)s.positions, (unsigned long long)writer.chunks_written(), now_seconds() - start);
  return rc;
}

}  // namespace

void add_selfplay(CLI::App& app, int& rc) {
  auto a = std::make_shared<SelfPlayArgs>();
  CLI::App* cmd = app.add_subcommand("selfplay", "Self-play worker: plays games and writes replay chunks");
  cmd->add_option("--config", a->config,
                  "Config file (configs/*.yaml; reads selfplay, search, network; other sections are ignored)")
      ->required();
  cmd->add_option("--models-dir", a->models_dir, "Directory polled for the newest network (*.jzn)")->required();
  cmd->add_option("--output-dir", a->output_dir, "Replay directory; chunks go to <dir>/<worker-id>/")->required();
  cmd->add_option("--threads", a->threads, "Play threads (each runs selfplay.games_per_thread games)");
  auto* games = cmd->add_option("--games", a->games, "Stop after this many games");
  cmd->add_option("--hours", a->hours, "Stop after this many hours")->excludes(games);
  cmd->add_option("--worker-id", a->worker_id, "Worker name in chunk names (default: host-pid)");
  cmd->add_option("--set", a->overrides, "Config override key=value (repeatable)");
  cmd->add_option("--stub", a->stub, "Use a network-free evaluator (uniform | material): tests, benchmarks");
  cmd->callback([a, &rc] {
    try {
      rc = run_selfplay(*a);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      rc = 1;
    }
  });
}

}  // namespace jz::app
