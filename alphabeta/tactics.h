// A network search's choice checked by a shallow alpha-beta search before it is played (play only: self-play
// and training never see it). The network's policy misses short cannon and chariot combinations that lose
// material (docs/training/dagger/README.md, session 35), and more visits do not find them; a depth-4 search
// with quiescence does, in a few per cent of a 1 s move.
#pragma once
#include <cstdint>
#include <vector>

#include "alphabeta/engine.h"

namespace jz {

// Play's depth (UCI engine, web, timed match players): 70% against `normal` at 1 s where the same network
// without the check scored 50% (docs/training/dagger/README.md, session 36).
inline constexpr int PLAY_TACTICS_DEPTH = 4;

struct TacticsCheck {
  int depth = PLAY_TACTICS_DEPTH;          // plies of the root search; a candidate is scored depth - 1 plies after it
  int margin_cp = 250;    // a candidate this far below the best move is a blunder (a guard or an elephant is 300)
  int candidates = 4;     // the search's moves tried in its order before the alpha-beta best move is taken
  int movetime_ms = 0;    // hard bound on the whole check; 0 = none. A check cut short keeps the choice
};

struct TacticsVerdict {
  Move move;              // the move to play
  bool vetoed = false;    // the search's first choice lost at least margin_cp
  bool complete = false;  // the check ran to its depth (otherwise move is the first candidate)
  int best_cp = 0;        // the alpha-beta best move's score, side to move's view
  int first_cp = 0;       // the first candidate's
  uint64_t nodes = 0;
};

// candidates: the search's moves, most preferred first (the first is its choice). Returns the first
// candidate scoring within margin_cp of the alpha-beta best move; that best move when none of the first
// `candidates` does.
TacticsVerdict check_tactics(AlphaBetaEngine& ab, const Position& pos, const std::vector<Move>& candidates,
                             const TacticsCheck& check);

}  // namespace jz
