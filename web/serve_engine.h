// The engines a `serve` process offers, per game: the network it loads for Janggi and for Xiangqi
// (if any) and each game's default level, from --model / --xiangqi-model / --no-model and the default
// models' strength records (play/default_engine.h, play/model_path.h).
#pragma once
#include <memory>
#include <string>

#include "core/types.h"
#include "nn/evaluator.h"

namespace jz {

struct GameEngines {
  std::shared_ptr<Evaluator> net;  // null: alpha-beta levels only
  std::string default_level;       // "net" or "expert"
  std::string default_reason;      // why, for the start-up line and /api/info
  std::string network_strength;    // one line from the model's strength record, "" without one
  std::string warning;             // the default model did not load: served without it
};

// Janggi's in the base (as before Xiangqi), Xiangqi's apart.
struct ServeEngines : GameEngines {
  GameEngines xiangqi;
};

// For one game. --no-model: expert, no network. `model` given: that network is the default (false +
// *error when it does not load or plays the other game). Neither: the game's default model is a level
// whenever it loads, and the default level only when its record shows it beats expert; one that fails
// to load leaves alpha-beta with a warning.
bool choose_game_engines(GameKind game, const std::string& model, bool no_model, GameEngines& out,
                         std::string* error);
// Both games: `model` for Janggi, `xiangqi_model` for Xiangqi.
bool choose_serve_engines(const std::string& model, bool no_model, ServeEngines& out, std::string* error,
                          const std::string& xiangqi_model = "");

}  // namespace jz
