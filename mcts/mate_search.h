// Forced-mate search over the rules core: the root's tactical guard (SearchParams::mate_guard). The
// network's policy can hide a quiet move that sets up a short mate; a small exhaustive search does not.
#pragma once
#include <cstdint>
#include <vector>

#include "core/position.h"

namespace jz::mcts {

// Positions a proof attempt may visit. A search cut short proves nothing: both questions below answer
// false where the budget ran out, so every true answer is still a complete proof.
struct MateBudget {
  int64_t nodes_left;
  bool cut = false;  // it ran out
  bool spend() { return nodes_left > 0 ? (--nodes_left, true) : (cut = true, false); }
};

// The side to move can force a win (checkmate, or any other ending the rules give it) within `moves` of
// its own moves. Its first `quiet` moves may be any move; the later ones must give check (the classic
// check-sequence search, which keeps the cost to a few thousand make/unmakes) or be the pass that answers
// bikjang (it ends the game by a count). Every reply of the defender is tried, passes included, so a true
// answer is a proof.
bool forced_win(Position& pos, int moves, int quiet, MateBudget* budget = nullptr);

// The same for the defender to move after the attacker's last move: every reply loses within `moves`
// more attacker moves (0: the position is already won for the attacker, e.g. checkmate).
bool defender_lost(Position& pos, int moves, int quiet, MateBudget* budget = nullptr);

// The root guard's verdict on move m of pos (SearchParams::mate_guard): +1 when m wins for the mover
// (at once, within `moves` moves whose first `quiet` may be quiet, or within `checks` checking moves), -1
// when the opponent then has such a win, 0 otherwise; plies gets the proof's length bound.
int guard_verdict(Position& pos, Move m, int moves, int quiet, int checks, int& plies, MateBudget* budget = nullptr);

// The line of a forced ending about `plies` plies from pos (odd: the side to move wins; even: it loses):
// the winner's quickest win and the loser's longest defence at every step, as the guard's families prove
// them (wins within `moves` moves whose first `quiet` may be quiet, or within `checks` checking moves). It
// stops early where they prove no next step (a proof the MCTS-solver found another way).
std::vector<Move> proof_line(Position pos, int plies, int moves, int quiet, int checks);

}  // namespace jz::mcts
