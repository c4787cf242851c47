#include "selfplay/soak_run.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "mcts/stub_evaluator.h"
#include "nn/batching_evaluator.h"
#include "nn/network_evaluator.h"
#include "replay/chunk_reader.h"
#include "replay/chunk_writer.h"
#include "replay/game_record.h"
#include "selfplay/model_watcher.h"
#include "selfplay/soak_monitor.h"
#include "selfplay/worker.h"
#include "util/config.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/process.h"

namespace jz {

namespace {

// Without --config the soak plays light searches so that games finish quickly: per-game leaks only
// show when many games come and go. A config file replaces all of these.
const char* const SOAK_DEFAULTS[][2] = {
    {"selfplay.games_per_thread", "16"}, {"selfplay.leaves_per_game", "2"},  {"selfplay.full_simulations", "32"},
    {"selfplay.cheap_simulations", "8"}, {"selfplay.max_plies", "200"},      {"selfplay.random_opening_plies", "4"},
    {"selfplay.games_per_chunk", "16"},  {"network.random_network", "4x32"},
};

// Delays one evaluate() call at the end of warm-up: a deliberate stall of the calling play thread,
// so that the watchdog, the summary and the exit code can be checked end to end (--inject-stall).
class StallInjector : public Evaluator {
 public:
  StallInjector(std::shared_ptr<Evaluator> inner, double at, double seconds, const std::atomic<int>& stop)
      : inner_(std::move(inner)), at_(at), seconds_(seconds), stop_(&stop) {}
  void evaluate(const EvalInput* in, int n, Evaluation* out) override {
    if (now_seconds() >= at_ && !fired_.exchange(true)) {
      double until = now_seconds() + seconds_;
      while (now_seconds() < until && !stop_->load()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    inner_->evaluate(in, n, out);
  }
  std::string id() const override { return inner_->id(); }
  int preferred_batch() const override { return inner_->preferred_batch(); }
  RuleOptions rule_options() const override { return inner_->rule_options(); }
  GameKind game() const override { return inner_->game(); }

 private:
  std::shared_ptr<Evaluator> inner_;
  double at_, seconds_;
  const std::atomic<int>* stop_;
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
    if (ok)
      s.chunk_games += games.size();
    else if (s.corrupt_chunks++ == 0)
      s.first_corrupt = err;
  }
}

// Flags first, so that a bad one never leaves a directory behind.
bool check_soak_flags(const SoakRun& a, std::string* error) {
  auto bad = [error](const char* why) { return *error = why, false; };
  if (a.threads < 0 || a.threads > 1024) return bad("--threads must be 1..1024");
  if (a.games_per_thread < 0) return bad("--games-per-thread must be >= 1");
  if (!(a.stall_seconds < 1e6) || !(a.sample_seconds < 1e6)) return bad("--stall-seconds / --sample-seconds too large");
  if (a.minutes == 0 || a.minutes < -1 || a.seconds == 0 || a.seconds < -1 || std::isnan(a.minutes) ||
      std::isnan(a.seconds))
    return bad("--minutes / --seconds must be > 0");
  if (!(a.sample_seconds >= 0.05)) return bad("--sample-seconds must be >= 0.05");
  if (!(a.stall_seconds > 0)) return bad("--stall-seconds must be > 0");
  if (!(a.warmup_percent >= 0 && a.warmup_percent < 100)) return bad("--warmup-percent must be in [0, 100)");
  if (!(a.max_growth_mib > 0)) return bad("--max-growth-mib must be > 0");
  if (a.inject_stall < 0) return bad("--inject-stall must not be negative");
  if (!a.stub.empty() && a.stub != "uniform" && a.stub != "material") return bad("--stub must be uniform or material");
  if (!(a.warmup_seconds >= 0 || a.warmup_seconds == -1)) return bad("--warmup-seconds must not be negative");
  return true;
}

// The self-play options: the config file, or light built-in searches without one.
bool soak_options(const SoakRun& a, SelfPlayOptions& opts, std::string* error) {
  Config cfg;
  if (!a.config.empty()) {
    if (!cfg.load(a.config, error)) return false;
  } else {
    for (const auto& kv : SOAK_DEFAULTS) cfg.set(kv[0], kv[1]);
  }
  for (const std::string& o : a.overrides)
    if (!cfg.set_override(o, error)) return false;
  if (a.games_per_thread) cfg.set("selfplay.games_per_thread", std::to_string(a.games_per_thread));
  return load_selfplay_options(cfg, opts, error) && cfg.check_sections(config_sections_of("soak"), error);
}

// The network, exactly as self-play builds it: a backend behind one shared batching evaluator.
bool soak_evaluator(const SoakRun& a, const SelfPlayOptions& opts, std::shared_ptr<Evaluator>& eval, std::string& name,
                    std::string* error) {
  const NetworkOptions net = network_options(opts);
  const BatchingOptions batching = batching_options(opts);
  try {
    if (a.stub == "uniform")
      eval = std::make_shared<UniformEvaluator>();
    else if (a.stub == "material")
      eval = std::make_shared<MaterialEvaluator>(1.0f);
    if (eval) name = "stub " + a.stub;
    if (!a.model.empty()) {
      std::shared_ptr<Evaluator> backend = NetworkEvaluator::from_file(a.model, net);
      eval = std::make_shared<BatchingEvaluator>(backend, batching);
      name = "model " + eval->id();
    } else if (!eval) {
      std::string arch = a.random_network.empty() ? opts.random_network : a.random_network;
      ModelWatcher watcher("", net, batching, game_of(opts.ruleset));
      eval = watcher.random_network(arch, opts.seed ? opts.seed : uint64_t(getpid()));
      name = "random " + arch;
    }
    return true;
  } catch (const std::exception& e) {
    std::string why = e.what();
    const std::string key = "network.random_network: ";  // the watcher names the config key
    if (!a.random_network.empty() && why.rfind(key, 0) == 0) why = "--random-network: " + why.substr(key.size());
    return *error = why, false;
  }
}

// One soak: the worker under the watchdog, samples on a schedule, then the summary.
class SoakSession {
 public:
  SoakSession(const SoakRun& a, const SelfPlayOptions& opts, std::shared_ptr<Evaluator> eval, std::string eval_name,
              double planned, double warmup, int threads)
      : a_(a),
        opts_(opts),
        eval_(std::move(eval)),
        eval_name_(std::move(eval_name)),
        planned_(planned),
        warmup_(warmup),
        threads_(threads) {}

