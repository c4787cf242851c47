// The engines a `serve` process offers: the network it loads (if any) and the page's default level,
// from --model / --no-model and the default model's strength record (play/default_engine.h).
#pragma once
#include <memory>
#include <string>

#include "nn/evaluator.h"

namespace jz {

struct ServeEngines {
  std::shared_ptr<Evaluator> net;  // null: alpha-beta levels only
  std::string default_level;       // "net" or "expert"
  std::string default_reason;      // why, for the start-up line and /api/info
  std::string network_strength;    // one line from the model's strength record, "" without one
  std::string warning;             // the default model did not load: served without it
};

// --no-model: expert, no network. --model PATH: that network is the default (false + *error when it
// does not load). Neither: the default model is a level whenever it loads, and the default level only
// when its record shows it beats expert; one that fails to load leaves alpha-beta with a warning.
bool choose_serve_engines(const std::string& model, bool no_model, ServeEngines& out, std::string* error);

}  // namespace jz
