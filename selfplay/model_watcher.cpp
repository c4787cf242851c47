#include "selfplay/model_watcher.h"

#include <torch/torch.h>

#include <filesystem>

#include "nn/model.h"
#include "util/log.h"

namespace jz {

NetworkOptions network_options(const SelfPlayOptions& o) {
  NetworkOptions net;
  net.device = o.device;
  net.precision = o.precision;
  net.max_batch = o.eval_batch;
  return net;
}

BatchingOptions batching_options(const SelfPlayOptions& o) {
  BatchingOptions b;
  b.max_batch = o.eval_batch;
  b.max_wait_us = o.eval_wait_us;
  b.server_threads = o.eval_servers;
  b.cache_entries = size_t(o.eval_cache);
  return b;
}

ModelWatcher::ModelWatcher(std::string dir, const NetworkOptions& net, const BatchingOptions& batching, GameKind game)
    : dir_(std::move(dir)), net_(net), batching_(batching), game_(game) {}

std::string ModelWatcher::newest_model(const std::string& dir, std::string* stamp) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string best;
  fs::file_time_type best_time{};
  uintmax_t best_size = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (!it->is_regular_file(e2)) continue;
    std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.' || name.size() < 4 || name.compare(name.size() - 4, 4, ".jzn") != 0) continue;
    auto t = it->last_write_time(e2);
    if (e2) continue;
    std::string path = it->path().string();
    if (best.empty() || t > best_time || (t == best_time && path > best)) {
      best = path;
      best_time = t;
      best_size = it->file_size(e2);
    }
  }
  if (stamp)
    *stamp = best.empty()
                 ? ""
                 : best + "|" + std::to_string(best_time.time_since_epoch().count()) + "|" + std::to_string(best_size);
  return best;
}

std::shared_ptr<BatchingEvaluator> ModelWatcher::poll() {
  std::string stamp;
  std::string path = newest_model(dir_, &stamp);
  if (path.empty() || stamp == current_stamp_ || failed_.count(stamp)) return nullptr;
  try {
    std::shared_ptr<Evaluator> net = NetworkEvaluator::from_file(path, net_);
    if (net->game() != game_)
      throw std::runtime_error(std::string("a ") + game_name(net->game()) + " network, this self-play plays " +
                               game_name(game_));
    auto eval = std::make_shared<BatchingEvaluator>(net, batching_);
    current_stamp_ = stamp;
    JZ_LOG("selfplay: network %s loaded", eval->id().c_str());
    return eval;
  } catch (const std::exception& e) {
    failed_.insert(stamp);
    JZ_LOG("warning: cannot load network '%s': %s (keeping the current one)", path.c_str(), e.what());
    return nullptr;
  }
}

std::shared_ptr<BatchingEvaluator> ModelWatcher::random_network(const std::string& name, uint64_t seed) {
  ModelConfig cfg;
  std::string err;
  if (!ModelConfig::parse(name, cfg, &err)) throw std::runtime_error("network.random_network: " + err);
  cfg.game = game_;
  torch_init_threads();
  torch::manual_seed(seed);
  JanggiNet model(cfg);
  std::shared_ptr<Evaluator> net = std::make_shared<NetworkEvaluator>(model, net_, "random");
  return std::make_shared<BatchingEvaluator>(net, batching_);
}

}  // namespace jz
