// `janggi-zero train`: local training run (self-play child + trainer) in a run directory.
// `janggi-zero bench train`: trainer throughput (samples/s) for a model size and batch.
#include <cstdio>
#include <memory>
#include <random>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "nn/model.h"
#include "nn/torch_compat.h"
#include "training/batch.h"
#include "training/train_loop.h"
#include "training/trainer.h"
#include "util/log.h"

namespace jz::app {

void add_train(CLI::App& app, int& rc) {
  auto a = std::make_shared<TrainRunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "train", "Train a network: self-play child + trainer on this machine, in a run directory (resumable)");
  cmd->add_option("--config", a->config, "Config file (configs/*.yaml); optional when RUN/config.yaml exists");
  cmd->add_option("--set", a->overrides,
                  "Config override key=value (repeatable; this session and its self-play child only, RUN/config.yaml "
                  "is not changed)");
  cmd->add_option("--run-dir", a->run_dir, "Run directory (models/, games/, checkpoints/, metrics/)")->required();
  cmd->add_flag("--resume", a->resume, "Resume from the newest checkpoint (the default when one exists)");
  auto* steps = cmd->add_option("--steps", a->steps, "Stop when the step counter reaches N (total, not this session)");
  cmd->add_option("--hours", a->hours, "Stop after H hours (this session)")->excludes(steps);
  cmd->add_option("--cpu-hours", a->cpu_hours,
                  "Stop when the run's training CPU time (trainer + local self-play, all sessions) reaches H hours");
  cmd->add_flag("--trainer-only", a->trainer_only, "Do not start local self-play (other workers write games/)");
  cmd->add_option("--selfplay-threads", a->selfplay_threads, "Threads of the local self-play child (overrides config)");
  cmd->add_option("--init-from", a->init_from,
                  "Warm start: a new run starts from this model file's weights (same architecture as training.model)");
  cmd->add_option("--resume-from", a->resume_from,
                  "Continue a lineage in a new --run-dir: a checkpoint file (weights, optimizer, step and the run's "
                  "config); self-play refills the replay window");
  set_command(cmd, rc, [a] {
    std::string err;
    return exit_code(run_training(*a, install_stop_signals(), &err), err);
  });
}

namespace {

// Positions of random games with a uniform policy target, so the bench needs no data on disk.
std::vector<ReplaySample> random_samples(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ReplaySample> out;
  while (int(out.size()) < n) {
    Position pos;
    std::string err;
    pos.set_fen(Position::START_FEN, Ruleset::JANGGI, &err);
    MoveList moves;
    for (int ply = 0; ply < 120 && int(out.size()) < n; ++ply) {
      generate_legal(pos, moves);
      if (moves.size == 0 || game_result(pos, moves.size).over()) break;
      ReplaySample s;
      s.pos = pos;
      s.full_search = true;
      for (Move m : moves) s.policy.push_back({m, 1.0f / float(moves.size)});
      s.result = float(int(rng() % 3) - 1);
      s.result_wdl[0] = s.result > 0, s.result_wdl[1] = s.result == 0, s.result_wdl[2] = s.result < 0;
      s.margin = int(rng() % 21) - 10;
      out.push_back(std::move(s));
      pos.do_move(moves[int(rng() % moves.size)]);
    }
  }
  return out;
}

}  // namespace

void add_bench_train(CLI::App& bench, int& rc) {
  struct Opts {
    std::string model = "6x64", device = "cpu", precision = "fp32", optimizer = "sgd";
    int batch = 128, steps = 10, threads = 1;
    double seconds = 0;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = bench.add_subcommand("train", "Trainer throughput: training steps per second on random positions");
  cmd->add_option("--model", o->model, "Network size BxF (4x32, 6x64, 10x128, ...)");
  cmd->add_option("--batch", o->batch, "Batch size");
  cmd->add_option("--steps", o->steps, "Timed steps (after 2 warm-up steps)");
  cmd->add_option("--seconds", o->seconds, "Time steps for this long instead of --steps");
  cmd->add_option("--threads", o->threads, "Torch intra-op threads");
  cmd->add_option("--device", o->device, "cpu | cuda | auto");
  cmd->add_option("--precision", o->precision, "fp32 | bf16");
  cmd->add_option("--optimizer", o->optimizer, "sgd | adamw");
  set_command(cmd, rc, [o] {
    TrainOptions t;
    t.model = o->model, t.device = o->device, t.precision = o->precision, t.optimizer = o->optimizer;
    t.batch_size = o->batch, t.threads = o->threads, t.warmup_steps = 0;
    ModelConfig mc;
    std::string err;
    if (!ModelConfig::parse(o->model, mc, &err)) return report_error(err);
    if (o->batch < 1 || o->steps < 1 || o->threads < 1)
      return report_error("--batch, --steps and --threads must be >= 1");
    if (o->seconds < 0) return report_error("--seconds must not be negative");
    if (o->precision != "fp32" && o->precision != "bf16") return report_error("--precision must be fp32 or bf16");
    if (o->optimizer != "sgd" && o->optimizer != "adamw") return report_error("--optimizer must be sgd or adamw");
    torch_init_threads();
    torch::set_num_threads(o->threads);
    Trainer trainer(t, mc);
    std::vector<ReplaySample> samples = random_samples(o->batch, 1);
    TrainBatch b;
    double t0 = now_seconds();
    std::vector<uint8_t> mirror(samples.size());
    for (size_t i = 0; i < mirror.size(); ++i) mirror[i] = uint8_t(i & 1);
    make_batch(samples, mirror, b);
    double make_s = now_seconds() - t0;
    for (int i = 0; i < 2; ++i) trainer.train_step(b);
    const torch::Device device = parse_device(o->device);
    synchronize_device(device);
    t0 = now_seconds();
    int steps = 0;
    for (; o->seconds > 0 ? now_seconds() - t0 < o->seconds : steps < o->steps; ++steps) trainer.train_step(b);
    synchronize_device(device);  // the last step's backward pass and update may still be queued on a GPU
    double s = (now_seconds() - t0) / steps;
    std::printf(
        "bench train: %s %s %s, batch %d, %d thread(s) on %s: %d steps, %.1f ms/step, %.0f samples/s "
        "(batch building %.2f ms per sample, not included)\n",
        mc.name().c_str(), o->precision.c_str(), o->optimizer.c_str(), o->batch, o->threads, o->device.c_str(), steps,
        s * 1e3, o->batch / s, make_s * 1e3 / o->batch);
    return 0;
  });
}

}  // namespace jz::app
