#include "training/train_loop.h"

#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "replay/chunk_reader.h"
#include "replay/chunk_writer.h"
#include "replay/replay_buffer.h"
#include "training/batch.h"
#include "training/csv_log.h"
#include "training/run_children.h"
#include "training/train_setup.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/process.h"

namespace jz {

namespace {

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

const std::vector<std::string> TRAIN_COLUMNS = {"step",           "time",           "elapsed_s",   "loss",
                                                "loss_policy",    "loss_value",     "loss_margin", "loss_opp_policy",
                                                "policy_entropy", "target_entropy", "lr",          "samples_per_s",
                                                "samples",        "games",          "positions",   "window",
                                                "ratio",          "network",        "cpu_hours",   "extra_share"};

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

// One session of training: the loop waits for self-play data, trains, exports, logs and checkpoints;
// each concern is one method.
class TrainingSession {
 public:
  TrainingSession(const TrainRunArgs& a, const RunSetup& s, Trainer& t, RunChildren& children, std::string network,
                  std::unique_ptr<ReplayBuffer> extra)
      : a_(a),
        o_(s.options),
        lineage_(s.lineage),
        run_(s.run),
        t_(t),
        children_(children),
        network_(std::move(network)),
        cpu_hours_before_(logged_cpu_hours(run_.metrics() + "/train.csv", t.step())),
        csv_(run_.metrics() + "/train.csv", TRAIN_COLUMNS, t.step()),
        buf_(run_.games(), replay_window(o_, 0)),
        extra_(std::move(extra)),
        start_(now_seconds()),
        window_(replay_window(o_, 0)),
        last_ckpt_(t.step()),
        start_step_(t.step()),
        selfplay_samples_(selfplay_samples_since(o_, t, s.start_step, s.start_samples)) {}

  // Self-play samples trained on this run directory's games: a run moved by --resume-from counts from
  // its starting checkpoint, since its games/ holds only what was played after it.
  static int64_t selfplay_samples_since(const TrainOptions& o, const Trainer& t, int64_t step0, int64_t samples0) {
    if (o.extra_data.empty()) return t.samples_trained() - samples0;
    return selfplay_samples_before(o, t.step()) - selfplay_samples_before(o, step0);
  }

  // Trains until a limit or the stop flag; false with the reason when the run failed.
  bool run(const std::atomic<int>& stop, std::string* error) {
    std::string reason;
    bool failed = false;
    for (;;) {
      reason = stop_reason(stop, &failed);
      if (!reason.empty()) break;
      children_.watch_evaluator();
      if (wait_for_data()) continue;
      if (!train_step(&reason)) {
        failed = true;
        break;
      }
    }
    JZ_LOG("train: stopping at step %lld: %s", (long long)t_.step(), reason.c_str());
    if ((t_.step() != last_ckpt_ || !failed) && !save(true) && !failed) {
      failed = true;
      reason = "cannot write the final checkpoint";
    }
    if (acc_.n > 0 || csv_.rows() == 0) flush_csv();
    children_.stop();
    if (failed) return *error = reason, false;
    JZ_LOG("train: step %lld, %lld samples (%lld from self-play), %lld positions seen: %.2f samples per position",
           (long long)t_.step(), (long long)t_.samples_trained(), (long long)selfplay_samples_,
           (long long)st_.positions_seen, ratio());
    return true;
  }

 private:
  // Self-play samples trained per self-play position (extra data does not count).
  double ratio() const { return double(selfplay_samples_) / std::max(1.0, double(st_.positions_seen)); }
  int extra_samples() const { return extra_ ? extra_samples_at(o_, t_.step()) : 0; }

  // Training CPU: this process plus the self-play child (the evaluator's games are not training cost).
  double cpu_hours() { return cpu_hours_before_ + (self_cpu_seconds() + children_.selfplay_cpu_seconds()) / 3600.0; }

  std::string stop_reason(const std::atomic<int>& stop, bool* failed) {
    double now = now_seconds();
    if (stop) return "signal";
    if (a_.steps > 0 && t_.step() >= a_.steps) return "reached --steps";
    if (a_.hours > 0 && now - start_ >= a_.hours * 3600) return "reached --hours";
    if (a_.cpu_hours > 0 && now >= next_cpu_check_) {
      next_cpu_check_ = now + 5;
      if (cpu_hours() >= a_.cpu_hours) return "reached --cpu-hours";
    }
    std::string ended = children_.selfplay_ended();
    if (!ended.empty()) *failed = true;
    return ended;
  }