  // Creates the output directory and sample CSV. False with a reason.
  bool prepare(std::string* error) {
    temporary_ = a_.out.empty();
    out_dir_ = temporary_ ? temp_dir() : a_.out;
    if (out_dir_.empty() || !make_dirs(out_dir_))
      return *error = "cannot create output directory '" + out_dir_ + "'", false;
    worker_id_ = "soak-" + std::to_string(getpid());
    games_dir_ = out_dir_ + "/games/" + worker_id_;
    if (!list_chunk_files(games_dir_).empty()) return *error = "'" + games_dir_ + "' already holds chunks", false;
    const std::string csv_path = a_.csv.empty() ? out_dir_ + "/soak.csv" : a_.csv;
    json_path_ = a_.json.empty() ? out_dir_ + "/soak.json" : a_.json;
    csv_.open(csv_path, std::ios::trunc);
    if (!csv_) return *error = "cannot write '" + csv_path + "'", false;
    csv_ << soak_csv_header() << "\n" << std::flush;
    return true;
  }

  SoakResult run(const std::atomic<int>& stop, SoakSummary& s, std::string* error) {
    if (a_.inject_stall > 0)
      eval_ = std::make_shared<StallInjector>(eval_, now_seconds() + warmup_, a_.inject_stall, stop);
    ChunkWriter writer(games_dir_, worker_id_, opts_.games_per_chunk);
    SelfPlayWorker worker(opts_, eval_, writer);
    JZ_LOG(
        "soak: %d threads x %d games (%d concurrent) on %u hardware threads, %s, %.0f s (warm-up %.0f s), "
        "writing to %s",
        threads_, opts_.games_per_thread, threads_ * opts_.games_per_thread, std::thread::hardware_concurrency(),
        eval_name_.c_str(), planned_, warmup_, out_dir_.c_str());
    start_ = now_seconds();
    cpu0_ = self_cpu_seconds();
    worker.start(threads_);
    const double start = start_;
    Watchdog watchdog([&worker] { return worker.thread_progress(); }, a_.stall_seconds,
                      std::min(0.25, a_.stall_seconds / 10),
                      [start](const StallEvent& e) {
                        if (!e.ended)
                          JZ_LOG("soak: STALL: play thread %d without progress for %.1f s (since %.1f s into the run)",
                                 e.worker, e.duration, e.start - start);
                        else
                          JZ_LOG("soak: play thread %d progresses again after %.1f s", e.worker, e.duration);
                      });
    watchdog.start();
    const bool interrupted = sample_until_done(stop, worker, watchdog);
    watchdog.stop();  // before the workers: stopping them is not a stall
    worker.stop();
    worker.join();
    summarize(worker, watchdog, writer, interrupted, s);
    return finish(s, error);
  }

