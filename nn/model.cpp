#include "nn/model.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>

namespace jz {

namespace F = torch::nn::functional;

// ---- layers ----

ConvBNImpl::ConvBNImpl(int in, int out, int kernel) : padding_(kernel / 2) {
  conv = register_module("conv",
                         torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).padding(padding_).bias(false)));
  bn = register_module("bn", torch::nn::BatchNorm2d(out));
}

torch::Tensor ConvBNImpl::forward(const torch::Tensor& x) {
  if (fused_) return torch::conv2d(x, fused_weight_, fused_bias_, 1, padding_);
  return bn(conv(x));
}

void ConvBNImpl::fuse() {
  if (fused_) return;
  torch::NoGradGuard ng;
  auto scale = bn->weight / torch::sqrt(bn->running_var + bn->options.eps());
  auto w = conv->weight * scale.view({-1, 1, 1, 1});
  auto b = bn->bias - bn->running_mean * scale;
  fused_weight_ = register_buffer("fused_weight", w.detach().clone());
  fused_bias_ = register_buffer("fused_bias", b.detach().clone());
  fused_ = true;
}

ResBlockImpl::ResBlockImpl(int filters, bool global_pool) {
  conv1 = register_module("conv1", ConvBN(filters, filters, 3));
  conv2 = register_module("conv2", ConvBN(filters, filters, 3));
  if (global_pool) pool_bias = register_module("pool_bias", torch::nn::Linear(2 * filters, filters));
}

namespace {

// [N, C, H, W] -> [N, 2C]: channel means and maxima.
torch::Tensor global_pool(const torch::Tensor& x) { return torch::cat({x.mean({2, 3}), x.amax({2, 3})}, 1); }

}  // namespace

torch::Tensor ResBlockImpl::forward(const torch::Tensor& x) {
  auto y = torch::relu(conv1(x));
  if (!pool_bias.is_empty()) y = y + pool_bias(global_pool(y)).unsqueeze(-1).unsqueeze(-1);
  return torch::relu(x + conv2(y));
}

// ---- network ----

namespace {

// Displacements (rank delta, file delta) of a game's policy pairs, and per pair its displacement plane.
struct PolicyGeometry {
  int planes = 0;
  std::vector<int64_t> policy, opponent;  // from square * 2 * planes + plane, for the map's pairs
  explicit PolicyGeometry(const PolicyMap& map) {
    std::map<std::pair<int, int>, int> disp;
    std::vector<std::pair<int, int>> d(size_t(map.pairs()));
    for (int i = 0; i < map.pairs(); ++i) {
      Square a, b;
      map.squares(i, a, b);
      d[i] = {rank_of(b) - rank_of(a), file_of(b) - file_of(a)};
      disp[d[i]] = 0;
    }
    for (auto& kv : disp) kv.second = planes++;
    for (int i = 0; i < map.pairs(); ++i) {
      Square a, b;
      map.squares(i, a, b);
      policy.push_back(int64_t(a) * 2 * planes + disp[d[i]]);
      // The opponent's move seen from the side to move: the piece stands on flip(a) and moves by -d.
      auto nd = std::make_pair(-d[i].first, -d[i].second);
      opponent.push_back(int64_t(flip_square(a)) * 2 * planes + planes + disp.at(nd));
    }
  }
};

const PolicyGeometry& policy_geometry(GameKind game) {
  static const PolicyGeometry janggi(policy_map(GameKind::JANGGI)), xiangqi(policy_map(GameKind::XIANGQI));
  return game == GameKind::XIANGQI ? xiangqi : janggi;
}

}  // namespace

