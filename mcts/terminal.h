// Ends of the game inside the search: the exact value of a terminal node, and the win-in-one check
// that proves a leaf before the network sees it (SearchParams::mate_in_one).
#pragma once
#include "core/movegen.h"
#include "core/position.h"
#include "core/rules.h"

namespace jz::mcts {

// Terminal value from the view of the player who moved into pos: v in {-1, 0, 1}, draw probability d,
// material margin m.
void terminal_value(const Position& pos, const GameResult& r, double& v, float& d, float& m);

// The first move that ends the game at once in the mover's favour, or -1: a mate, or the pass that
// answers bikjang when the count favours the mover. margin gets the mover's material margin after it.
int winning_move(Position& pos, const MoveList& moves, float& margin);

}  // namespace jz::mcts
