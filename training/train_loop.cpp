#include "training/train_loop.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include "nn/model.h"
#include "selfplay/chunk_reader.h"
#include "selfplay/chunk_writer.h"
#include "selfplay/replay_buffer.h"
#include "selfplay/selfplay_config.h"
#include "training/batch.h"
#include "training/child_process.h"
#include "training/csv_log.h"
#include "training/run_dir.h"
#include "training/trainer.h"
#include "util/config.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/process_stats.h"

namespace jz {

namespace {

std::atomic<int> g_stop{0};
extern "C" void on_stop_signal(int sig) {
  g_stop = sig;
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

int fail(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  return 1;
}

// Total games in the chunks under dir; headers are read once per file.
int64_t count_games(const std::string& dir, std::map<std::string, uint32_t>& cache) {
  int64_t games = 0;
  for (const std::string& f : list_chunk_files(dir)) {
    auto it = cache.find(f);
    if (it == cache.end()) {
      std::string bytes, err;
      ChunkHeader h;
      uint32_t n = read_file(f, bytes, &err) && decode_chunk_header(bytes, h, &err) ? h.game_count : 0;
      it = cache.emplace(f, n).first;
    }
    games += it->second;
  }
  return games;
}

std::string short_count(double x) {
  if (x >= 1e6) return format_string("%.2fM", x / 1e6);
  if (x >= 1e4) return format_string("%.1fk", x / 1e3);
  return format_string("%.0f", x);
}

std::string duration(double s) {
  if (!(s >= 0) || s > 1e8) return "?";
  long t = long(s);
  if (t >= 3600) return format_string("%ldh%02ldm", t / 3600, t / 60 % 60);
  if (t >= 60) return format_string("%ldm%02lds", t / 60, t % 60);
  return format_string("%lds", t);
}

std::string last_line_of(const std::string& path) {
  std::string text, err;
  if (!read_file(path, text, &err)) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

const std::vector<std::string> TRAIN_COLUMNS = {
    "step",        "time",           "elapsed_s",      "loss",      "loss_policy", "loss_value",
    "loss_margin", "loss_opp_policy", "policy_entropy", "target_entropy", "lr",     "samples_per_s",
    "samples",     "games",          "positions",      "window",    "ratio",       "network",
    "cpu_hours"};

// CPU hours of the run before this session: the last logged row at or before the resumed step.
// Rows from before the column existed have no value; the run then counts from this session.
double logged_cpu_hours(const std::string& path, int64_t up_to_step) {
  CsvTable t;
  std::string err;
  if (!read_csv(path, t, &err)) return 0;
  int c = t.column("cpu_hours");
  double hours = 0;
  for (auto& r : t.rows) {
    char* end = nullptr;
    long long step = std::strtoll(r[0].c_str(), &end, 10);
    if (c < 0 || size_t(c) >= r.size() || end == r[0].c_str() || step > up_to_step) continue;
    double h = std::strtod(r[size_t(c)].c_str(), &end);
    if (end != r[size_t(c)].c_str()) hours = h;
  }
  return hours;
}

struct Accum {
  Losses sum;
  int n = 0;
  double seconds = 0;  // training compute time
  int64_t samples = 0;
  void add(const Losses& l, double dt) {
    sum.total += l.total, sum.policy += l.policy, sum.value += l.value, sum.margin += l.margin;
    sum.opp_policy += l.opp_policy, sum.policy_entropy += l.policy_entropy, sum.target_entropy += l.target_entropy;
    ++n, seconds += dt, samples += l.samples;
  }
  double avg(double Losses::*f) const { return n ? sum.*f / n : 0; }
  double rate() const { return seconds > 0 ? samples / seconds : 0; }
};

}  // namespace

int run_training(const TrainRunArgs& a) {
  if (a.run_dir.empty()) return fail("--run-dir is required");
  if (a.steps < 0 || a.hours < 0 || a.cpu_hours < 0) return fail("--steps, --hours and --cpu-hours must not be negative");
  RunDir run(a.run_dir);
  std::string err;

  // The run's config: the given file is copied in; an existing copy must agree with it.
  std::string text, existing;
  bool have_existing = std::filesystem::exists(run.config());
  if (have_existing && !read_file(run.config(), existing, &err)) return fail(err);
  if (!a.config.empty()) {
    if (!read_file(a.config, text, &err)) return fail("cannot read config " + a.config + ": " + err);
    if (have_existing && text != existing)
      return fail(run.config() + " differs from " + a.config +
                  ": resume without --config, or start a new run directory");
  } else if (have_existing) {
    text = existing;
  } else {
    return fail("no --config given and " + run.config() + " does not exist");
  }
  Config cfg;
  if (!cfg.parse(text, a.config.empty() ? run.config() : a.config, &err)) return fail(err);
  for (const std::string& s : a.overrides)
    if (!cfg.set_override(s, &err)) return fail(err);
  SelfPlayOptions sp;  // read too, so one file configures both and typos anywhere are caught
  if (!load_selfplay_options(cfg, sp, &err)) return fail(err);
  TrainOptions o;
  if (!load_train_options(cfg, o, &err)) return fail(err);
  if (!cfg.check_sections(config_sections_of("train"), &err)) return fail(err);
  if (a.selfplay_threads >= 0) o.selfplay_threads = a.selfplay_threads;
  if (a.trainer_only) o.selfplay_threads = 0;
  ModelConfig mc;
  ModelConfig::parse(o.model, mc, &err);

  if (!run.create(&err)) return fail(err);
  if (!have_existing && !write_file_atomic(run.config(), text, &err)) return fail(err);

  torch_init_threads();
  torch::set_num_threads(o.threads);
  std::unique_ptr<Trainer> trainer;
  try {
    trainer = std::make_unique<Trainer>(o, mc);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  Trainer& t = *trainer;
  auto ckpts = list_numbered(run.checkpoints(), "ckpt-", ".jzc");
  if (!ckpts.empty()) {
    try {
      t.load_checkpoint(ckpts.back().second);
    } catch (const std::exception& e) {
      return fail(std::string(e.what()) + " (remove it to resume from an older checkpoint)");
    }
    JZ_LOG("train: resumed from %s at step %lld", ckpts.back().second.c_str(), (long long)t.step());
  } else {
    JZ_LOG("train: new run in %s: %s network (%lld parameters), %s, batch %d", a.run_dir.c_str(), mc.name().c_str(),
           (long long)parameter_count(t.model()), o.optimizer.c_str(), o.batch_size);
  }
  if (a.steps > 0 && t.step() >= a.steps) {
    JZ_LOG("train: already at step %lld (--steps %lld)", (long long)t.step(), (long long)a.steps);
    return 0;
  }
  std::string network = format_string("net-%08lld", (long long)t.step());
  try {
    auto models = list_numbered(run.models(), "net-", ".jzn");
    if (models.empty() || models.back().first < t.step()) t.export_model(run.model_path(t.step()), "trainer");
    else network = format_string("net-%08lld", (long long)models.back().first);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  const double cpu_hours_before = logged_cpu_hours(run.metrics() + "/train.csv", t.step());
  CsvLog csv(run.metrics() + "/train.csv", TRAIN_COLUMNS, t.step());

  for (const std::string& s : a.overrides) JZ_LOG("train: --set %s (this session only)", s.c_str());
  // Local self-play: the run's config (selfplay reads its own sections of it) and the same overrides.
  BackgroundProcess child;
  const std::string child_log = run.logs() + "/selfplay-local.log";
  if (o.selfplay_threads > 0) {
    std::vector<std::string> argv = {a.self_exe, "selfplay", "--config", run.config(), "--models-dir", run.models(),
                                     "--output-dir", run.games(), "--threads", std::to_string(o.selfplay_threads),
                                     "--worker-id", "local"};
    for (const std::string& s : a.overrides) argv.insert(argv.end(), {"--set", s});
    if (!child.start(argv, child_log, &err)) return fail("cannot start self-play: " + err);
    JZ_LOG("train: self-play child pid %d, %d threads, log %s", int(child.pid()), o.selfplay_threads,
           child_log.c_str());
  }

  // Scheduled evaluation: a gauntlet child rates exported networks against fixed opponents. Its
  // failure is logged, not fatal: training goes on without a learning curve.
  BackgroundProcess evaluator;
  const std::string eval_log = run.logs() + "/gauntlet.log";
  if (!o.eval_opponents.empty()) {
    std::vector<std::string> argv = {a.self_exe, "gauntlet", "--run-dir", run.root, "--watch",
                                     "--opponents", o.eval_opponents, "--games", std::to_string(o.eval_games),
                                     "--net", o.eval_net, "--every", std::to_string(o.eval_every),
                                     "--concurrency", std::to_string(o.eval_concurrency)};
    if (!evaluator.start(argv, eval_log, &err)) return fail("cannot start the evaluator: " + err);
    JZ_LOG("train: evaluator pid %d rates every %lld steps vs %s, log %s", int(evaluator.pid()),
           (long long)o.eval_every, o.eval_opponents.c_str(), eval_log.c_str());
  }
  bool evaluator_reported = false;

  g_stop = 0;
  auto old_int = std::signal(SIGINT, on_stop_signal);
  auto old_term = std::signal(SIGTERM, on_stop_signal);

  // Training CPU: this process plus the self-play child (the evaluator's games are not training cost).
  double child_cpu = 0;
  auto cpu_hours = [&] {
    double c = o.selfplay_threads > 0 ? process_cpu_seconds(child.pid()) : -1;
    if (c > child_cpu) child_cpu = c;
    return cpu_hours_before + (self_cpu_seconds() + child_cpu) / 3600.0;
  };

  ReplayBuffer buf(run.games(), replay_window(o, 0));
  std::map<std::string, uint32_t> game_cache;
  const double start = now_seconds();
  double next_refresh = 0, next_progress = 0, wait_since = -1, next_cpu_check = 0;
  int64_t window = replay_window(o, 0), games = 0, last_ckpt = t.step(), start_step = t.step();
  ReplayStats st;
  Accum acc, shown;
  TrainBatch batch;
  int rc = 0;
  std::string stop_reason;

  auto save = [&](bool final) {
    try {
      t.save_checkpoint(run.checkpoint_path(t.step()));
      prune_checkpoints(run.checkpoints(), o.keep_checkpoints);
      last_ckpt = t.step();
      if (final) {
        t.export_model(run.model_path(t.step()), "trainer");
        network = format_string("net-%08lld", (long long)t.step());
      }
    } catch (const std::exception& e) {
      JZ_LOG("train: %s", e.what());
      rc = 1;
    }
  };

  for (;;) {
    double now = now_seconds();
    if (g_stop) stop_reason = "signal";
    else if (a.steps > 0 && t.step() >= a.steps) stop_reason = "reached --steps";
    else if (a.hours > 0 && now - start >= a.hours * 3600) stop_reason = "reached --hours";
    else if (a.cpu_hours > 0 && now >= next_cpu_check && (next_cpu_check = now + 5, cpu_hours() >= a.cpu_hours))
      stop_reason = "reached --cpu-hours";
    else if (o.selfplay_threads > 0 && !child.alive()) {
      stop_reason = "self-play child ended (" + child.exit_status() + "): " + last_line_of(child_log);
      rc = 1;
    }
    if (!stop_reason.empty()) break;
    if (!o.eval_opponents.empty() && !evaluator_reported && !evaluator.alive()) {
      JZ_LOG("train: evaluator ended (%s): %s", evaluator.exit_status().c_str(), last_line_of(eval_log).c_str());
      evaluator_reported = true;
    }

    bool waiting = wait_since >= 0;
    if (now >= next_refresh) {
      buf.refresh();
      st = buf.stats();
      int64_t w = replay_window(o, st.positions_seen);
      if (w != window) {
        buf.set_window(window = w);
        buf.refresh();
        st = buf.stats();
      }
      games = count_games(run.games(), game_cache);
      next_refresh = now + (waiting ? std::min(2.0, o.refresh_seconds) : o.refresh_seconds);
    }
    const double allowed = o.samples_per_position * double(st.positions_seen);
    const bool starving = st.positions_seen < o.min_positions || st.positions == 0;
    const bool ahead = o.samples_per_position > 0 && double(t.samples_trained() + o.batch_size) > allowed;
    if (starving || ahead) {
      if (wait_since < 0) wait_since = now;
      if (now >= next_progress) {
        if (starving)
          JZ_LOG("train: step %lld waiting for self-play data: %lld / %lld positions, %lld games",
                 (long long)t.step(), (long long)st.positions_seen, (long long)o.min_positions, (long long)games);
        else
          JZ_LOG("train: step %lld waiting for self-play: %.2f samples per position (limit %.2f), %s positions",
                 (long long)t.step(), t.samples_trained() / std::max(1.0, double(st.positions_seen)),
                 o.samples_per_position, short_count(double(st.positions_seen)).c_str());
        next_progress = now + 10;
      }
      next_refresh = std::min(next_refresh, now + 2.0);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    wait_since = -1;

    double t0 = now_seconds();
    Losses l;
    try {
      if (!sample_batch(buf, o.seed, t.step(), o.batch_size, o.mirror, batch, float(o.value_q_weight))) continue;
      l = t.train_step(batch);
    } catch (const std::exception& e) {
      stop_reason = std::string("training step failed: ") + e.what();
      rc = 1;
      break;
    }
    double dt = now_seconds() - t0;
    acc.add(l, dt);
    shown.add(l, dt);
    const int64_t step = t.step();

    if (step % o.export_every == 0) {
      try {
        t.export_model(run.model_path(step), "trainer");
        network = format_string("net-%08lld", (long long)step);
      } catch (const std::exception& e) {
        stop_reason = e.what();
        rc = 1;
        break;
      }
    }
    if (step % o.log_every == 0) {
      double ratio = t.samples_trained() / std::max(1.0, double(st.positions_seen));
      csv.add({std::to_string(step), format_string("%.1f", double(unix_millis()) / 1000.0),
               format_string("%.1f", now_seconds() - start), fmt_num(acc.avg(&Losses::total)),
               fmt_num(acc.avg(&Losses::policy)), fmt_num(acc.avg(&Losses::value)), fmt_num(acc.avg(&Losses::margin)),
               fmt_num(acc.avg(&Losses::opp_policy)), fmt_num(acc.avg(&Losses::policy_entropy)),
               fmt_num(acc.avg(&Losses::target_entropy)), fmt_num(t.current_lr()), format_string("%.1f", acc.rate()),
               std::to_string(t.samples_trained()), std::to_string(games), std::to_string(st.positions_seen),
               std::to_string(st.positions), format_string("%.3f", ratio), network,
               format_string("%.4f", cpu_hours())});
      acc = Accum();
      if (!csv.flush(&err)) JZ_LOG("train: %s", err.c_str());
    }
    if (step % o.checkpoint_every == 0) save(false);

    now = now_seconds();
    if (now >= next_progress) {
      double rate_steps = (step - start_step) / std::max(1e-9, now - start);
      std::string eta = "-";
      if (a.steps > 0) eta = duration((a.steps - step) / std::max(1e-9, rate_steps));
      else if (a.hours > 0) eta = duration(a.hours * 3600 - (now - start));
      JZ_LOG("train: step %lld%s | loss %.3f (p %.3f v %.3f m %.4f o %.3f) H %.2f | lr %.3g | %.0f samples/s | "
             "games %lld pos %s win %s | ratio %.2f | %s | ETA %s",
             (long long)step, a.steps > 0 ? format_string("/%lld", (long long)a.steps).c_str() : "",
             shown.avg(&Losses::total), shown.avg(&Losses::policy), shown.avg(&Losses::value),
             shown.avg(&Losses::margin), shown.avg(&Losses::opp_policy), shown.avg(&Losses::policy_entropy),
             t.current_lr(), shown.rate(), (long long)games, short_count(double(st.positions_seen)).c_str(),
             short_count(double(st.positions)).c_str(),
             t.samples_trained() / std::max(1.0, double(st.positions_seen)), network.c_str(), eta.c_str());
      shown = Accum();
      next_progress = now + 10;
    }
  }

  JZ_LOG("train: stopping at step %lld: %s", (long long)t.step(), stop_reason.c_str());
  if (t.step() != last_ckpt || rc == 0) save(true);
  if (acc.n > 0 || csv.rows() == 0) {
    if (!csv.flush(&err)) JZ_LOG("train: %s", err.c_str());
  }
  child.stop(10.0);
  evaluator.stop(5.0);
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  if (rc) std::fprintf(stderr, "error: %s\n", stop_reason.c_str());
  else
    JZ_LOG("train: step %lld, %lld samples, %lld positions seen: %.2f samples per position", (long long)t.step(),
           (long long)t.samples_trained(), (long long)st.positions_seen,
           t.samples_trained() / std::max(1.0, double(st.positions_seen)));
  return rc;
}

}  // namespace jz
