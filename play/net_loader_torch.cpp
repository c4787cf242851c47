// Model files -> shared evaluator (LibTorch builds).
#include <torch/torch.h>

#include <mutex>

#include "mcts/search.h"
#include "nn/network_evaluator.h"
#include "play/engine.h"

namespace jz {

bool play_can_load_models() { return true; }

std::shared_ptr<Evaluator> load_network(const std::string& path, std::string* error) {
  static std::once_flag once;
  std::call_once(once, [] { torch::set_num_threads(1); });
  try {
    NetworkOptions opts;
    opts.device = "auto";
    opts.precision = "auto";  // play is timed: bf16 where the CPU runs it natively (~2x evals per second)
    std::shared_ptr<NetworkEvaluator> net = NetworkEvaluator::from_file(path, opts);
    net->set_preferred_batch(PLAY_BATCH);
    return net;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return nullptr;
  }
}

}  // namespace jz
