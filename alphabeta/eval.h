// Static evaluation for the alpha-beta engine (centipoints, side to move's view): the tuned term
// evaluation (eval_terms.h) and the classic hand-set one that the pinned engine keeps.
#pragma once
#include "core/position.h"

namespace jz::ab {

// Material in centipoints (counting points x 100): move ordering and pruning margins.
constexpr int PIECE_CP[PIECE_TYPE_NB] = {0, 0, 300, 300, 500, 1300, 700, 200};
// Palace threats gang up: the sum of the attackers' threats is scaled by this /16, by attacker count.
constexpr int THREAT_SCALE[8] = {0, 4, 10, 16, 22, 26, 28, 30};

// The previous ply was a pass, so our pass would end the game (false at the root of a FEN, whose
// last move is none; none reads as a pass). In Xiangqi a pass is only the search's null move: never.
inline bool opponent_passed(const Position& pos) {
  return pos.history_size() > 0 && pos.last_move().is_pass() && ruleset_info(pos.ruleset()).pass;
}

// The tuned evaluation (version 2).
int evaluate(const Position& pos);
// The classic evaluation (version 1, pinned).
int evaluate_classic(const Position& pos);
int eval_cho_classic(const Position& pos);

// Score for the side to move if the game ended now by counting (or a draw without counting):
// +1 win, -1 loss, 0 draw.
int counting_outcome(const Position& pos);

}  // namespace jz::ab