  // Refreshes the replay window when due; true (after a short sleep) while training must wait:
  // too little data, or ahead of the allowed samples per self-play position.
  bool wait_for_data() {
    double now = now_seconds();
    bool waiting = wait_since_ >= 0;
    if (now >= next_refresh_) {
      buf_.refresh();
      st_ = buf_.stats();
      int64_t w = replay_window(o_, st_.positions_seen);
      if (w != window_) {
        buf_.set_window(window_ = w);
        buf_.refresh();
        st_ = buf_.stats();
      }
      games_ = count_games(run_.games(), game_cache_);
      if (extra_) extra_->refresh();
      next_refresh_ = now + (waiting ? std::min(2.0, o_.refresh_seconds) : o_.refresh_seconds);
    }
    const double allowed = o_.samples_per_position * double(st_.positions_seen);
    const int own = o_.batch_size - extra_samples();  // self-play samples of the next batch
    const bool starving = own > 0 && (st_.positions_seen < o_.min_positions || st_.positions == 0);
    const bool ahead = own > 0 && o_.samples_per_position > 0 && double(selfplay_samples_ + own) > allowed;
    if (!starving && !ahead) {
      wait_since_ = -1;
      return false;
    }
    if (wait_since_ < 0) wait_since_ = now;
    if (now >= next_progress_) {
      if (starving)
        JZ_LOG("train: step %lld waiting for self-play data: %lld / %lld positions, %lld games", (long long)t_.step(),
               (long long)st_.positions_seen, (long long)o_.min_positions, (long long)games_);
      else
        JZ_LOG("train: step %lld waiting for self-play: %.2f samples per position (limit %.2f), %s positions",
               (long long)t_.step(), ratio(), o_.samples_per_position, short_count(double(st_.positions_seen)).c_str());
      next_progress_ = now + 10;
    }
    next_refresh_ = std::min(next_refresh_, now + 2.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return true;
  }

  // One step, then what falls due at its number. False with the reason on a failure.
  bool train_step(std::string* reason) {
    double t0 = now_seconds();
    Losses l;
    try {
      const int n_extra = extra_samples(), n_own = o_.batch_size - n_extra;
      if (!sample_mixed_batch(buf_, n_own, float(o_.value_q_weight), extra_.get(), n_extra,
                              float(o_.extra_value_q_weight), o_.seed, t_.step(), o_.mirror, batch_,
                              o_.extra_full_only))
        return true;
      l = t_.train_step(batch_);
      selfplay_samples_ += n_own;
    } catch (const std::exception& e) {
      return *reason = std::string("training step failed: ") + e.what(), false;
    }
    double dt = now_seconds() - t0;
    acc_.add(l, dt);
    shown_.add(l, dt);
    const int64_t step = t_.step();
    if (step % o_.export_every == 0) {
      try {
        t_.export_model(run_.model_path(step), "trainer");
        network_ = format_string("net-%08lld", (long long)step);
      } catch (const std::exception& e) {
        return *reason = e.what(), false;
      }
    }
    if (step % o_.log_every == 0) log_row();
    if (step % o_.checkpoint_every == 0 && !save(false)) return *reason = "cannot write a checkpoint", false;
    show_progress();
    return true;
  }

  void log_row() {
    csv_.add({{"step", std::to_string(t_.step())},
              {"time", format_string("%.1f", double(unix_millis()) / 1000.0)},
              {"elapsed_s", format_string("%.1f", now_seconds() - start_)},
              {"loss", fmt_num(acc_.avg(&Losses::total))},
              {"loss_policy", fmt_num(acc_.avg(&Losses::policy))},
              {"loss_value", fmt_num(acc_.avg(&Losses::value))},
              {"loss_margin", fmt_num(acc_.avg(&Losses::margin))},
              {"loss_opp_policy", fmt_num(acc_.avg(&Losses::opp_policy))},
              {"policy_entropy", fmt_num(acc_.avg(&Losses::policy_entropy))},
              {"target_entropy", fmt_num(acc_.avg(&Losses::target_entropy))},
              {"lr", fmt_num(t_.current_lr())},
              {"samples_per_s", format_string("%.1f", acc_.rate())},
              {"samples", std::to_string(t_.samples_trained())},
              {"games", std::to_string(games_)},
              {"positions", std::to_string(st_.positions_seen)},
              {"window", std::to_string(st_.positions)},
              {"ratio", format_string("%.3f", ratio())},
              {"network", network_},
              {"cpu_hours", format_string("%.4f", cpu_hours())},
              {"extra_share", format_string("%.3f", double(extra_samples()) / o_.batch_size)}});
    acc_ = Accum();
    flush_csv();
  }

  void flush_csv() {
    std::string err;
    if (!csv_.flush(&err)) JZ_LOG("train: %s", err.c_str());
  }

  std::string eta(double now) {
    const int64_t step = t_.step();
    double rate_steps = (step - start_step_) / std::max(1e-9, now - start_);
    if (a_.steps > 0) return duration((a_.steps - step) / std::max(1e-9, rate_steps));
    if (a_.hours > 0) return duration(a_.hours * 3600 - (now - start_));
    if (a_.cpu_hours > 0) {  // at this session's rate of CPU hours per wall hour
      double used = cpu_hours(), rate = (used - cpu_hours_before_) / std::max(1e-9, now - start_);
      return duration((a_.cpu_hours - used) / std::max(1e-12, rate));
    }
    return "-";
  }

  void show_progress() {
    double now = now_seconds();
    if (now < next_progress_) return;
    const int64_t step = t_.step();
    JZ_LOG(
        "train: step %lld%s | loss %.3f (p %.3f v %.3f m %.4f o %.3f) H %.2f | lr %.3g | %.0f samples/s | "
        "games %lld pos %s win %s | ratio %.2f%s | %s | ETA %s",
        (long long)step, a_.steps > 0 ? format_string("/%lld", (long long)a_.steps).c_str() : "",
        shown_.avg(&Losses::total), shown_.avg(&Losses::policy), shown_.avg(&Losses::value),
        shown_.avg(&Losses::margin), shown_.avg(&Losses::opp_policy), shown_.avg(&Losses::policy_entropy),
        t_.current_lr(), shown_.rate(), (long long)games_, short_count(double(st_.positions_seen)).c_str(),
        short_count(double(st_.positions)).c_str(), ratio(),
        extra_ ? format_string(" | extra %.0f%%", 100.0 * extra_samples() / o_.batch_size).c_str() : "",
        network_.c_str(), eta(now).c_str());
    shown_ = Accum();
    next_progress_ = now + 10;
  }

  // A checkpoint (and, at the end, the network of the final step). False on a write failure.
  bool save(bool final) {
    try {
      t_.save_checkpoint(run_.checkpoint_path(t_.step()), lineage_);
      prune_checkpoints(run_.checkpoints(), o_.keep_checkpoints);
      last_ckpt_ = t_.step();
      if (final) {
        t_.export_model(run_.model_path(t_.step()), "trainer");
        network_ = format_string("net-%08lld", (long long)t_.step());
      }
      return true;
    } catch (const std::exception& e) {
      JZ_LOG("train: %s", e.what());
      return false;
    }
  }

  const TrainRunArgs& a_;
  const TrainOptions& o_;
  const HeaderKV lineage_;  // the run's config and overrides, in every checkpoint (--resume-from)
  const RunDir& run_;
  Trainer& t_;
  RunChildren& children_;
  std::string network_;
  const double cpu_hours_before_;
  CsvLog csv_;
  ReplayBuffer buf_;
  std::unique_ptr<ReplayBuffer> extra_;  // training.extra_data, or none
  std::map<std::string, uint32_t> game_cache_;
  const double start_;
  double next_refresh_ = 0, next_progress_ = 0, wait_since_ = -1, next_cpu_check_ = 0;
  int64_t window_, games_ = 0, last_ckpt_, start_step_, selfplay_samples_;
  ReplayStats st_;
  Accum acc_, shown_;
  TrainBatch batch_;
};

}  // namespace

bool run_training(const TrainRunArgs& a, const std::atomic<int>& stop, std::string* error) {
  RunSetup setup;
  if (!setup_run(a, setup, error)) return false;
  torch_init_threads();
  torch::set_num_threads(setup.options.threads);
  std::string network;
  std::unique_ptr<Trainer> trainer;
  try {
    trainer = open_trainer(setup, &network);
  } catch (const std::exception& e) {
    return *error = e.what(), false;
  }
  if (a.steps > 0 && trainer->step() >= a.steps) {
    JZ_LOG("train: already at step %lld (--steps %lld)", (long long)trainer->step(), (long long)a.steps);
    return true;
  }
  std::unique_ptr<ReplayBuffer> extra;
  if (!setup.options.extra_data.empty()) {
    // setup_run checked the folder; an empty one is a teacher that has not written yet (teach
    // --relabel-from labels the run's own games): its chunks are picked up as they appear.
    extra = std::make_unique<ReplayBuffer>(setup.options.extra_data, setup.options.extra_window);
    extra->refresh();
    ReplayStats es = extra->stats();
    if (es.positions == 0)
      JZ_LOG("train: training.extra_data %s holds no replay chunks yet: batches take them as they appear",
             setup.options.extra_data.c_str());
    JZ_LOG("train: extra data %s: %lld games, %lld positions; share of a batch %.2f -> %.2f over %lld steps (now %.2f)",
           setup.options.extra_data.c_str(), (long long)es.games, (long long)es.positions, setup.options.extra_share,
           setup.options.extra_share_final, (long long)setup.options.extra_decay_steps,
           double(extra_samples_at(setup.options, trainer->step())) / setup.options.batch_size);
  }
  RunChildren children;
  if (!children.start(a, setup.run, setup.options, setup.selfplay.ruleset, error)) return false;
  TrainingSession session(a, setup, *trainer, children, network, std::move(extra));
  return session.run(stop, error);
}

}  // namespace jz
