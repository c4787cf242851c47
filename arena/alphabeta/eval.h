// Hand-written static evaluation for the alpha-beta engine (centipoints, side to move's view).
#pragma once
#include "core/position.h"

namespace jz::ab {

// Material in centipoints (counting points x 100).
constexpr int PIECE_CP[PIECE_TYPE_NB] = {0, 0, 300, 300, 500, 1300, 700, 200};

int evaluate(const Position& pos);

// Score for the side to move if the game ended now by counting (or a draw without counting):
// +1 win, -1 loss, 0 draw.
int counting_outcome(const Position& pos);

}  // namespace jz::ab
