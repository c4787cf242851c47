// Finds the newest network file (*.jzn) in a models directory and loads it as a batching evaluator,
// so a self-play worker can switch networks without stopping. LibTorch-linked (jz_selfplay_nn).
#pragma once
#include <memory>
#include <set>
#include <string>

#include "nn/batching_evaluator.h"
#include "nn/network_evaluator.h"
#include "selfplay/selfplay_config.h"

namespace jz {

// The backend and batching options that a self-play config's network.* keys give (one place, for
// every command that builds self-play's evaluator).
NetworkOptions network_options(const SelfPlayOptions& o);
BatchingOptions batching_options(const SelfPlayOptions& o);

class ModelWatcher {
 public:
  // Networks of another game than `game` are refused (logged like a file that does not load).
  ModelWatcher(std::string dir, const NetworkOptions& net, const BatchingOptions& batching,
               GameKind game = GameKind::JANGGI);
  // Loads the newest model file if it differs from the current one. Returns the new evaluator, or
  // nullptr when nothing changed or the file did not load (logged once per file version).
  std::shared_ptr<BatchingEvaluator> poll();
  // A freshly random-initialised network (in memory, id "random") of architecture `name` (e.g. "6x64") for the game.
  std::shared_ptr<BatchingEvaluator> random_network(const std::string& name, uint64_t seed);
  // Newest *.jzn under dir (modification time, then name); empty if none.
  static std::string newest_model(const std::string& dir, std::string* stamp = nullptr);
  const std::string& current() const { return current_stamp_; }

 private:
  std::string dir_;
  NetworkOptions net_;
  BatchingOptions batching_;
  GameKind game_;
  std::string current_stamp_;     // path + mtime + size of the loaded file
  std::set<std::string> failed_;  // stamps that did not load
};

}  // namespace jz
