// Ranked games against the computer: who plays, whether the game still counts, and what a finished
// game earns. A ranked game earns its level's points (web/levels.h) for a win only when it was
// played from a standard setup under the default rule set, one person against the engine, with no
// undo and no engine hint, to a rules ending (or the computer resigned). Every finished game goes to
// the player database (web/player_db.h) once, ranked or not, as training data.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "play/game.h"
#include "web/player_db.h"

namespace jz {

// The rule in words, for the page (shown before a game starts).
extern const char* const RANKED_RULE;

struct RankInfo {
  std::string player;  // "" = nobody named
  bool ranked = false;
  std::string note;  // why the game is not (or no longer) ranked
  bool recorded = false;
  int points = 0;            // earned, once recorded
  std::string result;        // win, loss, draw (the player's view), once recorded
  std::string record_error;  // the database refused the game
};

// Whether a game that starts like this may be ranked; false + *why.
bool ranked_start_ok(bool from_fen, Ruleset rules, const std::string& human, std::string* why);
// The game stops counting (undo, hint, another level); keeps the first reason.
void unrank(RankInfo& r, const std::string& why);
// Points for a finished ranked game: the level's points for the person's win by a rules ending or
// the computer's resignation, else 0.
int ranked_points(const GameResult& result, const std::string& human, int level_points);
// Stores the game if it is over and not yet stored (db may be null: then it is only marked).
void record_if_finished(const Game& game, const std::string& game_id, const std::string& level,
                        const std::string& human, RankInfo& r, PlayerDb* db);
nlohmann::json rank_json(const RankInfo& r);

}  // namespace jz