 private:
  // Samples on schedule until the planned time, the stop flag or a worker error; true if stopped.
  bool sample_until_done(const std::atomic<int>& stop, SelfPlayWorker& worker, Watchdog& watchdog) {
    take_sample(start_, worker, watchdog);
    double next_sample = start_ + a_.sample_seconds;
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      double now = now_seconds();
      if (stop) {
        JZ_LOG("soak: signal %d: stopping", stop.load());
        take_sample(now_seconds(), worker, watchdog);
        return true;
      }
      if (worker.done()) return false;  // only on a writer error: soak games never run out
      bool end = now - start_ >= planned_;
      if (now >= next_sample || end) {
        take_sample(now, worker, watchdog);
        while (next_sample <= now) next_sample += a_.sample_seconds;
      }
      if (end) return false;
    }
  }

  void take_sample(double now, SelfPlayWorker& worker, Watchdog& watchdog) {
    SoakSample x;
    x.elapsed = now - start_;
    x.cpu_seconds = self_cpu_seconds() - cpu0_;
    ProcessMemory mem;
    read_process_memory(mem);
    x.rss_mib = mem.rss_kib / 1024.0;
    x.hwm_mib = mem.hwm_kib / 1024.0;
    SelfPlayStats st = worker.stats();
    x.games = st.games;
    x.positions = st.positions;
    x.moves = st.moves;
    x.concurrent_games = st.concurrent_games;
    double dt = x.elapsed - prev_t_;
    if (dt > 0) {
      x.games_per_s = double(st.games - prev_stats_.games) / dt;
      x.evals_per_s = double(st.leaf_evals - prev_stats_.leaf_evals) / dt;
    }
    x.max_idle = watchdog.max_idle();
    x.stalls = watchdog.stall_count();
    prev_stats_ = st;
    prev_t_ = x.elapsed;
    samples_.push_back(x);
    csv_ << soak_csv_row(x) << "\n" << std::flush;
    double rate = x.elapsed > 0 ? double(x.games) / x.elapsed : 0;
    std::fprintf(stderr,
                 "soak %s/%s | games %llu (%.2f/s) | evals %.0f/s | RSS %.1f MiB (peak %.1f) | idle max %.1f s | "
                 "stalls %d | ETA %s\n",
                 mmss(x.elapsed).c_str(), mmss(planned_).c_str(), (unsigned long long)x.games, rate, x.evals_per_s,
                 x.rss_mib, x.hwm_mib, x.max_idle, x.stalls, mmss(std::max(0.0, planned_ - x.elapsed)).c_str());
  }

