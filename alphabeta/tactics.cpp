// The tactics check of alphabeta/tactics.h.
#include "alphabeta/tactics.h"

#include <algorithm>
#include <chrono>

namespace jz {

namespace {

// Side to move's score at `depth`, or false when the search was cut short by the time left. Every decisive
// ending scores +-WIN: a mate and a won count are alike here, and a won line is never a blunder.
bool score(AlphaBetaEngine& ab, const Position& pos, int depth, int64_t ms_left, int& cp, uint64_t& nodes) {
  AbLimits l;
  l.depth = depth;
  if (ms_left > 0) l.movetime_ms = int(ms_left);
  ab.search(pos, l);
  const AbInfo& info = ab.last_info();
  nodes += info.nodes;
  constexpr int DECISIVE = AlphaBetaEngine::WIN - AlphaBetaEngine::MAX_PLY;
  cp = info.score_cp >= DECISIVE ? AlphaBetaEngine::WIN : info.score_cp <= -DECISIVE ? -AlphaBetaEngine::WIN : info.score_cp;
  return info.depth >= depth;
}

}  // namespace

TacticsVerdict check_tactics(AlphaBetaEngine& ab, const Position& pos, const std::vector<Move>& candidates,
                             const TacticsCheck& check) {
  TacticsVerdict v;
  if (candidates.empty()) return v;
  v.move = candidates[0];
  const auto start = std::chrono::steady_clock::now();
  auto ms_left = [&]() -> int64_t {
    if (check.movetime_ms <= 0) return 0;
    auto used = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    return std::max<int64_t>(1, check.movetime_ms - used.count());
  };
  int best_cp = 0;
  if (!score(ab, pos, check.depth, ms_left(), best_cp, v.nodes)) return v;
  const Move best = ab.last_info().pv.empty() ? Move::none() : ab.last_info().pv[0];
  v.best_cp = best_cp;
  const int tries = std::min<int>(check.candidates, int(candidates.size()));
  for (int i = 0; i < tries; ++i) {
    int cp = best_cp;
    if (candidates[i] != best) {
      Position after = pos;
      after.do_move(candidates[i]);
      if (!score(ab, after, check.depth - 1, ms_left(), cp, v.nodes)) return v;  // cut short: the choice stands
      cp = -cp;
    }
    if (i == 0) v.first_cp = cp;
    if (cp >= best_cp - check.margin_cp) {
      v.move = candidates[i], v.vetoed = i > 0, v.complete = true;
      return v;
    }
  }
  v.complete = true;
  v.vetoed = true;
  if (!best.is_none()) v.move = best;
  return v;
}

}  // namespace jz
