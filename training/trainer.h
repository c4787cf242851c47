// The optimizer side of training: a JanggiNet, its optimizer and the loss, one step at a time.
// Checkpoints hold everything a resumed run needs to take exactly the step it would have taken
// (weights, batch-norm statistics, optimizer state, step, weight average; batches are drawn from
// (seed, step)).
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>

#include "nn/model.h"
#include "training/batch.h"
#include "training/checkpoint_header.h"
#include "training/optimizer.h"
#include "training/train_options.h"

namespace jz {

struct TensorBundle;

struct Losses {
  double total = 0, policy = 0, value = 0, margin = 0, opp_policy = 0;
  double policy_entropy = 0;  // of the network's policy over the legal moves (rows with a target)
  double target_entropy = 0;  // of the search targets
  int samples = 0;
};

class Trainer {
 public:
  // A fresh network of cfg, initialised deterministically from opts.seed.
  Trainer(const TrainOptions& opts, const ModelConfig& cfg);
  ~Trainer();

  // One optimizer step on b at the current step's learning rate; returns the losses of the
  // forward pass (before the update) and advances step().
  Losses train_step(const TrainBatch& b);
  // Losses with frozen weights (batch norm in inference mode).
  Losses evaluate(const TrainBatch& b);

  int64_t step() const { return step_; }
  int64_t samples_trained() const { return samples_; }
  double current_lr() const;
  JanggiNet& model() { return master_; }
  // What export_model writes: the weight average (training.swa_every) once it holds a snapshot, else
  // the trained weights.
  JanggiNet& exported_model() { return avg_n_ > 0 ? avg_ : master_; }
  int averaged_snapshots() const { return avg_n_; }
  const ModelConfig& model_config() const { return cfg_; }
  torch::Device device() const { return device_; }

  // Saves / restores model, optimizer, step and counters. Extra header keys (e.g. positions
  // seen) round-trip through `extra`. load throws std::runtime_error("<path>: <problem>").
  void save_checkpoint(const std::string& path, const std::vector<std::pair<std::string, std::string>>& extra = {});
  void load_checkpoint(const std::string& path, std::vector<std::pair<std::string, std::string>>* extra = nullptr);
  // Warm start: the weights (and batch-norm statistics) of a model file; the optimizer state and
  // the step stay as they are. The file's architecture must be this trainer's. Throws
  // std::runtime_error naming the file.
  void load_weights(const std::string& model_path);
  // Exports the network (nn/checkpoint.h model file) tagged with the current step.
  void export_model(const std::string& path, const std::string& metadata = "");

  // Model config stored in a checkpoint, without loading it (throws like load_checkpoint).
  static ModelConfig checkpoint_model_config(const std::string& path);

 private:
  Losses compute(JanggiNet& net, const TrainBatch& b, bool backward);
  void make_optimizer();
  void sync_work_from_master();
  void update_average();
  void load_average(const TensorBundle& b, const std::string& path);

  TrainOptions opts_;
  ModelConfig cfg_;
  torch::Device device_{torch::kCPU};
  bool bf16_ = false;
  JanggiNet master_{nullptr};  // fp32 weights the optimizer updates
  JanggiNet work_{nullptr};    // bf16 copy for forward/backward (bf16 only; else == master_)
  JanggiNet avg_{nullptr};     // fp32 weight average (swa_every > 0)
  int avg_n_ = 0;              // snapshots in it, at most swa_max_n
  std::unique_ptr<Optimizer> opt_;
  int64_t step_ = 0, samples_ = 0;
};

}  // namespace jz
