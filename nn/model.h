// The network: a residual tower with KataGo-style global pooling blocks, a policy head gathered
// per move from per-square displacement planes, WDL value, material margin and opponent-reply heads.
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

#include "nn/encoding.h"
#include "nn/model_config.h"
#include "nn/policy_map.h"

namespace jz {

// The margin head predicts (final material margin) / MARGIN_SCALE (side to move minus opponent,
// without Han's bonus); Evaluation::margin is scaled back.
constexpr float MARGIN_SCALE = 20.0f;

struct ModelOutput {
  torch::Tensor policy;      // [N, policy_map(game).size()] logits, side to move's view
  torch::Tensor wdl;         // [N, 3] logits: win, draw, loss for the side to move
  torch::Tensor margin;      // [N] final material margin / MARGIN_SCALE
  torch::Tensor opp_policy;  // [N, same] logits of the opponent's reply in the opponent's view
                             // (map.index(reply, opponent)); undefined unless aux = true
};

// Convolution followed by batch norm; can fold the norm into the convolution for inference.
class ConvBNImpl : public torch::nn::Module {
 public:
  ConvBNImpl(int in, int out, int kernel);
  torch::Tensor forward(const torch::Tensor& x);
  void fuse();
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};

 private:
  bool fused_ = false;
  torch::Tensor fused_weight_, fused_bias_;
  int padding_;
};
TORCH_MODULE(ConvBN);

class ResBlockImpl : public torch::nn::Module {
 public:
  ResBlockImpl(int filters, bool global_pool);
  torch::Tensor forward(const torch::Tensor& x);
  ConvBN conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear pool_bias{nullptr};  // only with global pooling
};
TORCH_MODULE(ResBlock);

class JanggiNetImpl : public torch::nn::Module {
 public:
  explicit JanggiNetImpl(const ModelConfig& cfg);
  // x: [N, NUM_PLANES, 10, 9] (any float dtype the weights have). aux = also the opponent policy.
  ModelOutput forward(const torch::Tensor& x, bool aux = true);
  const ModelConfig& config() const { return cfg_; }
  // Folds batch norms into convolutions (inference only; a fused model cannot be saved or trained).
  void fuse_batchnorm();
  bool fused() const { return fused_; }
  // Module::to also moves the (integer) policy gather index.
  void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Device device, bool non_blocking = false) override;

 private:
  ModelConfig cfg_;
  bool fused_ = false;
  int displacements_ = 0;
  int pairs_ = 0;  // the game's (from, to) pairs; Janggi adds a pass output
  ConvBN input_conv{nullptr};
  torch::nn::ModuleList tower{nullptr};
  ConvBN policy_conv{nullptr};
  torch::nn::Linear policy_pool_bias{nullptr};
  torch::nn::Conv2d policy_out{nullptr};  // 2 * displacements_ planes: policy, opponent policy
  torch::nn::Linear pass_out{nullptr};    // pass logits (policy, opponent policy) from pooled features; Janggi only
  ConvBN value_conv{nullptr};
  torch::nn::Linear value_fc{nullptr}, wdl_out{nullptr}, margin_out{nullptr};
  torch::Tensor gather_index_;  // [2 * pairs_]: from * planes + plane, policy then opponent's
};
TORCH_MODULE(JanggiNet);

// Sets LibTorch to one intra-op and one inter-op thread (once; parallelism comes from our threads).
void torch_init_threads();
// Parameter count.
int64_t parameter_count(JanggiNet& model);
// "cpu", "cuda", "cuda:1" or "auto" (cuda if available). Throws std::runtime_error if unknown or
// not available.
torch::Device parse_device(const std::string& name);

}  // namespace jz
