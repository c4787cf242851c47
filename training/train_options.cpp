#include "training/train_options.h"

#include <algorithm>
#include <cmath>

#include "nn/model_config.h"

namespace jz {

namespace {

// The keys of each part of the options (throw ConfigError), in the order of TrainOptions.
void read_model_and_optimizer(const Config& c, const std::string& p, TrainOptions& o) {
  o.model = c.get_string(p + "model", o.model);
  o.device = c.get_string(p + "device", o.device);
  o.precision = c.get_string(p + "precision", o.precision);
  o.threads = int(c.get_int(p + "threads", o.threads));
  o.batch_size = int(c.get_int(p + "batch_size", o.batch_size));
  o.seed = uint64_t(c.get_int(p + "seed", (long long)o.seed));
  o.optimizer = c.get_string(p + "optimizer", o.optimizer);
  o.lr = c.get_double(p + "lr", o.lr);
  o.momentum = c.get_double(p + "momentum", o.momentum);
  o.nesterov = c.get_bool(p + "nesterov", o.nesterov);
  o.weight_decay = c.get_double(p + "weight_decay", o.weight_decay);
  o.lr_schedule = c.get_string(p + "lr_schedule", o.lr_schedule);
  o.warmup_steps = c.get_int(p + "warmup_steps", o.warmup_steps);
  o.lr_steps = c.get_doubles(p + "lr_steps", o.lr_steps);
  o.lr_decay = c.get_double(p + "lr_decay", o.lr_decay);
  o.total_steps = c.get_int(p + "total_steps", o.total_steps);
  o.lr_min_factor = c.get_double(p + "lr_min_factor", o.lr_min_factor);
}

void read_losses_and_data(const Config& c, const std::string& p, TrainOptions& o) {
  o.policy_weight = c.get_double(p + "policy_weight", o.policy_weight);
  o.value_weight = c.get_double(p + "value_weight", o.value_weight);
  o.value_q_weight = c.get_double(p + "value_q_weight", o.value_q_weight);
  o.margin_weight = c.get_double(p + "margin_weight", o.margin_weight);
  o.opp_policy_weight = c.get_double(p + "opp_policy_weight", o.opp_policy_weight);
  o.mirror = c.get_bool(p + "mirror", o.mirror);
  o.window_min = c.get_int(p + "window_min", o.window_min);
  o.window_alpha = c.get_double(p + "window_alpha", o.window_alpha);
  o.window_beta = c.get_double(p + "window_beta", o.window_beta);
  o.window_max = c.get_int(p + "window_max", o.window_max);
  o.samples_per_position = c.get_double(p + "samples_per_position", o.samples_per_position);
  o.min_positions = c.get_int(p + "min_positions", o.min_positions);
  o.extra_data = c.get_string(p + "extra_data", o.extra_data);
  o.extra_share = c.get_double(p + "extra_share", o.extra_share);
  o.extra_share_final = c.get_double(p + "extra_share_final", o.extra_share_final);
  o.extra_decay_steps = c.get_int(p + "extra_decay_steps", o.extra_decay_steps);
  o.extra_value_q_weight = c.get_double(p + "extra_value_q_weight", o.extra_value_q_weight);
  o.extra_window = c.get_int(p + "extra_window", o.extra_window);
  o.extra_full_only = c.get_bool(p + "extra_full_only", o.extra_full_only);
  o.swa_every = c.get_int(p + "swa_every", o.swa_every);
  o.swa_max_n = int(c.get_int(p + "swa_max_n", o.swa_max_n));
}

void read_run_and_evaluation(const Config& c, const std::string& p, TrainOptions& o) {
  o.checkpoint_every = c.get_int(p + "checkpoint_every", o.checkpoint_every);
  o.keep_checkpoints = int(c.get_int(p + "keep_checkpoints", o.keep_checkpoints));
  o.export_every = c.get_int(p + "export_every", o.export_every);
  o.log_every = c.get_int(p + "log_every", o.log_every);
  o.refresh_seconds = c.get_double(p + "refresh_seconds", o.refresh_seconds);
  o.selfplay_threads = int(c.get_int(p + "selfplay_threads", o.selfplay_threads));
  o.eval_opponents = c.get_string("evaluation.opponents", o.eval_opponents);
  o.eval_games = int(c.get_int("evaluation.games", o.eval_games));
  o.eval_net = c.get_string("evaluation.net", o.eval_net);
  o.eval_every = c.get_int("evaluation.every", o.eval_every);
  o.eval_concurrency = int(c.get_int("evaluation.concurrency", o.eval_concurrency));
  o.eval_max_plies = int(c.get_int("evaluation.max_plies", o.eval_max_plies));
}

// What is wrong with each part of the options, or "".
std::string model_and_optimizer_error(const TrainOptions& o) {
  ModelConfig mc;
  std::string why;
  if (!ModelConfig::parse(o.model, mc, &why)) return "training.model: " + why;
  if (o.precision != "fp32" && o.precision != "bf16") return "training.precision must be fp32 or bf16";
  if (o.threads < 1 || o.threads > 256) return "training.threads must be 1..256";
  if (o.batch_size < 1 || o.batch_size > 65536) return "training.batch_size must be 1..65536";
  if (o.optimizer != "sgd" && o.optimizer != "adamw") return "training.optimizer must be sgd or adamw";
  if (!(o.lr > 0)) return "training.lr must be > 0";
  if (!(o.momentum >= 0 && o.momentum < 1)) return "training.momentum must be in [0, 1)";
  if (o.nesterov && o.optimizer == "sgd" && !(o.momentum > 0)) return "training.nesterov needs momentum > 0";
  if (!(o.weight_decay >= 0)) return "training.weight_decay must be >= 0";
  if (o.lr_schedule != "constant" && o.lr_schedule != "step" && o.lr_schedule != "cosine")
    return "training.lr_schedule must be constant, step or cosine";
  if (o.warmup_steps < 0) return "training.warmup_steps must be >= 0";
  for (size_t i = 0; i < o.lr_steps.size(); ++i)
    if (!(o.lr_steps[i] > 0) || (i && !(o.lr_steps[i] > o.lr_steps[i - 1])))
      return "training.lr_steps must be increasing positive step numbers";
  if (!(o.lr_decay > 0 && o.lr_decay <= 1)) return "training.lr_decay must be in (0, 1]";
  if (o.total_steps < 1) return "training.total_steps must be >= 1";
  if (!(o.lr_min_factor >= 0 && o.lr_min_factor <= 1)) return "training.lr_min_factor must be in [0, 1]";
  return "";
}

std::string losses_and_data_error(const TrainOptions& o) {
  if (!(o.value_q_weight >= 0 && o.value_q_weight <= 1)) return "training.value_q_weight must be in [0, 1]";
  for (double w : {o.policy_weight, o.value_weight, o.margin_weight, o.opp_policy_weight})
    if (!(w >= 0)) return "training loss weights must be >= 0";
  if (o.window_min < 1 || o.window_max < o.window_min) return "training.window_min must be in 1..window_max";
  if (!(o.window_alpha > 0 && o.window_alpha <= 1)) return "training.window_alpha must be in (0, 1]";
  if (!(o.window_beta >= 0)) return "training.window_beta must be >= 0";
  if (!(o.samples_per_position >= 0)) return "training.samples_per_position must be >= 0";
  if (o.min_positions < 0) return "training.min_positions must be >= 0";
  for (double x : {o.extra_share, o.extra_share_final, o.extra_value_q_weight})
    if (!(x >= 0 && x <= 1))
      return "training.extra_share, extra_share_final and extra_value_q_weight must be in [0, 1]";
  if (o.extra_decay_steps < 0) return "training.extra_decay_steps must be >= 0";
  if (o.swa_every < 0) return "training.swa_every must be >= 0 (0 = no weight averaging)";
  if (o.swa_max_n < 1) return "training.swa_max_n must be >= 1";
  if (o.extra_window < 1) return "training.extra_window must be >= 1";
  return "";
}

std::string run_error(const TrainOptions& o) {
  if (o.checkpoint_every < 1 || o.export_every < 1 || o.log_every < 1)
    return "training.checkpoint_every / export_every / log_every must be >= 1";
  if (o.keep_checkpoints < 1) return "training.keep_checkpoints must be >= 1";
  if (o.eval_games < 1 || o.eval_every < 1 || o.eval_concurrency < 1 || o.eval_max_plies < 1)
    return "evaluation.games, .every, .concurrency and .max_plies must be >= 1";
  if (!(o.refresh_seconds > 0)) return "training.refresh_seconds must be > 0";
  if (o.selfplay_threads < 0 || o.selfplay_threads > 1024) return "training.selfplay_threads must be 0..1024";
  return "";
}

}  // namespace

bool load_train_options(const Config& c, TrainOptions& o, std::string* error) {
  const std::string p = "training.";
  try {
    read_model_and_optimizer(c, p, o);
    read_losses_and_data(c, p, o);
    read_run_and_evaluation(c, p, o);
  } catch (const ConfigError& e) {
    if (error) *error = e.what();
    return false;
  }
  std::string why = model_and_optimizer_error(o);
  if (why.empty()) why = losses_and_data_error(o);
  if (why.empty()) why = run_error(o);
  if (why.empty()) return true;
  if (error) *error = c.source() + ": " + why;
  return false;
}

double learning_rate_at(const TrainOptions& o, int64_t step) {
  double lr = o.lr;
  if (o.lr_schedule == "step") {
    for (double s : o.lr_steps)
      if (double(step) >= s) lr *= o.lr_decay;
  } else if (o.lr_schedule == "cosine") {
    double t = std::min(1.0, double(std::max<int64_t>(0, step - o.warmup_steps)) /
                                 double(std::max<int64_t>(1, o.total_steps - o.warmup_steps)));
    double lo = o.lr * o.lr_min_factor;
    lr = lo + (o.lr - lo) * 0.5 * (1 + std::cos(M_PI * t));
  }
  if (step < o.warmup_steps) lr *= double(step + 1) / double(o.warmup_steps + 1);
  return lr;
}

int extra_samples_at(const TrainOptions& o, int64_t step) {
  if (o.extra_data.empty()) return 0;
  double t = o.extra_decay_steps > 0 ? std::min(1.0, double(step) / double(o.extra_decay_steps)) : 1.0;
  double share = o.extra_share + (o.extra_share_final - o.extra_share) * t;
  return int(std::lround(share * o.batch_size));
}

int64_t selfplay_samples_before(const TrainOptions& o, int64_t step) {
  if (o.extra_data.empty()) return step * o.batch_size;
  int64_t n = 0;
  for (int64_t s = 0; s < step; ++s) n += o.batch_size - extra_samples_at(o, s);
  return n;
}

int64_t replay_window(const TrainOptions& o, int64_t n) {
  if (n <= o.window_min) return o.window_min;  // everything there is
  double c = double(o.window_min);
  double w = c * (1 + o.window_beta * (std::pow(double(n) / c, o.window_alpha) - 1) / o.window_alpha);
  return std::min<int64_t>(o.window_max, int64_t(w));
}

}  // namespace jz
