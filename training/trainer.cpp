#include "training/trainer.h"

#include <sstream>
#include <stdexcept>

#include "nn/checkpoint.h"
#include "nn/tensor_bundle.h"

namespace jz {

namespace {

NamedTensors model_tensors(JanggiNet& m) {
  NamedTensors out;
  for (auto& kv : m->named_parameters()) out.emplace_back(kv.key(), kv.value());
  for (auto& kv : m->named_buffers()) out.emplace_back(kv.key(), kv.value());
  return out;
}

int64_t header_int(const TensorBundle& b, const std::string& key, const std::string& path) {
  return bundle_header_int(b, key, path, "trainer checkpoint");
}

ModelConfig header_model(const TensorBundle& b, const std::string& path) {
  const std::string* kind = b.find("kind");
  if (!kind || *kind != CHECKPOINT_KIND)
    throw std::runtime_error(path + ": not a trainer checkpoint (kind is not '" + CHECKPOINT_KIND + "')");
  int64_t v = header_int(b, "checkpoint_version", path);
  if (v != CHECKPOINT_VERSION)
    throw std::runtime_error(path + ": unsupported checkpoint version " + std::to_string(v));
  if (header_int(b, "encoding_version", path) != ENCODING_VERSION || header_int(b, "policy_size", path) != POLICY_SIZE)
    throw std::runtime_error(path + ": made for another input encoding or policy size");
  ModelConfig c;
  c.blocks = int(header_int(b, "blocks", path));
  c.filters = int(header_int(b, "filters", path));
  c.global_pool_every = int(header_int(b, "global_pool_every", path));
  c.head_channels = int(header_int(b, "head_channels", path));
  c.value_hidden = int(header_int(b, "value_hidden", path));
  return c;
}

const char* const RESERVED_KEYS[] = {"kind", "checkpoint_version", "encoding_version", "policy_size", "blocks", "filters",
                                     "global_pool_every", "head_channels", "value_hidden", "step", "samples",
                                     "optimizer", "seed", "optimizer_steps"};

}  // namespace

Trainer::Trainer(const TrainOptions& opts, const ModelConfig& cfg) : opts_(opts), cfg_(cfg) {
  device_ = parse_device(opts.device);
  bf16_ = opts.precision == "bf16";
  torch::manual_seed(opts.seed);
  master_ = JanggiNet(cfg);
  master_->to(device_);
  master_->train();
  if (bf16_) {
    work_ = JanggiNet(cfg);
    work_->to(device_, torch::kBFloat16);
  } else {
    work_ = master_;
  }
  make_optimizer();
}

Trainer::~Trainer() = default;

void Trainer::make_optimizer() {
  OptimizerSettings s;
  s.kind = opts_.optimizer;
  s.momentum = opts_.momentum;
  s.nesterov = opts_.nesterov;
  s.weight_decay = opts_.weight_decay;
  std::vector<std::pair<std::string, torch::Tensor>> params;
  for (auto& kv : master_->named_parameters()) params.emplace_back(kv.key(), kv.value());
  opt_ = std::make_unique<Optimizer>(params, s);
}

double Trainer::current_lr() const { return learning_rate_at(opts_, step_); }

void Trainer::sync_work_from_master() {
  torch::NoGradGuard ng;
  NamedTensors src = model_tensors(master_), dst = model_tensors(work_);
  for (size_t i = 0; i < src.size(); ++i) dst[i].second.copy_(src[i].second);
}

Losses Trainer::compute(JanggiNet& net, const TrainBatch& b, bool backward) {
  const auto dt = bf16_ ? torch::kBFloat16 : torch::kFloat32;
  const auto f32 = torch::kFloat32;
  ModelOutput out = net->forward(b.input.to(device_, dt), true);
  auto legal = b.legal.to(device_);
  // Illegal moves are masked as at inference; a finite fill keeps 0 * logp = 0 for them.
  auto logp = torch::log_softmax(out.policy.to(f32).masked_fill(legal.logical_not(), -1e9), 1);
  auto pt = b.policy.to(device_), pw = b.policy_weight.to(device_);
  auto npol = pw.sum().clamp_min(1);
  auto policy = ((-(pt * logp).sum(1)) * pw).sum() / npol;
  auto value = (-(b.wdl.to(device_) * torch::log_softmax(out.wdl.to(f32), 1)).sum(1)).mean();
  auto margin = torch::smooth_l1_loss(out.margin.to(f32), b.margin.to(device_));
  auto ot = b.opp_policy.to(device_), ow = b.opp_weight.to(device_);
  auto opp = ((-(ot * torch::log_softmax(out.opp_policy.to(f32), 1)).sum(1)) * ow).sum() / ow.sum().clamp_min(1);
  auto total = opts_.policy_weight * policy + opts_.value_weight * value + opts_.margin_weight * margin +
               opts_.opp_policy_weight * opp;
  if (backward) total.backward();

  Losses l;
  torch::NoGradGuard ng;
  auto ent = (-(logp.exp() * logp).sum(1) * pw).sum() / npol;
  auto tent = (-(pt * torch::log(pt.clamp_min(1e-12))).sum(1) * pw).sum() / npol;
  auto all = torch::stack({total, policy, value, margin, opp, ent, tent}).to(torch::kCPU, torch::kFloat64);
  const double* v = all.data_ptr<double>();
  l.total = v[0];
  l.policy = v[1];
  l.value = v[2];
  l.margin = v[3];
  l.opp_policy = v[4];
  l.policy_entropy = v[5];
  l.target_entropy = v[6];
  l.samples = b.size;
  return l;
}

Losses Trainer::train_step(const TrainBatch& b) {
  if (bf16_) sync_work_from_master();
  opt_->zero_grad();
  if (bf16_) work_->zero_grad();
  work_->train();
  Losses l = compute(work_, b, true);
  if (bf16_) {  // bf16 gradients -> fp32 master; batch-norm statistics back to the master
    torch::NoGradGuard ng;
    auto mp = master_->parameters(), wp = work_->parameters();
    for (size_t i = 0; i < mp.size(); ++i)
      if (wp[i].grad().defined()) mp[i].mutable_grad() = wp[i].grad().to(torch::kFloat32);
    auto mb = master_->buffers(), wb = work_->buffers();
    for (size_t i = 0; i < mb.size(); ++i) mb[i].copy_(wb[i]);
  }
  opt_->step(current_lr());
  ++step_;
  samples_ += b.size;
  return l;
}

Losses Trainer::evaluate(const TrainBatch& b) {
  if (bf16_) sync_work_from_master();
  work_->eval();
  Losses l;
  {
    torch::NoGradGuard ng;
    l = compute(work_, b, false);
  }
  work_->train();
  return l;
}

void Trainer::save_checkpoint(const std::string& path, const std::vector<std::pair<std::string, std::string>>& extra) {
  HeaderKV h = {{"kind", CHECKPOINT_KIND},
                {"checkpoint_version", std::to_string(CHECKPOINT_VERSION)},
                {"encoding_version", std::to_string(ENCODING_VERSION)},
                {"policy_size", std::to_string(POLICY_SIZE)},
                {"blocks", std::to_string(cfg_.blocks)},
                {"filters", std::to_string(cfg_.filters)},
                {"global_pool_every", std::to_string(cfg_.global_pool_every)},
                {"head_channels", std::to_string(cfg_.head_channels)},
                {"value_hidden", std::to_string(cfg_.value_hidden)},
                {"step", std::to_string(step_)},
                {"samples", std::to_string(samples_)},
                {"optimizer", opts_.optimizer},
                {"seed", std::to_string(opts_.seed)}};
  for (auto& kv : extra) {
    for (const char* r : RESERVED_KEYS)
      if (kv.first == r) throw std::logic_error("reserved checkpoint key " + kv.first);
    h.push_back(kv);
  }
  NamedTensors t;
  for (auto& nt : model_tensors(master_)) t.emplace_back("model." + nt.first, nt.second.detach().to(torch::kCPU));
  for (auto& nt : opt_->state()) t.emplace_back("opt." + nt.first, nt.second.detach().to(torch::kCPU));
  h.push_back({"optimizer_steps", std::to_string(opt_->steps())});
  save_tensor_bundle(path, h, t);
}

ModelConfig Trainer::checkpoint_model_config(const std::string& path) {
  return header_model(load_tensor_bundle(path), path);
}

void Trainer::load_checkpoint(const std::string& path, std::vector<std::pair<std::string, std::string>>* extra) {
  TensorBundle b = load_tensor_bundle(path);  // verifies size and checksum
  ModelConfig c = header_model(b, path);
  if (c != cfg_)
    throw std::runtime_error(path + ": checkpoint is a " + c.name() + " network, this run trains " + cfg_.name());
  const std::string* optname = b.find("optimizer");
  if (!optname || *optname != opts_.optimizer)
    throw std::runtime_error(path + ": checkpoint was trained with optimizer '" + (optname ? *optname : "?") +
                             "', the config says '" + opts_.optimizer + "'");
  int64_t step = header_int(b, "step", path), samples = header_int(b, "samples", path);
  if (step < 0 || samples < 0) throw std::runtime_error(path + ": negative step or sample count");
  NamedTensors dst = model_tensors(master_);
  size_t model_count = 0;
  for (auto& nt : b.tensors) model_count += nt.first.rfind("model.", 0) == 0;
  if (model_count != dst.size())
    throw std::runtime_error(path + ": checkpoint has " + std::to_string(model_count) + " model tensors, expected " +
                             std::to_string(dst.size()));
  {
    torch::NoGradGuard ng;
    for (auto& nt : dst) {
      const torch::Tensor* src = b.tensor("model." + nt.first);
      if (!src) throw std::runtime_error(path + ": missing model tensor '" + nt.first + "'");
      if (src->sizes() != nt.second.sizes() || src->scalar_type() != nt.second.scalar_type())
        throw std::runtime_error(path + ": model tensor '" + nt.first + "' has the wrong shape or type");
      nt.second.copy_(*src);
    }
  }
  make_optimizer();
  std::vector<std::pair<std::string, torch::Tensor>> state;
  for (auto& nt : b.tensors)
    if (nt.first.rfind("opt.", 0) == 0) state.emplace_back(nt.first.substr(4), nt.second);
  try {
    opt_->load_state(state, header_int(b, "optimizer_steps", path));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  step_ = step;
  samples_ = samples;
  if (bf16_) sync_work_from_master();
  if (extra) {
    extra->clear();
    for (auto& kv : b.header) {
      bool reserved = false;
      for (const char* r : RESERVED_KEYS) reserved |= kv.first == r;
      if (!reserved) extra->push_back(kv);
    }
  }
}

void Trainer::export_model(const std::string& path, const std::string& metadata) {
  save_model(path, master_, step_, metadata);
}

}  // namespace jz
