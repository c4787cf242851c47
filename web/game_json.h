// The JSON the page reads for a game, per game: Janggi's pieces and moves carry Hanja, Hangul and
// Korean notation; Xiangqi's carry Chinese characters, Chinese notation (炮二平五) and WXF (C2.5).
#pragma once
#include <nlohmann/json.hpp>

#include "play/game.h"
#include "web/web_game.h"

namespace jz {

// One move of pos in the game's notations: {"uci", "notation"} plus "korean" and "hanja" (Janggi)
// or "chinese" and "wxf" (Xiangqi). "notation" is the game's own (Korean, or Chinese).
nlohmann::json move_json(const Position& pos, Move m);
// Every move of the game, each as move_json in the position before it.
nlohmann::json moves_json(const Game& game);
// The engine's line from pos, as far as its moves stay legal, in the game's own notation.
nlohmann::json line_json(const Position& pos, const std::vector<Move>& line, nlohmann::json* uci);
// The engine's report as the page may show it: during a ranked game only who answered and how long
// it took (no score, line or evaluation: they would be hints); all of it once the game is over.
nlohmann::json shown_eval(const GameStore::WebGame& g);
// The whole state of a game for the page (GET /api/state).
nlohmann::json state_json(const GameStore::WebGame& g);

}  // namespace jz
