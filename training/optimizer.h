// The optimizers, written out (SGD with Nesterov momentum, AdamW) so that their state is a plain
// list of named tensors: checkpoints hold it exactly and independently of the LibTorch version.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jz {

struct OptimizerSettings {
  std::string kind = "sgd";  // sgd | adamw
  double momentum = 0.9;
  bool nesterov = true;
  double weight_decay = 1e-4;  // L2 for SGD (added to the gradient), decoupled for AdamW
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
};

class Optimizer {
 public:
  // params: (name, tensor) in a fixed order.
  Optimizer(std::vector<std::pair<std::string, torch::Tensor>> params, const OptimizerSettings& s);
  // Parameters without a gradient are skipped.
  void step(double lr);
  void zero_grad();
  int64_t steps() const { return t_; }
  // State tensors named "<param>.<slot>" (slots: momentum | exp_avg, exp_avg_sq), plus steps().
  std::vector<std::pair<std::string, torch::Tensor>> state() const;
  // Restores from state() output; throws std::runtime_error naming what is missing or misshapen.
  void load_state(const std::vector<std::pair<std::string, torch::Tensor>>& state, int64_t steps);

 private:
  std::vector<std::pair<std::string, torch::Tensor>> params_;
  OptimizerSettings s_;
  std::vector<torch::Tensor> m_, v_;  // momentum / exp_avg, exp_avg_sq
  int64_t t_ = 0;
};

}  // namespace jz
