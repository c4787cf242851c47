// Xiangqi's evaluation weights on the same terms as Janggi's (eval_terms.h): hand-set from the usual
// Xiangqi values (chariot 9, horse 4, cannon 4.5, advisor and elephant 2, a soldier 1 at home and about
// 2 across the river): the anchor that `janggi-zero tune` fitted eval_weights_xiangqi.cpp from.
#include <cstdlib>

#include "alphabeta/eval_terms.h"

namespace jz::ab {

namespace {

// Square tables from the owner's view: rank r (0 = own back rank, 5+ = across the river), dc files from
// the centre.
int xiangqi_pst(PieceType t, int r, int dc) {
  switch (t) {
    case SOLDIER: {
      // Worth little at home; across the river it gains sideways steps and closes in on the palace;
      // on the last rank it can only walk sideways.
      static const int soldier_rank[RANK_NB] = {0, 0, 0, 0, 5, 70, 95, 110, 100, 30};
      return soldier_rank[r] + (r >= 5 && r <= 8 && dc <= 1 ? 20 : 0) - (r >= 5 && dc == 4 ? 15 : 0);
    }
    case HORSE:  // short-range: central and forward, but not cornered
      return 20 - 6 * dc - 3 * std::abs(r - 6) + (r == 0 ? -10 : 0);
    case CANNON:  // the central cannon, and pressure from the enemy's back ranks
      return (dc == 0 && r <= 3 ? 20 : 0) + (r >= 7 && dc <= 1 ? 10 : 0) + (r == 9 ? 10 : 0);
    case CHARIOT:  // active across the river; the ribs of the palace
      return (r >= 5 && r <= 8 ? 15 : 0) + (dc == 1 && r >= 3 ? 10 : 0) - (r == 0 && dc == 4 ? 10 : 0);
    case ELEPHANT:
    case GUARD:  // at home, near the centre
      return dc == 0 ? 10 : dc <= 2 ? 5 : 0;
    case GENERAL:  // off its back rank it is exposed
      return (r == 0 ? 0 : r == 1 ? -15 : -30) - (dc == 0 ? 0 : 5);
    default:
      return 0;
  }
}

EvalWeights hand_set() {
  EvalWeights w{};
  auto both = [&](int term, int v) { w.mg[term] = w.eg[term] = int16_t(v); };
  static const int MATERIAL[PIECE_TYPE_NB] = {0, 0, 200, 200, 400, 900, 450, 100};
  static const int MOBILITY[PIECE_TYPE_NB] = {0, 0, 0, 2, 8, 6, 4, 0};
  static const int THREAT_IN[PIECE_TYPE_NB] = {0, 0, 0, 0, 30, 30, 20, 25};
  static const int THREAT_NEAR[PIECE_TYPE_NB] = {0, 0, 0, 0, 15, 15, 10, 15};
  for (int t = GUARD; t < PIECE_TYPE_NB; ++t) {
    both(T_MATERIAL + t, MATERIAL[t]);
    both(T_MOBILITY + t, MOBILITY[t]);
    both(T_LOW_MOBILITY + t, t == HORSE || t == CHARIOT ? -15 : 0);
    both(T_THREAT_IN + t, THREAT_IN[t]);
    both(T_THREAT_NEAR + t, THREAT_NEAR[t]);
    both(T_HANGING + t, -MATERIAL[t] / 10);
    both(T_ATTACKED_BY_LESSER + t, -MATERIAL[t] / 10);
  }
  for (int t = GENERAL; t < PIECE_TYPE_NB; ++t)
    for (int r = 0; r < RANK_NB; ++r)
      for (int dc = 0; dc <= 4; ++dc) both(T_PST + t * PST_SIZE + r * 5 + dc, xiangqi_pst(PieceType(t), r, dc));
  // Fewer pieces, fewer screens: cannons fade and chariots rise in the endgame.
  w.eg[T_MATERIAL + CANNON] = 400;
  w.eg[T_MATERIAL + CHARIOT] = 950;
  both(T_FILE_PRESSURE + CHARIOT, 10);
  both(T_FILE_PRESSURE + CANNON, 10);
  both(T_CANNON_CROWD, 3);
  both(T_CANNON_LOADED, 25);
  both(T_GUARDS_NEAR, 15);
  both(T_OPEN_FILE, -10);
  both(T_PALACE_ATTACKS, -4);
  both(T_PALACE_WEAK, -6);
  both(T_SOLDIER_CONNECTED, 10);
  both(T_TEMPO, 15);
  return w;
}

}  // namespace

const EvalWeights& xiangqi_hand_weights() {
  static const EvalWeights w = hand_set();
  return w;
}

}  // namespace jz::ab
