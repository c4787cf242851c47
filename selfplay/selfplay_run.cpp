#include "selfplay/selfplay_run.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/rules.h"
#include "mcts/stub_evaluator.h"
#include "replay/chunk_writer.h"
#include "selfplay/model_watcher.h"
#include "selfplay/worker.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/process.h"

namespace jz {

namespace {

std::string default_worker_id() {
  char host[64] = "host";
  gethostname(host, sizeof(host) - 1);
  return sanitize_name(host) + "-" + std::to_string(getpid());
}

double rss_mib() {
  ProcessMemory m;
  read_process_memory(m);
  return double(m.rss_kib) / 1024.0;
}

double rounded(double x, double unit) { return std::round(x / unit) * unit; }

struct Rates {
  double t = 0;
  SelfPlayStats s;
};

std::string metrics_json(const SelfPlayStats& s, const Rates& prev, double now, double start, const std::string& net,
                         const EvalStats* es, int max_batch) {
  double dt = std::max(1e-9, now - prev.t);
  auto rate = [&](uint64_t a, uint64_t b, double unit) { return rounded(double(a - b) / dt, unit); };
  nlohmann::ordered_json j;
  j["time"] = rounded(double(unix_millis()) / 1000.0, 0.1);
  j["elapsed"] = rounded(now - start, 0.1);
  j["network"] = net;
  j["games"] = s.games;
  j["positions"] = s.positions;
  j["full_positions"] = s.full_positions;
  j["games_per_s"] = rate(s.games, prev.s.games, 1e-3);
  j["positions_per_s"] = rate(s.positions, prev.s.positions, 0.01);
  j["moves_per_s"] = rate(s.moves, prev.s.moves, 0.01);
  j["evals_per_s"] = rate(s.leaf_evals, prev.s.leaf_evals, 0.1);
  j["avg_game_plies"] = rounded(s.avg_game_plies(), 0.1);
  j["worker_batch"] = rounded(s.avg_batch(), 0.1);
  j["eval_wait_share"] = rounded(s.eval_share(), 1e-3);
  j["concurrent_games"] = s.concurrent_games;
  j["rss_mib"] = rounded(rss_mib(), 0.1);
  j["cho"] = s.winners[int(Winner::CHO)];
  j["han"] = s.winners[int(Winner::HAN)];
  j["draw"] = s.winners[int(Winner::DRAW)];
  j["probe_games"] = s.probe_games;
  j["probe_would_resign"] = s.probe_would_resign;
  j["false_resigns"] = s.false_resigns;
  if (es) {
    j["net_batch"] = rounded(es->avg_batch(), 0.1);
    j["batch_fill"] = rounded(es->avg_batch() / std::max(1, max_batch), 1e-3);
    j["cache_hit_rate"] = rounded(es->hit_rate(), 1e-3);
    j["backend_s"] = rounded(es->backend_seconds, 0.01);  // cumulative, summed over server threads
  }
  nlohmann::ordered_json endings = nlohmann::ordered_json::object();
  for (int e = 1; e < ENDING_NB; ++e)
    if (s.endings[e]) endings[ending_name(Ending(e))] = s.endings[e];
  j["endings"] = endings;
  return j.dump();
}

std::string progress_line(const SelfPlayStats& s, const Rates& prev, double now, const EvalStats* es, int max_batch) {
  double dt = std::max(1e-9, now - prev.t);
  std::string line = format_string("games %llu (%.2f/s) pos %.1f/s moves %.1f/s evals %.0f/s len %.1f batch %.0f",
                                   (unsigned long long)s.games, double(s.games - prev.s.games) / dt,
                                   double(s.positions - prev.s.positions) / dt, double(s.moves - prev.s.moves) / dt,
                                   double(s.leaf_evals - prev.s.leaf_evals) / dt, s.avg_game_plies(), s.avg_batch());
  if (es) line += format_string(" fill %.0f%%", 100.0 * es->avg_batch() / std::max(1, max_batch));
  line += format_string(" wait %.0f%% | cho %llu han %llu draw %llu |", 100.0 * s.eval_share(),
                        (unsigned long long)s.winners[1], (unsigned long long)s.winners[2],
                        (unsigned long long)s.winners[3]);
  for (int e = 1; e < ENDING_NB; ++e)
    if (s.endings[e]) line += format_string(" %s %llu", ending_name(Ending(e)), (unsigned long long)s.endings[e]);
  return line;
}

// The worker's evaluator: a stub, the newest network of the models directory, or a random network.
bool make_evaluator(const SelfPlayOptions& opts, const SelfPlayRun& r, ModelWatcher& watcher,
                    std::shared_ptr<Evaluator>& eval, std::shared_ptr<BatchingEvaluator>& batch_eval,
                    std::string* error) {
  try {
    if (r.stub == "uniform")
      eval = std::make_shared<UniformEvaluator>();
    else if (r.stub == "material")
      eval = std::make_shared<MaterialEvaluator>(1.0f);
    if (eval) return true;
    batch_eval = watcher.poll();
    if (!batch_eval) {
      JZ_LOG("selfplay: no network in '%s': playing with a random %s network", r.models_dir.c_str(),
             opts.random_network.c_str());
      batch_eval = watcher.random_network(opts.random_network, opts.seed ? opts.seed : uint64_t(getpid()));
    }
    eval = batch_eval;
    return true;
  } catch (const std::exception& e) {
    return *error = e.what(), false;
  }
}

// Watches a running worker: new networks, the progress line, the metrics file.
class WorkerMonitor {
 public:
  WorkerMonitor(const SelfPlayOptions& o, const SelfPlayRun& r, SelfPlayWorker& w, ModelWatcher& watcher,
                std::shared_ptr<BatchingEvaluator> batch_eval, std::string metrics_path)
      : o_(o),
        r_(r),
        worker_(w),
        watcher_(watcher),
        batch_eval_(std::move(batch_eval)),
        metrics_path_(std::move(metrics_path)),
        tty_(isatty(STDERR_FILENO)),
        start_(now_seconds()),
        last_progress_{start_, {}},
        last_metrics_{start_, {}},
        last_poll_(start_) {}

