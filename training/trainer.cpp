#include "training/trainer.h"

#include <sstream>
#include <stdexcept>

#include "nn/checkpoint.h"
#include "nn/tensor_bundle.h"
#include "training/checkpoint_header.h"
#include "util/fileio.h"

namespace jz {

namespace {

NamedTensors model_tensors(JanggiNet& m) {
  NamedTensors out;
  for (auto& kv : m->named_parameters()) out.emplace_back(kv.key(), kv.value());
  for (auto& kv : m->named_buffers()) out.emplace_back(kv.key(), kv.value());
  return out;
}

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
  if (opts.swa_every > 0) {
    avg_ = JanggiNet(cfg);
    avg_->to(device_);
    avg_->eval();
  }
  make_optimizer();
}

Trainer::~Trainer() = default;

// avg = (avg * n + w) / (n + 1) with n capped at swa_max_n - 1: the plain mean of the first snapshots,
// then an exponential average with weight 1 / swa_max_n on the newest. Integer buffers (batch counts)
// are copied.
void Trainer::update_average() {
  torch::NoGradGuard ng;
  const int n = std::min(avg_n_, opts_.swa_max_n - 1);
  NamedTensors src = model_tensors(master_), dst = model_tensors(avg_);
  for (size_t i = 0; i < src.size(); ++i) {
    if (!dst[i].second.is_floating_point() || n == 0) dst[i].second.copy_(src[i].second);
    else dst[i].second.mul_(double(n) / (n + 1)).add_(src[i].second, 1.0 / (n + 1));
  }
  avg_n_ = n + 1;
}

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

void Trainer::load_weights(const std::string& path) {
  ModelInfo info = read_model_info(path);
  if (info.config.name() != cfg_.name() || info.config.describe() != cfg_.describe())
    throw std::runtime_error(path + ": a " + info.config.name() + " " + game_name(info.config.game) +
                             " network, but this run trains a " + cfg_.name() + " " + game_name(cfg_.game) + " one");
  load_model_into(path, master_);
  if (bf16_) sync_work_from_master();
}

void Trainer::sync_work_from_master() {
  torch::NoGradGuard ng;
  NamedTensors src = model_tensors(master_), dst = model_tensors(work_);
  for (size_t i = 0; i < src.size(); ++i) dst[i].second.copy_(src[i].second);
}

Losses Trainer::compute(JanggiNet& net, const TrainBatch& b, bool backward) {
  if (b.size > 0 && b.game != cfg_.game)
    throw std::runtime_error(std::string("a ") + game_name(b.game) + " batch for a " + game_name(cfg_.game) +
                             " network: the replay folders hold the other game's games");
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
  if (opts_.swa_every > 0 && step_ % opts_.swa_every == 0) update_average();
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
  CheckpointHeader ch;
  ch.config = cfg_;
  ch.optimizer = opts_.optimizer;
  ch.seed = opts_.seed;
  ch.step = step_;
  ch.samples = samples_;
  ch.optimizer_steps = opt_->steps();
  ch.extra = extra;
  HeaderKV h = make_checkpoint_header(ch);
  NamedTensors t;
  for (auto& nt : model_tensors(master_)) t.emplace_back("model." + nt.first, nt.second.detach().to(torch::kCPU));
  for (auto& nt : opt_->state()) t.emplace_back("opt." + nt.first, nt.second.detach().to(torch::kCPU));
  if (avg_n_ > 0) {  // optional records: older checkpoints have none and start a fresh average
    for (auto& nt : model_tensors(avg_)) t.emplace_back("swa." + nt.first, nt.second.detach().to(torch::kCPU));
    t.emplace_back("swa_n", torch::full({1}, int64_t(avg_n_), torch::kInt64));
  }
  save_tensor_bundle(path, h, t);
}

ModelConfig Trainer::checkpoint_model_config(const std::string& path) {
  std::string bytes, err;
  if (!read_file(path, bytes, &err)) throw std::runtime_error(path + ": cannot read: " + err);
  return jz::checkpoint_model_config(parse_bundle(bytes, path).header, path);
}

void Trainer::load_checkpoint(const std::string& path, std::vector<std::pair<std::string, std::string>>* extra) {
  std::string bytes, err;
  if (!read_file(path, bytes, &err)) throw std::runtime_error(path + ": cannot read: " + err);
  RawBundle raw = parse_bundle(bytes, path);  // verifies size, checksum and every record
  CheckpointHeader h = check_checkpoint_header(raw.header, path);
  if (h.config != cfg_)
    throw std::runtime_error(path + ": checkpoint is a " + h.config.name() + " " + game_name(h.config.game) +
                             " network, this run trains a " + cfg_.name() + " " + game_name(cfg_.game) + " one");
  if (h.optimizer != opts_.optimizer)
    throw std::runtime_error(path + ": checkpoint was trained with optimizer '" + printable(h.optimizer) +
                             "', the config says '" + opts_.optimizer + "'");
  TensorBundle b = to_tensor_bundle(raw);
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
    opt_->load_state(state, h.optimizer_steps);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  step_ = h.step;
  samples_ = h.samples;
  load_average(b, path);
  if (bf16_) sync_work_from_master();
  if (extra) *extra = h.extra;
}

// The weight average of a checkpoint, when it has one and this run averages (else it starts afresh).
void Trainer::load_average(const TensorBundle& b, const std::string& path) {
  avg_n_ = 0;
  const torch::Tensor* n = b.tensor("swa_n");
  if (!avg_ || !n) return;
  if (n->numel() != 1 || n->scalar_type() != torch::kInt64 || n->item<int64_t>() < 1)
    throw std::runtime_error(path + ": bad weight-average count");
  torch::NoGradGuard ng;
  for (auto& nt : model_tensors(avg_)) {
    const torch::Tensor* src = b.tensor("swa." + nt.first);
    if (!src || src->sizes() != nt.second.sizes() || src->scalar_type() != nt.second.scalar_type())
      throw std::runtime_error(path + ": weight-average tensor '" + nt.first + "' missing or of the wrong shape");
    nt.second.copy_(*src);
  }
  avg_n_ = int(std::min<int64_t>(n->item<int64_t>(), opts_.swa_max_n));
}

void Trainer::export_model(const std::string& path, const std::string& metadata) {
  save_model(path, exported_model(), step_, metadata);
}

}  // namespace jz
