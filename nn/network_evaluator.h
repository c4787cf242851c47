// Runs a JanggiNet on a batch: encode -> forward -> masked softmax over the legal moves.
#pragma once
#include <memory>
#include <string>

#include "nn/evaluator.h"
#include "nn/model.h"

namespace jz {

struct NetworkOptions {
  std::string device = "auto";     // cpu | cuda | cuda:N | auto (cuda if available)
  std::string precision = "fp32";  // auto | fp32 | bf16 | fp16 (model and input are cast; auto = bf16 on CUDA
                                   // and on CPUs with AVX512-BF16, else fp32)
  bool fuse = true;                // fold batch norms into convolutions
  int max_batch = 256;             // larger requests are split
};

// The batch size a request of n positions runs at: n rounded up to a multiple of 1/8 of its largest power of
// two (n <= 16 exact, under 12.5% padding), capped at max_batch: 48 shapes cover 1..256. oneDNN builds and
// keeps convolution kernels per input shape, about 1.4 MiB each for a 4x32 network; with every batch size the
// batching evaluator produces, self-play's RSS kept growing as new sizes turned up (measured: +245 MiB once
// all of 1..256 had been seen, against +68 MiB with these sizes; janggi-zero soak found it).
int padded_batch_size(int n, int max_batch);

class NetworkEvaluator : public Evaluator {
 public:
  // Takes a copy of the model's weights (the caller's model is left untouched).
  NetworkEvaluator(JanggiNet model, const NetworkOptions& opts, std::string id);
  // Loads a model file; id = file name without folders, plus '@' and 8 hex digits of its hash.
  static std::unique_ptr<NetworkEvaluator> from_file(const std::string& path, const NetworkOptions& opts);

  void evaluate(const EvalInput* in, int n, Evaluation* out) override;
  std::string id() const override { return id_; }
  int preferred_batch() const override { return preferred_batch_; }
  void set_preferred_batch(int n) { preferred_batch_ = n; }
  RuleOptions rule_options() const override { return rule_options_; }
  void set_rule_options(RuleOptions o) { rule_options_ = o; }
  GameKind game() const override { return model_->config().game; }

  // Forward pass on already encoded input (n * INPUT_SIZE floats). Outputs on the CPU in fp32:
  // policy logits [n, policy_map(game()).size()], wdl probabilities [n, 3], margin (final margin, unscaled) [n].
  void forward_raw(const float* input, int n, torch::Tensor& policy, torch::Tensor& wdl, torch::Tensor& margin);
  const ModelConfig& config() const { return model_->config(); }
  torch::Device device() const { return device_; }
  torch::ScalarType dtype() const { return dtype_; }

 private:
  JanggiNet model_{nullptr};
  torch::Device device_{torch::kCPU};
  torch::ScalarType dtype_ = torch::kFloat32;
  std::string id_;
  RuleOptions rule_options_;
  int max_batch_;
  int preferred_batch_ = 32;
};

}  // namespace jz
