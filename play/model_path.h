// Where the shipped networks live: models/latest.jzn (Janggi) and models/xiangqi-latest.jzn (see models/README.md).
#pragma once
#include <string>
#include <vector>

#include "core/types.h"

namespace jz {

// The shipped network's file name for a game: "latest.jzn", "xiangqi-latest.jzn".
const char* default_model_name(GameKind game);
// Candidate paths for a game's default model, in the order they are tried:
// $JZ_MODEL (Janggi) or $JZ_MODEL_XIANGQI alone when set ("none" = no model), else <binary dir>/models/NAME,
// <binary dir>/../models/NAME (binary in build/), ./models/NAME.
std::vector<std::string> default_model_candidates(GameKind game = GameKind::JANGGI);
// The first candidate that exists as a regular file, or "" (then play falls back to alpha-beta).
std::string find_default_model(GameKind game = GameKind::JANGGI);

}  // namespace jz
