// `janggi-zero soak`: the self-play machinery (SelfPlayWorker, MCTS trees, BatchingEvaluator, chunk
// writer) under load for a fixed time, typically with many more threads than cores. It samples memory
// and progress (CSV), a watchdog reports any play thread without progress for more than
// --stall-seconds, and at the end every chunk written is validated and a JSON summary with a verdict
// is written. Exit code: 0 pass, 1 bad usage or setup, 2 the soak failed (stall, memory growth after
// warm-up, corrupt or missing chunks, worker error, no finished game). Formats: docs/architecture.md.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "apps/commands.h"
#include "mcts/stub_evaluator.h"
#include "nn/batching_evaluator.h"
#include "nn/network_evaluator.h"
#include "selfplay/chunk_reader.h"
#include "selfplay/chunk_writer.h"
#include "selfplay/game_record.h"
#include "selfplay/model_watcher.h"
#include "selfplay/soak_monitor.h"
#include "selfplay/soak_report.h"
#include "selfplay/worker.h"
#include "util/config.h"
#include "util/fileio.h"
#include "util/log.h"

namespace jz::app {

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_soak_signal(int sig) {
  g_signal = sig;
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

struct SoakArgs {
  std::string config, model, random_network, stub, out, csv, json;
  std::vector<std::string> overrides;
  int threads = 0;           // 0: 4 x hardware threads
  int games_per_thread = 0;  // 0: selfplay.games_per_thread (16 without --config)
  double minutes = -1, seconds = -1;  // -1: not given
  double sample_seconds = 5, stall_seconds = 5;
  double warmup_percent = 20, warmup_seconds = -1;
  double max_growth_mib = 64;
  double inject_stall = 0;
  bool keep = false;
};

// Without --config the soak plays light searches so that games finish quickly: per-game leaks only
// show when many games come and go. A config file replaces all of these.
const char* const SOAK_DEFAULTS[][2] = {
    {"selfplay.games_per_thread", "16"},   {"selfplay.leaves_per_game", "2"},
    {"selfplay.full_simulations", "32"},   {"selfplay.cheap_simulations", "8"},
    {"selfplay.max_plies", "200"},         {"selfplay.random_opening_plies", "4"},
    {"selfplay.games_per_chunk", "16"},    {"network.random_network", "4x32"},
};

// Delays one evaluate() call at the end of warm-up: a deliberate stall of the calling play thread,
// so that the watchdog, the summary and the exit code can be checked end to end (--inject-stall).
class StallInjector : public Evaluator {
 public:
  StallInjector(std::shared_ptr<Evaluator> inner, double at, double seconds)
      : inner_(std::move(inner)), at_(at), seconds_(seconds) {}
  void evaluate(const EvalInput* in, int n, Evaluation* out) override {
    if (now_seconds() >= at_ && !fired_.exchange(true)) {
      double until = now_seconds() + seconds_;
      while (now_seconds() < until && !g_signal) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    inner_->evaluate(in, n, out);
  }
  std::string id() const override { return inner_->id(); }
  int preferred_batch() const override { return inner_->preferred_batch(); }

 private:
  std::shared_ptr<Evaluator> inner_;
  double at_, seconds_;
  std::atomic<bool> fired_{false};
};

std::string temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/jz-soak-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  return mkdtemp(buf.data()) ? std::string(buf.data()) : std::string();
}

std::string mmss(double s) {
  int t = int(s + 0.5);
  return format_string("%d:%02d", t / 60, t % 60);
}

// Reads and replays every game of every chunk under dir (the trainer's own checks).
void validate_chunks(const std::string& dir, SoakSummary& s) {
  for (const std::string& path : list_chunk_files(dir)) {
    ++s.chunks;
    ChunkHeader header;
    std::vector<GameRecord> games;
    std::string err;
    bool ok = read_chunk_file(path, header, games, &err);
    for (size_t i = 0; ok && i < games.size(); ++i)
      if (!validate_game(games[i], &err)) {
        err = "'" + path + "' game " + std::to_string(i) + ": " + err;
        ok = false;
      }
    if (ok) s.chunk_games += games.size();
    else if (s.corrupt_chunks++ == 0) s.first_corrupt = err;
  }
}

int run_soak(const SoakArgs& a) {
  auto fail = [](const std::string& msg) {
    std::fprintf(stderr, "error: %s\n", msg.c_str());
    return 1;
  };
  // Flags first, so that a bad one never leaves a directory behind.
  if (a.threads < 0 || a.threads > 1024) return fail("--threads must be 1..1024");
  if (a.games_per_thread < 0) return fail("--games-per-thread must be >= 1");
  if (!(a.stall_seconds < 1e6) || !(a.sample_seconds < 1e6)) return fail("--stall-seconds / --sample-seconds too large");
  if (a.minutes == 0 || a.minutes < -1 || a.seconds == 0 || a.seconds < -1 || std::isnan(a.minutes) ||
      std::isnan(a.seconds))
    return fail("--minutes / --seconds must be > 0");
  if (!(a.sample_seconds >= 0.05)) return fail("--sample-seconds must be >= 0.05");
  if (!(a.stall_seconds > 0)) return fail("--stall-seconds must be > 0");
  if (!(a.warmup_percent >= 0 && a.warmup_percent < 100)) return fail("--warmup-percent must be in [0, 100)");
  if (!(a.max_growth_mib > 0)) return fail("--max-growth-mib must be > 0");
  if (a.inject_stall < 0) return fail("--inject-stall must not be negative");
  if (!a.stub.empty() && a.stub != "uniform" && a.stub != "material") return fail("--stub must be uniform or material");
  const double planned = a.seconds > 0 ? a.seconds : (a.minutes > 0 ? a.minutes : 10) * 60;
  if (!(a.warmup_seconds >= 0 || a.warmup_seconds == -1)) return fail("--warmup-seconds must not be negative");
  const double warmup = a.warmup_seconds >= 0 ? a.warmup_seconds : planned * a.warmup_percent / 100;
  if (warmup >= planned) return fail("--warmup-seconds must be shorter than the run");
  const int threads = a.threads ? a.threads : 4 * int(std::max(1u, std::thread::hardware_concurrency()));

  Config cfg;
  std::string err;
  if (!a.config.empty()) {
    if (!cfg.load(a.config, &err)) return fail(err);
  } else {
    for (const auto& kv : SOAK_DEFAULTS) cfg.set(kv[0], kv[1]);
  }
  for (const std::string& o : a.overrides)
    if (!cfg.set_override(o, &err)) return fail(err);
  if (a.games_per_thread) cfg.set("selfplay.games_per_thread", std::to_string(a.games_per_thread));
  SelfPlayOptions opts;
  if (!load_selfplay_options(cfg, opts, &err)) return fail(err);
  if (!cfg.check_sections(config_sections_of("soak"), &err)) return fail(err);

  // The network, exactly as self-play builds it: a backend behind one shared batching evaluator.
  NetworkOptions net;
  net.device = opts.device;
  net.precision = opts.precision;
  net.max_batch = opts.eval_batch;
  BatchingOptions batching;
  batching.max_batch = opts.eval_batch;
  batching.max_wait_us = opts.eval_wait_us;
  batching.server_threads = opts.eval_servers;
  batching.cache_entries = size_t(opts.eval_cache);
  std::shared_ptr<Evaluator> eval;
  std::string eval_name;
  try {
    if (a.stub == "uniform") eval = std::make_shared<UniformEvaluator>();
    else if (a.stub == "material") eval = std::make_shared<MaterialEvaluator>(1.0f);
    if (eval) eval_name = "stub " + a.stub;
    if (!a.model.empty()) {
      std::shared_ptr<Evaluator> backend = NetworkEvaluator::from_file(a.model, net);
      eval = std::make_shared<BatchingEvaluator>(backend, batching);
      eval_name = "model " + eval->id();
    } else if (!eval) {
      std::string arch = a.random_network.empty() ? opts.random_network : a.random_network;
      ModelWatcher watcher("", net, batching);
      eval = watcher.random_network(arch, opts.seed ? opts.seed : uint64_t(getpid()));
      eval_name = "random " + arch;
    }
  } catch (const std::exception& e) {
    std::string why = e.what();
    const std::string key = "network.random_network: ";  // the watcher names the config key
    if (!a.random_network.empty() && why.rfind(key, 0) == 0) why = "--random-network: " + why.substr(key.size());
    return fail(why);
  }

  const bool temporary = a.out.empty();
  const std::string out_dir = temporary ? temp_dir() : a.out;
  if (out_dir.empty() || !make_dirs(out_dir)) return fail("cannot create output directory '" + out_dir + "'");
  const std::string worker_id = "soak-" + std::to_string(getpid());
  const std::string games_dir = out_dir + "/games/" + worker_id;
  if (!list_chunk_files(games_dir).empty()) return fail("'" + games_dir + "' already holds chunks");
  const std::string csv_path = a.csv.empty() ? out_dir + "/soak.csv" : a.csv;
  const std::string json_path = a.json.empty() ? out_dir + "/soak.json" : a.json;
  std::ofstream csv(csv_path, std::ios::trunc);
  if (!csv) return fail("cannot write '" + csv_path + "'");
  csv << soak_csv_header() << "\n" << std::flush;

  if (a.inject_stall > 0) eval = std::make_shared<StallInjector>(eval, now_seconds() + warmup, a.inject_stall);
  g_signal = 0;
  std::signal(SIGINT, on_soak_signal);
  std::signal(SIGTERM, on_soak_signal);
  ChunkWriter writer(games_dir, worker_id, opts.games_per_chunk);
  SelfPlayWorker worker(opts, eval, writer);
  JZ_LOG("soak: %d threads x %d games (%d concurrent) on %u hardware threads, %s, %.0f s (warm-up %.0f s), "
         "writing to %s",
         threads, opts.games_per_thread, threads * opts.games_per_thread, std::thread::hardware_concurrency(),
         eval_name.c_str(), planned, warmup, out_dir.c_str());
  const double start = now_seconds();
  const double cpu0 = own_cpu_seconds();
  worker.start(threads);
  Watchdog watchdog([&worker] { return worker.thread_progress(); }, a.stall_seconds,
                    std::min(0.25, a.stall_seconds / 10), [start](const StallEvent& e) {
                      if (!e.ended)
                        JZ_LOG("soak: STALL: play thread %d without progress for %.1f s (since %.1f s into the run)",
                               e.worker, e.duration, e.start - start);
                      else
                        JZ_LOG("soak: play thread %d progresses again after %.1f s", e.worker, e.duration);
                    });
  watchdog.start();

  std::vector<SoakSample> samples;
  SelfPlayStats prev_stats;
  double prev_t = 0;
  auto take_sample = [&](double now) {
    SoakSample x;
    x.elapsed = now - start;
    x.cpu_seconds = own_cpu_seconds() - cpu0;
    ProcessMemory mem;
    read_process_memory(mem);
    x.rss_mib = mem.rss_kib / 1024.0;
    x.hwm_mib = mem.hwm_kib / 1024.0;
    SelfPlayStats st = worker.stats();
    x.games = st.games;
    x.positions = st.positions;
    x.moves = st.moves;
    x.concurrent_games = st.concurrent_games;
    double dt = x.elapsed - prev_t;
    if (dt > 0) {
      x.games_per_s = double(st.games - prev_stats.games) / dt;
      x.evals_per_s = double(st.leaf_evals - prev_stats.leaf_evals) / dt;
    }
    x.max_idle = watchdog.max_idle();
    x.stalls = watchdog.stall_count();
    prev_stats = st;
    prev_t = x.elapsed;
    samples.push_back(x);
    csv << soak_csv_row(x) << "\n" << std::flush;
    double rate = x.elapsed > 0 ? double(x.games) / x.elapsed : 0;
    std::fprintf(stderr,
                 "soak %s/%s | games %llu (%.2f/s) | evals %.0f/s | RSS %.1f MiB (peak %.1f) | idle max %.1f s | "
                 "stalls %d | ETA %s\n",
                 mmss(x.elapsed).c_str(), mmss(planned).c_str(), (unsigned long long)x.games, rate, x.evals_per_s,
                 x.rss_mib, x.hwm_mib, x.max_idle, x.stalls, mmss(std::max(0.0, planned - x.elapsed)).c_str());
  };

  take_sample(start);
  bool interrupted = false;
  double next_sample = start + a.sample_seconds;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    double now = now_seconds();
    if (g_signal) {
      JZ_LOG("soak: signal %d: stopping", g_signal.load());
      interrupted = true;
      break;
    }
    if (worker.done()) break;  // only on a writer error: soak games never run out
    bool end = now - start >= planned;
    if (now >= next_sample || end) {
      take_sample(now);
      while (next_sample <= now) next_sample += a.sample_seconds;
    }
    if (end) break;
  }
  if (interrupted) take_sample(now_seconds());
  watchdog.stop();  // before the workers: stopping them is not a stall
  worker.stop();
  worker.join();

  SoakSummary s;
  s.threads = threads;
  s.games_per_thread = opts.games_per_thread;
  s.evaluator = eval_name;
  s.planned_seconds = planned;
  s.elapsed_seconds = now_seconds() - start;
  s.warmup_seconds = warmup;
  s.interrupted = interrupted;
  SelfPlayStats st = worker.stats();
  s.games = st.games;
  s.positions = st.positions;
  s.moves = st.moves;
  s.cpu_seconds = own_cpu_seconds() - cpu0;
  s.stalls = watchdog.stall_count();
  s.longest_stall = watchdog.longest_stall();
  s.stall_events = watchdog.stalls();
  for (StallEvent& e : s.stall_events) e.start -= start;
  s.stall_threshold = a.stall_seconds;
  s.max_growth_mib = a.max_growth_mib;
  s.error = worker.error();
  if (!writer.flush(&err) && s.error.empty()) s.error = err;
  validate_chunks(games_dir, s);
  summarize_memory(samples, s);
  decide_verdict(s);
  // A failed soak keeps its directory: the chunks and samples are the evidence.
  const bool keep = !temporary || a.keep || !s.pass;
  s.output_dir = keep ? out_dir : "";
  std::string json = soak_summary_json(s);
  std::printf("%s\n", json.c_str());
  std::fflush(stdout);
  int rc = s.pass ? 0 : 2;
  if (!write_file_atomic(json_path, json + "\n", &err)) {
    JZ_LOG("error: %s", err.c_str());
    rc = rc ? rc : 1;
  }
  JZ_LOG("soak: %s: %llu games, %llu positions in %.1f min; RSS %.1f MiB after warm-up, %.1f MiB at the end "
         "(max %.1f), growth %.1f MiB/h; %d stall(s); %llu chunks valid, %llu corrupt",
         s.pass ? "PASS" : "FAIL", (unsigned long long)s.games, (unsigned long long)s.positions,
         s.elapsed_seconds / 60, s.rss_start_mib, s.rss_end_mib, s.rss_max_mib, s.growth_mib_per_hour, s.stalls,
         (unsigned long long)(s.chunks - s.corrupt_chunks), (unsigned long long)s.corrupt_chunks);
  for (const std::string& r : s.reasons) JZ_LOG("soak: %s", r.c_str());
  if (!keep) {
    std::error_code ec;
    std::filesystem::remove_all(out_dir, ec);
    JZ_LOG("soak: removed %s (--keep or --out keep it)", out_dir.c_str());
  } else {
    JZ_LOG("soak: samples, summary and chunks are in %s", out_dir.c_str());
  }
  return rc;
}

}  // namespace