JanggiNetImpl::JanggiNetImpl(const ModelConfig& cfg) : cfg_(cfg) {
  if (cfg.blocks < 1 || cfg.filters < 1 || cfg.head_channels < 1 || cfg.value_hidden < 1 || cfg.global_pool_every < 0)
    throw std::invalid_argument("bad model config: " + cfg.describe());
  const PolicyGeometry& g = policy_geometry(cfg.game);
  displacements_ = g.planes;
  pairs_ = policy_map(cfg.game).pairs();
  const int f = cfg.filters, h = cfg.head_channels;
  input_conv = register_module("input", ConvBN(NUM_PLANES, f, 3));
  tower = register_module("tower", torch::nn::ModuleList());
  for (int i = 0; i < cfg.blocks; ++i) {
    bool gp = cfg.global_pool_every > 0 && (i + 1) % cfg.global_pool_every == 0;
    tower->push_back(ResBlock(f, gp));
  }
  policy_conv = register_module("policy_conv", ConvBN(f, h, 1));
  policy_pool_bias = register_module("policy_pool_bias", torch::nn::Linear(2 * h, h));
  policy_out = register_module("policy_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(h, 2 * displacements_, 1)));
  if (policy_map(cfg.game).pass_index() >= 0) pass_out = register_module("pass_out", torch::nn::Linear(2 * h, 2));
  value_conv = register_module("value_conv", ConvBN(f, h, 1));
  value_fc = register_module("value_fc", torch::nn::Linear(2 * h, cfg.value_hidden));
  wdl_out = register_module("wdl_out", torch::nn::Linear(cfg.value_hidden, 3));
  margin_out = register_module("margin_out", torch::nn::Linear(cfg.value_hidden, 1));
  std::vector<int64_t> idx = g.policy;
  idx.insert(idx.end(), g.opponent.begin(), g.opponent.end());
  gather_index_ = torch::tensor(idx, torch::kInt64);
}

ModelOutput JanggiNetImpl::forward(const torch::Tensor& input, bool aux) {
  const int64_t n = input.size(0);
  auto x = torch::relu(input_conv(input.reshape({n, NUM_PLANES, RANK_NB, FILE_NB})));
  for (auto& block : *tower) x = block->as<ResBlockImpl>()->forward(x);

  ModelOutput out;
  auto p = torch::relu(policy_conv(x));
  auto pooled = global_pool(p);
  p = torch::relu(p + policy_pool_bias(pooled).unsqueeze(-1).unsqueeze(-1));
  // The 1x1 output convolution as one matrix product in square-major layout: LibTorch's CPU
  // convolution is several times slower for this shape. planes: [n, 90 * 2 * displacements].
  const int64_t h = p.size(1);
  auto by_square = p.permute({0, 2, 3, 1}).reshape({n * BOARD_SIZE, h});  // free in channels-last
  auto planes = torch::addmm(policy_out->bias, by_square, policy_out->weight.reshape({-1, h}).t()).view({n, -1});
  const int64_t pairs = pairs_;
  if (aux) {
    auto both = planes.index_select(1, gather_index_);
    out.policy = both.narrow(1, 0, pairs);
    out.opp_policy = both.narrow(1, pairs, pairs);
  } else {
    out.policy = planes.index_select(1, gather_index_.narrow(0, 0, pairs));
  }
  if (!pass_out.is_empty()) {  // the pass logits come from pooled features, last of each policy
    auto pass = pass_out(pooled);  // [n, 2]
    out.policy = torch::cat({out.policy, pass.narrow(1, 0, 1)}, 1);
    if (aux) out.opp_policy = torch::cat({out.opp_policy, pass.narrow(1, 1, 1)}, 1);
  }
  auto v = torch::relu(value_conv(x));
  auto hidden = torch::relu(value_fc(global_pool(v)));
  out.wdl = wdl_out(hidden);
  out.margin = margin_out(hidden).view({n});
  return out;
}

void JanggiNetImpl::fuse_batchnorm() {
  if (fused_) return;
  input_conv->fuse();
  for (auto& block : *tower) {
    auto* b = block->as<ResBlockImpl>();
    b->conv1->fuse();
    b->conv2->fuse();
  }
  policy_conv->fuse();
  value_conv->fuse();
  fused_ = true;
}

void JanggiNetImpl::to(torch::Device device, torch::Dtype dtype, bool non_blocking) {
  torch::nn::Module::to(device, dtype, non_blocking);
  gather_index_ = gather_index_.to(device);
}

void JanggiNetImpl::to(torch::Dtype dtype, bool non_blocking) { torch::nn::Module::to(dtype, non_blocking); }

void JanggiNetImpl::to(torch::Device device, bool non_blocking) {
  torch::nn::Module::to(device, non_blocking);
  gather_index_ = gather_index_.to(device);
}

// ---- helpers ----

void torch_init_threads() {
  static std::once_flag once;
  std::call_once(once, [] {
    torch::set_num_threads(1);
    try {
      torch::set_num_interop_threads(1);
    } catch (const std::exception&) {
      // Already started by someone else: harmless, we never use inter-op parallelism.
    }
  });
}

int64_t parameter_count(JanggiNet& model) {
  int64_t n = 0;
  for (const auto& p : model->parameters()) n += p.numel();
  return n;
}

torch::Device parse_device(const std::string& name) {
  if (name == "auto") return torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  if (name == "cpu") return torch::Device(torch::kCPU);
  if (name == "cuda" || name.rfind("cuda:", 0) == 0) {
    if (!torch::cuda::is_available()) throw std::runtime_error("device '" + name + "': CUDA is not available");
    int index = 0;
    if (name.size() > 5) {
      try {
        index = std::stoi(name.substr(5));
      } catch (const std::exception&) {
        throw std::runtime_error("bad device '" + name + "'");
      }
    }
    if (index < 0 || index >= int(torch::cuda::device_count()))
      throw std::runtime_error("device '" + name + "': no such CUDA device");
    return torch::Device(torch::kCUDA, int8_t(index));
  }
  throw std::runtime_error("unknown device '" + name + "' (expected cpu, cuda, cuda:N or auto)");
}

}  // namespace jz
