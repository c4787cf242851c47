// Policy space: every geometrically possible (from, to) pair of any piece on an empty board
// (lines incl. palace diagonals, horse, elephant, soldier and palace steps of both colors), in the
// side to move's view, plus pass: POLICY_SIZE outputs. Index order: by from square, then to square
// (view squares); pass is last.
#pragma once
#include <vector>

#include "core/movegen.h"
#include "core/position.h"

namespace jz {

constexpr int POLICY_SIZE = 2451;
constexpr int PASS_INDEX = POLICY_SIZE - 1;

// Index of a move made by `stm` (its squares are mapped through flip_square for Han). Returns -1
// for a pair that no piece can ever make.
int policy_index(Move m, Color stm);
// Inverse: the move of the side to move of pos for an index (pass = the general's square twice).
Move policy_move(int index, const Position& pos);
Move policy_move(int index, Color stm, Square general_square);
// Left-right mirror (file a <-> i) of an index; an involution, pass maps to pass.
int mirror_policy_index(int index);
// The (from, to) view squares of an index (from == to == NO_SQUARE for pass).
void policy_squares(int index, Square& from, Square& to);

// Softmax of logits[policy_index(m, stm)] over the legal moves only (illegal moves are masked);
// out gets one probability per move of `moves`, in order.
void masked_policy(const float* logits, const Position& pos, const MoveList& moves, std::vector<float>& out);

}  // namespace jz
