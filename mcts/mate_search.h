// Forced-mate search over the rules core: the root's tactical guard (SearchParams::mate_guard). The
// network's policy can hide a quiet move that sets up a short mate; a small exhaustive search does not.
#pragma once
#include "core/position.h"

namespace jz::mcts {

// The side to move can force a win (checkmate, or any other ending the rules give it) within `moves` of
// its own moves. Its first `quiet` moves may be any move; the later ones must give check (the classic
// check-sequence search, which keeps the cost to a few thousand make/unmakes). Every reply of the defender
// is tried, passes included, so a true answer is a proof.
bool forced_win(Position& pos, int moves, int quiet);

// The same for the defender to move after the attacker's last move: every reply loses within `moves`
// more attacker moves (0: the position is already won for the attacker, e.g. checkmate).
bool defender_lost(Position& pos, int moves, int quiet);

}  // namespace jz::mcts