  // Until the worker is done, the stop flag is set or the time is up.
  void run(const std::atomic<int>& stop) {
    while (!worker_.done()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      double now = now_seconds();
      if (stop) {
        JZ_LOG("selfplay: signal %d: stopping", stop.load());
        break;
      }
      if (r_.hours > 0 && now - start_ >= r_.hours * 3600) break;
      if (r_.stub.empty() && now - last_poll_ >= o_.model_poll_seconds) {
        last_poll_ = now;
        if (auto fresh = watcher_.poll()) {
          batch_eval_ = fresh;
          worker_.set_evaluator(fresh);
        }
      }
      if (now - last_progress_.t >= (tty_ ? 1.0 : 10.0)) show_progress(now);
      if (now - last_metrics_.t >= o_.metrics_seconds) write_metrics(now);
    }
    if (tty_) std::fprintf(stderr, "\n");
  }

  void write_metrics(double now) {
    SelfPlayStats s = worker_.stats();
    EvalStats es;
    if (batch_eval_) es = batch_eval_->stats();
    std::string j = metrics_json(s, last_metrics_, now, start_, worker_.evaluator()->id(), batch_eval_ ? &es : nullptr,
                                 o_.eval_batch);
    std::ofstream(metrics_path_, std::ios::app) << j << "\n";
    last_metrics_ = {now, s};
  }

  double start() const { return start_; }

 private:
  void show_progress(double now) {
    SelfPlayStats s = worker_.stats();
    EvalStats es;
    if (batch_eval_) es = batch_eval_->stats();
    std::string line = progress_line(s, last_progress_, now, batch_eval_ ? &es : nullptr, o_.eval_batch);
    if (tty_)
      std::fprintf(stderr, "\r%s\033[K", line.c_str());
    else
      std::fprintf(stderr, "%s\n", line.c_str());
    last_progress_ = {now, s};
  }

  const SelfPlayOptions& o_;
  const SelfPlayRun& r_;
  SelfPlayWorker& worker_;
  ModelWatcher& watcher_;
  std::shared_ptr<BatchingEvaluator> batch_eval_;
  const std::string metrics_path_;
  const bool tty_;
  const double start_;
  Rates last_progress_, last_metrics_;
  double last_poll_;
};

}  // namespace

bool run_selfplay(const SelfPlayOptions& opts, const SelfPlayRun& r, const std::atomic<int>& stop, std::string* error) {
  if (r.threads < 1 || r.threads > 1024) return *error = "--threads must be 1..1024", false;
  if (r.games < 0 || r.hours < 0) return *error = "--games and --hours must not be negative", false;
  if (!r.stub.empty() && r.stub != "uniform" && r.stub != "material")
    return *error = "--stub must be uniform or material", false;
  const std::string worker_id = sanitize_name(r.worker_id.empty() ? default_worker_id() : r.worker_id);
  const std::string out_dir = r.output_dir + "/" + worker_id;
  if (!make_dirs(out_dir)) return *error = "cannot create output directory '" + out_dir + "'", false;
  if (r.stub.empty() && !make_dirs(r.models_dir))
    return *error = "cannot create models directory '" + r.models_dir + "'", false;

  ModelWatcher watcher(r.models_dir, network_options(opts), batching_options(opts), game_of(opts.ruleset));
  std::shared_ptr<Evaluator> eval;
  std::shared_ptr<BatchingEvaluator> batch_eval;
  if (!make_evaluator(opts, r, watcher, eval, batch_eval, error)) return false;

  ChunkWriter writer(out_dir, worker_id, opts.games_per_chunk);
  SelfPlayWorker worker(opts, eval, writer);
  JZ_LOG("selfplay: worker %s, %d threads x %d games, rules %s, writing to %s", worker_id.c_str(), r.threads,
         opts.games_per_thread, ruleset_name(opts.ruleset), out_dir.c_str());
  worker.start(r.threads, uint64_t(r.games));
  WorkerMonitor monitor(opts, r, worker, watcher, batch_eval, out_dir + "/metrics.jsonl");
  monitor.run(stop);
  worker.stop();
  worker.join();
  std::string flush_error;
  bool ok = writer.flush(&flush_error);
  if (!ok) *error = flush_error;
  if (!worker.error().empty()) *error = (ok ? "" : *error + "; ") + worker.error(), ok = false;
  monitor.write_metrics(now_seconds());
  SelfPlayStats s = worker.stats();
  JZ_LOG("selfplay: done: %llu games, %llu positions in %llu chunks (%.1f s)", (unsigned long long)s.games,
         (unsigned long long)s.positions, (unsigned long long)writer.chunks_written(), now_seconds() - monitor.start());
  return ok;
}

}  // namespace jz