void add_soak(CLI::App& app, int& rc) {
  auto a = std::make_shared<SoakArgs>();
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
  cmd->add_option("--stall-seconds", a->stall_seconds, "A play thread without progress this long is a stall (default 5)");
  auto* wp = cmd->add_option("--warmup-percent", a->warmup_percent, "Warm-up: this share of the run (default 20)");
  cmd->add_option("--warmup-seconds", a->warmup_seconds, "Warm-up in seconds (instead of --warmup-percent)")->excludes(wp);
  cmd->add_option("--max-growth-mib", a->max_growth_mib, "Allowed RSS growth after warm-up, fitted (default 64)");
  cmd->add_option("--out", a->out, "Output directory, kept (default: a temporary one, removed after a pass)");
  cmd->add_flag("--keep", a->keep, "Keep the temporary output directory");
  cmd->add_option("--csv", a->csv, "Sample CSV (default <out>/soak.csv)");
  cmd->add_option("--json", a->json, "Summary JSON (default <out>/soak.json; also printed)");
  cmd->add_option("--inject-stall", a->inject_stall, "Self-check: stall one play thread this many seconds after warm-up");
  cmd->callback([a, &rc] {
    try {
      rc = run_soak(*a);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      rc = 1;
    }
  });
}

}  // namespace jz::app
