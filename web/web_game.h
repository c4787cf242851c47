// One game the server holds (GameStore's map), shared by the store (web/games.cpp) and its JSON
// views (web/game_json.h). Every field is read and written under `mutex`.
#pragma once
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "play/engine.h"
#include "play/game.h"
#include "web/games.h"
#include "web/ranking.h"

namespace jz {

struct GameStore::WebGame {
  std::mutex mutex;
  std::string id;
  Game game;
  std::string human = "cho";           // cho, han, both, none (in Xiangqi cho is Red, han Black)
  std::string level = "expert";        // easy, normal, expert, net (new games: ServerOptions::default_level)
  std::unique_ptr<PlayEngine> engine;  // made on the first engine move
  nlohmann::json eval;                 // last engine report, Cho's (Red's) view
  RankInfo rank;                       // player, ranked or not, stored once finished (web/ranking.h)
  uint64_t last_used = 0;
  int seen_ply = -1;  // the ply when forfeit_idle last looked, and since when it has stood
  std::chrono::steady_clock::time_point seen_since{};
};

}  // namespace jz
