#include "nn/network_evaluator.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "nn/checkpoint.h"
#include "nn/policy_map.h"

namespace jz {
namespace {

// bf16 pays off on CUDA and on CPUs with native bf16 dot products (AVX512-BF16: ~2x fp32 on this
// project's EPYC); elsewhere LibTorch emulates it and fp32 is faster.
bool cpu_has_fast_bf16() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx512bf16");
#else
  return false;
#endif
}

torch::ScalarType parse_precision(const std::string& p, const torch::Device& device) {
  if (p == "auto") return device.is_cuda() || cpu_has_fast_bf16() ? torch::kBFloat16 : torch::kFloat32;
  if (p == "fp32") return torch::kFloat32;
  if (p == "bf16") return torch::kBFloat16;
  if (p == "fp16") return torch::kFloat16;
  throw std::runtime_error("unknown precision '" + p + "' (expected auto, fp32, bf16 or fp16)");
}

}  // namespace

int padded_batch_size(int n, int max_batch) {
  if (n <= 16) return std::min(n, std::max(1, max_batch));
  int pow2 = 1;
  while (pow2 <= n / 2) pow2 *= 2;
  int step = pow2 / 8;
  return std::min((n + step - 1) / step * step, std::max(n, max_batch));
}

NetworkEvaluator::NetworkEvaluator(JanggiNet model, const NetworkOptions& opts, std::string id)
    : id_(std::move(id)), max_batch_(std::max(1, opts.max_batch)) {
  torch_init_threads();
  device_ = parse_device(opts.device);
  dtype_ = parse_precision(opts.precision, device_);
  // Private copy: fusing and casting must not touch the caller's (maybe training) model.
  model_ = JanggiNet(model->config());
  {
    torch::NoGradGuard ng;
    auto src = model->named_parameters();
    for (auto& kv : model_->named_parameters()) kv.value().copy_(*src.find(kv.key()));
    auto srcb = model->named_buffers();
    for (auto& kv : model_->named_buffers()) kv.value().copy_(*srcb.find(kv.key()));
  }
  model_->eval();
  if (opts.fuse) model_->fuse_batchnorm();
  model_->to(device_, dtype_);
  // Channels-last convolutions run 20-30% faster on the CPU (oneDNN) and suit tensor cores.
  {
    torch::NoGradGuard ng;
    for (auto& t : model_->parameters())
      if (t.dim() == 4) t.set_data(t.contiguous(torch::MemoryFormat::ChannelsLast));
    for (auto& t : model_->buffers())
      if (t.dim() == 4) t.set_data(t.contiguous(torch::MemoryFormat::ChannelsLast));
  }
  // Fail now, not in the middle of a search, if this device / precision cannot run the model.
  try {
    std::vector<float> x(INPUT_SIZE, 0.0f);
    torch::Tensor p, w, m;
    forward_raw(x.data(), 1, p, w, m);
  } catch (const c10::Error& e) {
    throw std::runtime_error("precision " + opts.precision + " does not run on " + device_.str() + ": " +
                             e.what_without_backtrace());
  }
}

std::unique_ptr<NetworkEvaluator> NetworkEvaluator::from_file(const std::string& path, const NetworkOptions& opts) {
  torch_init_threads();
  ModelInfo info;
  JanggiNet model = load_model(path, &info);
  std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  char hex[16];
  std::snprintf(hex, sizeof(hex), "%08x", unsigned(info.hash >> 32));
  auto net = std::make_unique<NetworkEvaluator>(model, opts, base + "@" + hex);
  net->set_rule_options(info.rule_options);
  return net;
}

void NetworkEvaluator::forward_raw(const float* input, int n, torch::Tensor& policy, torch::Tensor& wdl,
                                   torch::Tensor& margin) {
  c10::InferenceMode guard;
  auto x = torch::from_blob(const_cast<float*>(input), {n, NUM_PLANES, RANK_NB, FILE_NB}, torch::kFloat32);
  x = x.to(device_, dtype_).contiguous(torch::MemoryFormat::ChannelsLast);
  ModelOutput out = model_->forward(x, false);
  policy = out.policy.to(torch::kCPU, torch::kFloat32).contiguous();
  wdl = torch::softmax(out.wdl.to(torch::kFloat32), 1).to(torch::kCPU).contiguous();
  margin = (out.margin.to(torch::kFloat32) * MARGIN_SCALE).to(torch::kCPU).contiguous();
}

void NetworkEvaluator::evaluate(const EvalInput* in, int n, Evaluation* out) {
  thread_local std::vector<float> buffer;
  thread_local std::vector<const Position*> positions;
  for (int start = 0; start < n; start += max_batch_) {
    int k = std::min(max_batch_, n - start);
    int padded = padded_batch_size(k, max_batch_);  // few distinct shapes: see padded_batch_size
    buffer.resize(size_t(padded) * INPUT_SIZE);
    positions.resize(k);
    for (int i = 0; i < k; ++i) positions[i] = in[start + i].pos;
    encode_batch(positions.data(), k, buffer.data());
    std::fill(buffer.begin() + ptrdiff_t(size_t(k) * INPUT_SIZE), buffer.end(), 0.0f);  // rows nobody reads
    torch::Tensor policy, wdl, margin;
    forward_raw(buffer.data(), padded, policy, wdl, margin);
    const float* pp = policy.data_ptr<float>();
    const int64_t stride = policy.size(1);
    const float* wp = wdl.data_ptr<float>();
    const float* mp = margin.data_ptr<float>();
    for (int i = 0; i < k; ++i) {
      const EvalInput& e = in[start + i];
      Evaluation& o = out[start + i];
      if (e.pos->game() != game())  // front-ends refuse such games first (network_accepts)
        throw std::invalid_argument("network " + id_ + " plays " + game_name(game()) + ", asked for a " +
                                    game_name(e.pos->game()) + " position");
      masked_policy(pp + size_t(i) * size_t(stride), *e.pos, *e.moves, o.policy);
      for (int j = 0; j < 3; ++j) o.wdl[j] = wp[i * 3 + j];
      o.margin = mp[i];
    }
  }
}

}  // namespace jz