  void summarize(SelfPlayWorker& worker, Watchdog& watchdog, ChunkWriter& writer, bool interrupted, SoakSummary& s) {
    s.threads = threads_;
    s.games_per_thread = opts_.games_per_thread;
    s.evaluator = eval_name_;
    s.planned_seconds = planned_;
    s.elapsed_seconds = now_seconds() - start_;
    s.warmup_seconds = warmup_;
    s.interrupted = interrupted;
    SelfPlayStats st = worker.stats();
    s.games = st.games;
    s.positions = st.positions;
    s.moves = st.moves;
    s.cpu_seconds = self_cpu_seconds() - cpu0_;
    s.stalls = watchdog.stall_count();
    s.longest_stall = watchdog.longest_stall();
    s.stall_events = watchdog.stalls();
    for (StallEvent& e : s.stall_events) e.start -= start_;
    s.stall_threshold = a_.stall_seconds;
    s.max_growth_mib = a_.max_growth_mib;
    s.error = worker.error();
    std::string err;
    if (!writer.flush(&err) && s.error.empty()) s.error = err;
    validate_chunks(games_dir_, s);
    summarize_memory(samples_, s);
    decide_verdict(s);
  }

  // Writes and prints the summary; removes a passed temporary directory.
  SoakResult finish(SoakSummary& s, std::string* error) {
    // A failed soak keeps its directory: the chunks and samples are the evidence.
    const bool keep = !temporary_ || a_.keep || !s.pass;
    s.output_dir = keep ? out_dir_ : "";
    std::string json = soak_summary_json(s);
    std::printf("%s\n", json.c_str());
    std::fflush(stdout);
    SoakResult result = s.pass ? SoakResult::PASS : SoakResult::FAIL;
    if (!write_file_atomic(json_path_, json + "\n", error)) {
      if (result == SoakResult::PASS)
        result = SoakResult::ERROR;
      else
        JZ_LOG("soak: %s", error->c_str());
    }
    JZ_LOG(
        "soak: %s: %llu games, %llu positions in %.1f min; RSS %.1f MiB after warm-up, %.1f MiB at the end "
        "(max %.1f), growth %.1f MiB/h; %d stall(s); %llu chunks valid, %llu corrupt",
        s.pass ? "PASS" : "FAIL", (unsigned long long)s.games, (unsigned long long)s.positions, s.elapsed_seconds / 60,
        s.rss_start_mib, s.rss_end_mib, s.rss_max_mib, s.growth_mib_per_hour, s.stalls,
        (unsigned long long)(s.chunks - s.corrupt_chunks), (unsigned long long)s.corrupt_chunks);
    for (const std::string& r : s.reasons) JZ_LOG("soak: %s", r.c_str());
    if (!keep) {
      std::error_code ec;
      std::filesystem::remove_all(out_dir_, ec);
      JZ_LOG("soak: removed %s (--keep or --out keep it)", out_dir_.c_str());
    } else {
      JZ_LOG("soak: samples, summary and chunks are in %s", out_dir_.c_str());
    }
    return result;
  }

  const SoakRun& a_;
  const SelfPlayOptions& opts_;
  std::shared_ptr<Evaluator> eval_;
  const std::string eval_name_;
  const double planned_, warmup_;
  const int threads_;
  bool temporary_ = true;
  std::string out_dir_, worker_id_, games_dir_, json_path_;
  std::ofstream csv_;
  double start_ = 0, cpu0_ = 0, prev_t_ = 0;
  SelfPlayStats prev_stats_;
  std::vector<SoakSample> samples_;
};

}  // namespace

SoakResult run_soak(const SoakRun& a, const std::atomic<int>& stop, SoakSummary* summary, std::string* error) {
  if (!check_soak_flags(a, error)) return SoakResult::ERROR;
  const double planned = a.seconds > 0 ? a.seconds : (a.minutes > 0 ? a.minutes : 10) * 60;
  const double warmup = a.warmup_seconds >= 0 ? a.warmup_seconds : planned * a.warmup_percent / 100;
  if (warmup >= planned) return *error = "--warmup-seconds must be shorter than the run", SoakResult::ERROR;
  const int threads = a.threads ? a.threads : 4 * int(std::max(1u, std::thread::hardware_concurrency()));
  SelfPlayOptions opts;
  std::shared_ptr<Evaluator> eval;
  std::string eval_name;
  if (!soak_options(a, opts, error) || !soak_evaluator(a, opts, eval, eval_name, error)) return SoakResult::ERROR;
  SoakSession session(a, opts, eval, eval_name, planned, warmup, threads);
  if (!session.prepare(error)) return SoakResult::ERROR;
  return session.run(stop, *summary, error);
}

}  // namespace jz
