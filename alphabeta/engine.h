// Alpha-beta baseline engine: iterative-deepening PVS over the rules core (no networks).
// One engine object per thread/game; search() is not reentrant.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "util/search_limits.h"

namespace jz {

// Search limits (util/search_limits.h; zero means "no limit" for each field, and with none at all the
// search runs until *stop is set or MAX_DEPTH) and what only this engine has.
struct AbLimits : SearchLimits {
  // Weakening for people: with probability blunder_pct % the engine plays a weaker move on purpose,
  // chosen (seeded RNG) among root moves that score at most blunder_margin_cp below the best and
  // never a move that walks into a forced loss.
  int blunder_pct = 0;
  int blunder_margin_cp = 0;
  uint64_t seed = 1;
  // 2: the tuned evaluation and today's search; 1: the pinned engine as it was before tuning (classic
  // evaluation, the search without the additions of issue 21), kept so that every change can be measured;
  // in Xiangqi version 1 evaluates with the hand-set weights the tuner started from.
  int version = 2;
  // Search additions of version 2 (a mask of AB_* bits; -1: those of the version). For measuring each.
  int features = -1;
};

// Search additions over the pinned engine, one bit each so that matches can measure them one by one.
enum : unsigned {
  AB_HISTORY = 1,       // continuation and capture history, counter moves (ordering and reductions)
  AB_IMPROVING = 2,     // "improving" in futility, late-move pruning and reductions
  AB_RAZOR = 4,         // razoring near the leaves
  AB_SINGULAR = 8,      // singular extension of a TT move that nothing else comes close to; multi-cut
  AB_ALL_FEATURES = 15  // the default of version 2
};

// Progress report after each completed iteration (and the final one).
struct AbInfo {
  int depth = 0, seldepth = 0;
  int score_cp = 0;  // side to move's view; decisive non-mate endings (counting, perpetual) are +-WIN
  int mate = 0;      // moves to mate (+ we mate, - we are mated); 0 if none found
  uint64_t nodes = 0, nps = 0;
  int time_ms = 0;
  int hashfull = 0;  // per mille of the TT used
  std::vector<Move> pv;
};

class AlphaBetaEngine {
 public:
  static constexpr int MAX_DEPTH = 64;
  static constexpr int MATE = 32000;  // mate in ply p scores MATE - p
  static constexpr int WIN = 20000;   // other decisive endings in ply p score WIN - p
  static constexpr int MAX_PLY = 128;

  explicit AlphaBetaEngine(size_t hash_mb = 16);
  ~AlphaBetaEngine();
  AlphaBetaEngine(const AlphaBetaEngine&) = delete;
  AlphaBetaEngine& operator=(const AlphaBetaEngine&) = delete;

  void set_hash(size_t hash_mb);  // clears the TT
  void new_game();                // clears TT, killers, history

  // Best move for the side to move of `pos` (its history counts for repetitions and passes).
  // Returns Move::none() only if there is no legal move. `stop` may be set from another thread.
  Move search(const Position& pos, const AbLimits& limits, const std::function<void(const AbInfo&)>& on_info = {},
              std::atomic<bool>* stop = nullptr);
  const AbInfo& last_info() const { return last_; }
  // Scores every legal move of the last search's root with a full-window search `depth` plies deep
  // after the move (side to move's view), in the search's root order (its best move first). Soft policy
  // targets for teacher games and the weaker moves of the people levels come from it.
  std::vector<std::pair<Move, int>> score_root_moves(int depth);

  // Limits for a named level: "easy", "normal", "expert", or comma-separated overrides
  // "depth=N", "nodes=N", "movetime=MS", "blunder=PCT", "margin=CP", "seed=N", "version=1|2",
  // "features=MASK"
  // (e.g. "easy,seed=7", "expert,version=1").
  // parse_level returns false with a one-line reason; level() throws std::invalid_argument.
  static bool parse_level(const std::string& spec, AbLimits& out, std::string* error);
  static AbLimits level(const std::string& spec);

  // Static evaluation from the side to move's view (centipoints), exposed for tests and tools.
  static int evaluate(const Position& pos);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  AbInfo last_;
};

}  // namespace jz
