#include "training/optimizer.h"

#include <cmath>
#include <stdexcept>

namespace jz {

Optimizer::Optimizer(std::vector<std::pair<std::string, torch::Tensor>> params, const OptimizerSettings& s)
    : params_(std::move(params)), s_(s) {
  for (auto& [name, p] : params_) {
    m_.push_back(torch::zeros_like(p));
    v_.push_back(s_.kind == "adamw" ? torch::zeros_like(p) : torch::Tensor());
  }
}

void Optimizer::zero_grad() {
  for (auto& [name, p] : params_)
    if (p.grad().defined()) p.mutable_grad().zero_();
}

void Optimizer::step(double lr) {
  torch::NoGradGuard ng;
  ++t_;
  const bool adam = s_.kind == "adamw";
  const double bc1 = 1 - std::pow(s_.beta1, double(t_)), bc2 = 1 - std::pow(s_.beta2, double(t_));
  for (size_t i = 0; i < params_.size(); ++i) {
    torch::Tensor& p = params_[i].second;
    if (!p.grad().defined()) continue;
    torch::Tensor g = p.grad();
    if (adam) {
      if (s_.weight_decay > 0) p.mul_(1 - lr * s_.weight_decay);
      m_[i].mul_(s_.beta1).add_(g, 1 - s_.beta1);
      v_[i].mul_(s_.beta2).addcmul_(g, g, 1 - s_.beta2);
      auto denom = (v_[i] / bc2).sqrt_().add_(s_.eps);
      p.addcdiv_(m_[i], denom, -lr / bc1);
    } else {
      if (s_.weight_decay > 0) g = g + s_.weight_decay * p;
      if (s_.momentum > 0) {
        m_[i].mul_(s_.momentum).add_(g);
        g = s_.nesterov ? g + s_.momentum * m_[i] : m_[i];
      }
      p.add_(g, -lr);
    }
  }
}

std::vector<std::pair<std::string, torch::Tensor>> Optimizer::state() const {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  const bool adam = s_.kind == "adamw";
  for (size_t i = 0; i < params_.size(); ++i) {
    out.emplace_back(params_[i].first + (adam ? ".exp_avg" : ".momentum"), m_[i]);
    if (adam) out.emplace_back(params_[i].first + ".exp_avg_sq", v_[i]);
  }
  return out;
}

void Optimizer::load_state(const std::vector<std::pair<std::string, torch::Tensor>>& state, int64_t steps) {
  auto find = [&](const std::string& name, const torch::Tensor& like) {
    for (auto& kv : state)
      if (kv.first == name) {
        if (kv.second.sizes() != like.sizes())
          throw std::runtime_error("optimizer state '" + name + "' has the wrong shape");
        return kv.second;
      }
    throw std::runtime_error("optimizer state '" + name + "' is missing");
  };
  const bool adam = s_.kind == "adamw";
  torch::NoGradGuard ng;
  for (size_t i = 0; i < params_.size(); ++i) {
    m_[i].copy_(find(params_[i].first + (adam ? ".exp_avg" : ".momentum"), m_[i]));
    if (adam) v_[i].copy_(find(params_[i].first + ".exp_avg_sq", v_[i]));
  }
  if (steps < 0) throw std::runtime_error("negative optimizer step count");
  t_ = steps;
}

}  // namespace jz
