// The web API without HTTP: games kept in memory, each request a JSON body in and (status, JSON) out.
// Every move is checked with the rules core; each game has its own lock, the store one for the map.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/types.h"
#include "nn/evaluator.h"
#include "web/accounts.h"
#include "web/analysis.h"
#include "web/ranking.h"
#include "web/engine_slots.h"

namespace jz {

class PlayerDb;

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  int max_games = 256;      // least recently used games beyond this are dropped
  int simulations = 800;    // network engine: simulations per move
  int max_think_ms = 5000;  // hard bound on any engine search
  uint64_t max_nodes = 0;   // same in nodes / playouts (0 = none)
  int hash_mb = 4;          // alpha-beta table per game
  int engine_slots = 0;     // engine searches at once (0: one per core); the rest wait or are told "busy"
  // The engine of games that name none (and the page's preselection): easy, normal, expert, or net
  // (only with a network; otherwise expert). `serve` sets it from play/default_engine.h, with the reason.
  std::string default_level = "expert";
  std::string default_reason;
  std::string network_strength;  // the network's measured strength, one line (web/levels.h)
  // The same for Xiangqi games, whose network (if any) is another file (play/model_path.h).
  std::string xiangqi_default_level = "expert";
  std::string xiangqi_default_reason;
  std::string xiangqi_network_strength;
  uint64_t analysis_nodes = 100000;  // a review's alpha-beta nodes per position (web/analysis.h)
  int abandon_seconds = 15 * 60;     // a ranked game without a move this long counts as lost (0: never)
};

struct ApiReply {
  int status = 200;
  std::string body;  // JSON
};

class GameStore {
 public:
  // `net` (may be null) plays the game it was trained for (Evaluator::game()); the other game's
  // network comes by add_network. Each game's `net` level exists only with that game's network.
  GameStore(const ServerOptions& opts, std::shared_ptr<Evaluator> net);
  ~GameStore();
  void add_network(std::shared_ptr<Evaluator> net);  // before serving: replaces its game's network
  const std::shared_ptr<Evaluator>& net(GameKind g) const { return nets_[int(g)]; }

  ApiReply info() const;                                           // GET  /api/info
  ApiReply new_game(const std::string& body);                      // POST /api/new
  ApiReply state(const std::string& id);                           // GET  /api/state?id=
  ApiReply legal(const std::string& id, const std::string& from);  // GET /api/legal?id=&from=
  ApiReply move(const std::string& body);                          // POST /api/move   {id, move}
  ApiReply engine_move(const std::string& body);                   // POST /api/engine {id[, level]}
  ApiReply hint(const std::string& body);  // POST /api/hint {id}: the level's move, not played (unranks)
  ApiReply undo(const std::string& body);                          // POST /api/undo   {id[, plies]}
  ApiReply resign(const std::string& body);                        // POST /api/resign {id}
  ApiReply record(const std::string& id, std::string* filename);   // GET /api/record?id=
  size_t size() const;
  // Players, points and finished games (web/player_db.h); without one, games are not stored.
  // Accounts (web/accounts.h) come with it: ranked games are for signed-in players.
  void set_player_db(std::shared_ptr<PlayerDb> db, const AccountOptions& accounts = {});
  PlayerDb* player_db() const { return db_.get(); }
  Accounts* accounts() const { return accounts_.get(); }
  // The player a game is played for ("" for a guest's game or an unknown id): only they may move in it.
  std::string owner(const std::string& id);

  // A game of this server for its review: one in memory once it is over, or a stored one.
  struct Finished {
    Game game;
    std::string human, level, player, finished_at;
    bool ranked = false;
    int points = 0;
  };
  // False + *fail: 404 unknown, 409 still on (a review would be a hint).
  bool finished(const std::string& id, Finished* out, ApiReply* fail);
  Analyzer& analyzer() { return analyzer_; }

  struct WebGame;

 private:
  std::shared_ptr<WebGame> find(const std::string& id);
  std::string default_level(GameKind g) const;   // the game's default level ("net" only with its network)
  nlohmann::json game_info(GameKind g) const;    // what /api/info says of one game
  std::string new_id();
  // The game `id`, locked by `lock`, while it is on; null with *fail (404 unknown, 409 over) otherwise.
  std::shared_ptr<WebGame> live_game(const std::string& id, std::unique_lock<std::mutex>& lock, ApiReply& fail);
  // The level's search, within its limit counted from `request` (the time the request arrived).
  bool search(WebGame& g, const std::string& level, std::chrono::steady_clock::time_point request, Move& m,
              ApiReply& fail);
  void forfeit_if_ranked(WebGame& g);
  // Ranked games with no move for abandon_seconds count as lost (checked at most once a second, on requests).
  void forfeit_idle();

  ServerOptions opts_;
  std::shared_ptr<Evaluator> nets_[2];  // by GameKind
  std::shared_ptr<PlayerDb> db_;
  std::unique_ptr<Accounts> accounts_;
  Analyzer analyzer_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<WebGame>> games_;
  uint64_t clock_ = 0;  // use counter for least-recently-used eviction
  std::chrono::steady_clock::time_point last_idle_check_{};
  uint64_t id_state_;
  std::unique_ptr<EngineSlots> slots_;
};

}  // namespace jz
