// The player endpoints of the web API (web/api.h routes here first):
//   GET  /api/player?name=[&game=]            a player's points, wins, losses, draws per level, games played
//   GET  /api/leaderboard[?limit=N][&game=]   players by points
// game= janggi (default) or xiangqi: each game has its own ladder.
//   GET  /api/games[?player=&limit=&order=newest] finished games (oldest first unless order=newest)
//   GET  /api/export?format=jsonl|gib[&player=]  finished games as a file `janggi-zero import` reads
// Without a player database every one answers 404 with a JSON error.
#pragma once
#include <string>
#include <vector>

#include "web/api.h"
#include "web/player_db.h"

namespace jz {

// True when `req` is one of the routes above (then *out is the answer).
bool handle_player_request(PlayerDb* db, const WebRequest& req, WebResponse* out);

// The moves of a stored game, replayed from its start under its rules; false if any does not replay.
bool replay_finished_game(const FinishedGame& g, Ruleset& rules, std::vector<Move>& moves);

// Finished games as training data: one JSON line per game (replay/game_record.h's fields: fen, rules,
// moves, winner, ending, by_counting, plus the web's level, player, ranked, points), or `.gib` text.
// Games whose moves do not replay are left out (none should be). False + *error for a bad format.
bool export_games(const std::vector<FinishedGame>& games, const std::string& format, std::string* out,
                  std::string* error);

}  // namespace jz
