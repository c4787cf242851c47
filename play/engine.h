// The engine facade shared by `uci`, `play` and `serve`: searches a Position (with its history) with
// the network (MCTS) when one is set and enabled, else with the alpha-beta engine, and reports its
// thinking in one shape (ThinkInfo). One PlayEngine per game/thread; think() is not reentrant, but
// `stop` may be set from any thread.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "alphabeta/tactics.h"
#include "core/position.h"
#include "nn/evaluator.h"
#include "util/search_limits.h"

namespace jz {

// Limits: SearchLimits (util/search_limits.h). Zero = no limit per field. No limit at all (and not
// infinite): the level's limits (alpha-beta) or `simulations` (network).

struct ThinkInfo {
  bool network = false;  // produced by the network search
  int depth = 0, seldepth = 0;
  uint64_t nodes = 0, nps = 0;  // alpha-beta nodes, or MCTS playouts
  int time_ms = 0;
  int score_cp = 0;  // side to move's view
  int mate = 0;      // moves to mate (+ we mate), 0 if none
  bool has_wdl = false;
  int wdl[3] = {0, 1000, 0};  // per mille, side to move's view (network; alpha-beta: estimated from cp)
  int hashfull = 0;
  std::vector<Move> pv;
};

// Win/draw/loss estimate in per mille from a centipawn score (for the alpha-beta engine's displays).
void cp_to_wdl(int cp, int out[3]);
// Centipawns from an expected score q in [-1, 1] (lc0's mapping).
int q_to_cp(float q);

class PlayEngine {
 public:
  // hash_mb: the alpha-beta table, allocated here (set_hash reallocates).
  explicit PlayEngine(int hash_mb = 16);
  ~PlayEngine();
  PlayEngine(const PlayEngine&) = delete;
  PlayEngine& operator=(const PlayEngine&) = delete;

  // The network to use (shared: one evaluator may serve many engines). nullptr = none.
  // Returns false if this build has no MCTS search.
  bool set_network(std::shared_ptr<Evaluator> net, std::string* error);
  void set_use_network(bool on) { use_network_ = on; }
  bool using_network() const { return net_ && use_network_; }
  std::string network_id() const { return net_ ? net_->id() : std::string(); }
  // False + reason when the search in use cannot play pos: the network and a rule option it was
  // not trained with (nn/evaluator.h network_accepts). think() throws std::runtime_error then.
  bool accepts(const Position& pos, std::string* error) const {
    return !using_network() || network_accepts(*net_, pos, error);
  }

  void set_simulations(int n) { simulations_ = n < 1 ? 1 : n; }
  // Network play: the chosen move checked by a depth-N alpha-beta search (alphabeta/tactics.h), in a tenth
  // of a timed move; 0 = off. On by default (PLAY_TACTICS_DEPTH).
  void set_tactics_depth(int n) { tactics_depth_ = std::clamp(n, 0, 8); }
  int tactics_depth() const { return tactics_depth_; }
  void set_threads(int n) { threads_ = n < 1 ? 1 : n; }
  void set_hash(int mb);
  // Alpha-beta level ("easy", "normal", "expert", or AlphaBetaEngine::parse_level overrides).
  bool set_level(const std::string& spec, std::string* error);
  const std::string& level() const { return level_; }
  int simulations() const { return simulations_; }
  int threads() const { return threads_; }

  void new_game();

  // Best move for the side to move; Move::none() if it has no legal move. on_info is called with
  // progress (from the searching thread) and once more with the final report.
  Move think(const Position& pos, const SearchLimits& limits, const std::function<void(const ThinkInfo&)>& on_info = {},
             std::atomic<bool>* stop = nullptr, ThinkInfo* final_info = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::shared_ptr<Evaluator> net_;
  bool use_network_ = true;
  int simulations_ = 800;
  int threads_ = 1;
  int tactics_depth_ = PLAY_TACTICS_DEPTH;
  std::string level_ = "expert";
};

// Whether this build can search with a network (MCTS compiled in) and load model files (LibTorch).
bool play_has_mcts();
bool play_can_load_models();
// Loads a model file as a shared evaluator (CPU; torch threads set to 1 first). nullptr + *error on failure.
std::shared_ptr<Evaluator> load_network(const std::string& path, std::string* error);

}  // namespace jz
