// Trainer options (config keys training.*), the learning-rate schedule and the replay window rule.
// One config file configures self-play (selfplay.*, search.*, network.*) and training.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "util/config.h"

namespace jz {

struct TrainOptions {
  std::string model = "6x64";      // architecture of a new run (ModelConfig::parse)
  std::string device = "cpu";      // cpu | cuda | cuda:N | auto
  std::string precision = "fp32";  // fp32 | bf16 (fp32 master weights, bf16 forward/backward)
  int threads = 1;                 // torch intra-op threads of the trainer
  int batch_size = 256;
  uint64_t seed = 1;  // batch k is drawn from an RNG seeded by (seed, k)

  // Optimizer: SGD with (Nesterov) momentum, or AdamW (decoupled weight decay).
  std::string optimizer = "sgd";
  double lr = 0.02;
  double momentum = 0.9;
  bool nesterov = true;
  double weight_decay = 1e-4;
  // Schedule: linear warmup, then constant | step (x lr_decay at each of lr_steps) | cosine (to
  // lr * lr_min_factor at total_steps).
  std::string lr_schedule = "step";
  int64_t warmup_steps = 200;
  std::vector<double> lr_steps;
  double lr_decay = 0.1;
  int64_t total_steps = 100000;
  double lr_min_factor = 0.01;

  // Loss weights.
  double policy_weight = 1.0;
  double value_weight = 1.0;
  double value_q_weight = 0.0;      // value target = (1 - a) * game result + a * root search WDL
  double margin_weight = 0.05;      // small: material margin is a noisy auxiliary target
  double opp_policy_weight = 0.15;  // KataGo's opponent-reply policy
  bool mirror = true;               // left-right mirror augmentation, probability 1/2 per sample

  // Replay window over positions seen N (KataGo's shaping): all data while N <= window_min, else
  // window_min * (1 + beta * ((N / window_min)^alpha - 1) / alpha), capped at window_max.
  int64_t window_min = 20000;
  double window_alpha = 0.75;
  double window_beta = 0.4;
  int64_t window_max = 1000000;

  // Steady state: at most this many training samples per self-play position (0 = no limit), and
  // no training before min_positions positions exist.
  double samples_per_position = 4.0;
  int64_t min_positions = 5000;

  // Extra data (teacher games, imported records): a replay folder (searched recursively) mixed into
  // every batch. Its share of a batch goes linearly from extra_share to extra_share_final over the
  // first extra_decay_steps steps of the run, while self-play data grows; the samples-per-position
  // limit and min_positions count self-play samples only (a batch with no self-play share never
  // waits). Value targets of extra samples blend the game result with the stored evaluation (a
  // teacher's) by extra_value_q_weight.
  std::string extra_data;
  double extra_share = 0.5;
  double extra_share_final = 0.0;
  int64_t extra_decay_steps = 10000;
  double extra_value_q_weight = 0.5;
  int64_t extra_window = 20000000;  // positions: the newest extra chunks up to this many
  // Draw extra samples from searched plies only: teacher labels on self-play games (teach
  // --relabel-from) label a few plies per game and leave the rest without a target.
  bool extra_full_only = false;

  // Weight averaging (lc0's SWA, KataGo's averaged exports): every swa_every steps the weights and
  // batch-norm statistics join a running mean over the last snapshots (at most swa_max_n: an exponential
  // average once full); exported networks are that mean, which smooths SGD's noise at a high learning
  // rate. 0 = off: exports are the trained weights.
  int64_t swa_every = 0;
  int swa_max_n = 8;

  int64_t checkpoint_every = 500;  // steps
  int keep_checkpoints = 3;
  int64_t export_every = 500;   // steps between networks exported for self-play
  int64_t log_every = 20;       // steps between rows of metrics/train.csv
  double refresh_seconds = 15;  // replay directory rescans
  int selfplay_threads = 1;     // threads of the local self-play child (0 = no child)

  // Scheduled evaluation (config keys evaluation.*): with opponents, `train` starts a
  // `janggi-zero gauntlet --watch` child that rates every eval_every-th exported network.
  std::string eval_opponents;  // player specs separated by ';' (empty: no evaluator)
  int eval_games = 20;
  std::string eval_net = "sims=64";  // the rated network's search (sims=N or movetime=MS)
  int64_t eval_every = 1000;         // steps
  int eval_concurrency = 1;
  int eval_max_plies = 600;  // the referee's length cap (decided by counting)
};

// Reads training.* keys (missing keys keep their defaults). False with a one-line reason.
bool load_train_options(const Config& cfg, TrainOptions& out, std::string* error);

// Learning rate at a step (0-based: the step about to be taken).
double learning_rate_at(const TrainOptions& o, int64_t step);

// Extra-data samples in the batch of a step (0 without extra data), and the self-play samples of
// all steps before `step` (what the samples-per-position limit counts).
int extra_samples_at(const TrainOptions& o, int64_t step);
int64_t selfplay_samples_before(const TrainOptions& o, int64_t step);

// Replay window (positions) after `positions_seen` positions have been generated.
int64_t replay_window(const TrainOptions& o, int64_t positions_seen);

}  // namespace jz
