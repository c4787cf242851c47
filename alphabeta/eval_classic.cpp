// The classic evaluation (hand-set, untuned): the pinned engine of `version=1` keeps it so that
// every change can be measured against it.
#include "alphabeta/eval.h"
#include "alphabeta/eval_terms.h"
#include "alphabeta/reach.h"

#include <algorithm>
#include <cstdlib>

#include "core/rules.h"

namespace jz::ab {

namespace {

// Piece-square values from the owner's view (rank 0 = own back rank; dc = distance from the centre
// file), from a few rules of thumb rather than tuned numbers.
int classic_pst(PieceType t, int r, int dc) {
  bool enemy_palace = r >= 7 && dc <= 1;
  switch (t) {
    case SOLDIER: {
      // Soldiers gain as they cross the river and close in on the palace; the last rank is a dead end.
      static const int soldier_rank[RANK_NB] = {0, 0, 0, 0, 8, 20, 35, 55, 60, 25};
      return soldier_rank[r] + (r >= 6 && dc <= 1 ? 15 : 0) + (r >= 6 && dc == 0 ? 5 : 0) - (r <= 5 && dc == 4 ? 5 : 0);
    }
    // Horses are short-range: central and forward is better, the back rank and edges are worse.
    case HORSE:
      return 24 - 5 * dc - 3 * std::abs(r - 5) + (r >= 6 && dc <= 2 ? 10 : 0);
    // Elephants defend from the middle of their own half.
    case ELEPHANT:
      return 8 - 2 * dc - 2 * std::abs(r - 3);
    // Chariots and cannons pressing on the enemy palace (mobility does the rest).
    case CHARIOT:
      return (enemy_palace ? 25 : r >= 7 ? 10 : 0) + (dc == 0 && r >= 3 ? 8 : 0);
    case CANNON:
      return (enemy_palace ? 20 : 0) + (dc <= 1 ? 6 : 0) + (r == 1 && dc == 0 ? 10 : 0);
    // General and guards: the palace centre is the usual home.
    case GENERAL:
      return r == 1 && dc == 0 ? 12 : r == 0 && dc == 0 ? 6 : r == 2 ? -8 : 0;
    case GUARD:
      return r <= 1 ? 6 : 0;
    default:
      return 0;
  }
}

struct Pst {
  int16_t v[PIECE_TYPE_NB][SQUARE_NB];
  Pst() {
    for (int t = 0; t < PIECE_TYPE_NB; ++t)
      for (Square s = 0; s < SQUARE_NB; ++s)
        v[t][s] = int16_t(classic_pst(PieceType(t), rank_of(s), std::abs(file_of(s) - 4)));
  }
};
const Pst PST;

inline Square rel(Color c, Square s) { return c == CHO ? s : flip_square(s); }

// Squares a piece reaches (empty or enemy-occupied), as mobility; only the pieces that have a weight.
int mobility(const Position& pos, Square from, PieceType t, Color us) {
  if (t < ELEPHANT || t > CANNON) return 0;
  int n = 0;
  for_each_reach(pos, from, t, us, [&](Square to) {
    Piece q = pos.piece_on(to);
    n += !q || color_of(q) != us;
  });
  return n;
}

// Per-move weights; a chariot's reach matters most.
constexpr int MOB_WEIGHT[PIECE_TYPE_NB] = {0, 0, 0, 2, 5, 3, 3, 0};
constexpr int MOB_BASE[PIECE_TYPE_NB] = {0, 0, 0, 1, 3, 6, 3, 0};
// Danger of an enemy piece inside / next to our palace.
constexpr int IN_PALACE_THREAT[PIECE_TYPE_NB] = {0, 0, 0, 0, 25, 45, 25, 35};
constexpr int NEAR_PALACE_THREAT[PIECE_TYPE_NB] = {0, 0, 0, 0, 12, 15, 10, 12};

}  // namespace

// Cho's view of everything except counting.
int eval_cho_classic(const Position& pos) {
  int score[2] = {0, 0}, threat[2] = {0, 0}, attackers[2] = {0, 0}, guards_near[2] = {0, 0};
  int total = pos.piece_count(CHO) + pos.piece_count(HAN);
  for (int ci = 0; ci < 2; ++ci) {
    Color c = Color(ci), them = ~c;
    Square their_king_rel = rel(c, pos.king_square(them));
    for (int i = 0; i < pos.piece_count(c); ++i) {
      Square s = pos.piece_square(c, i);
      PieceType t = type_of(pos.piece_on(s));
      Square rs = rel(c, s);
      int v = PIECE_CP[t] + PST.v[t][rs];
      v += MOB_WEIGHT[t] * (mobility(pos, s, t, c) - MOB_BASE[t]);
      // Cannons need screens: worth more in a crowded board, less in a bare one.
      if (t == CANNON) v += 2 * (total - 18);
      // Guards huddled round the general.
      if (t == GUARD) {
        Square k = rel(c, pos.king_square(c));
        if (std::abs(file_of(rs) - file_of(k)) <= 1 && std::abs(rank_of(rs) - rank_of(k)) <= 1) ++guards_near[c];
      }
      // Attackers near the enemy palace (ranks 7..9 from our side, files d..f and their neighbours).
      int r = rank_of(rs), dc = std::abs(file_of(rs) - 4);
      if (IN_PALACE_THREAT[t]) {
        if (r >= 7 && dc <= 1) {
          threat[them] += IN_PALACE_THREAT[t];
          ++attackers[them];
        } else if (r >= 6 && dc <= 2) {
          threat[them] += NEAR_PALACE_THREAT[t];
          ++attackers[them];
        }
        // Lined up on the general's file or rank from afar (chariot/cannon pressure).
        else if ((t == CHARIOT || t == CANNON) && file_of(rs) == file_of(their_king_rel))
          threat[them] += 8;
      }
      score[c] += v;
    }
  }
  for (int c = 0; c < 2; ++c) {
    score[c] += 12 * std::min(guards_near[c], 2);
    score[c] -= threat[c] * THREAT_SCALE[std::min(attackers[c], 7)] / 16;
  }
  return score[CHO] - score[HAN];
}

// The classic evaluation's ideas as term weights: the tuner's starting point and the anchor of its
// regularisation. Terms the classic evaluation lacks start at zero.
EvalWeights hand_weights() {
  EvalWeights w{};
  auto both = [&](int term, int v) { w.mg[term] = w.eg[term] = int16_t(v); };
  for (int t = GUARD; t < PIECE_TYPE_NB; ++t) {
    // The classic mobility term is weight x (moves - base): the base moves into the material.
    both(T_MATERIAL + t, PIECE_CP[t] - MOB_WEIGHT[t] * MOB_BASE[t]);
    both(T_MOBILITY + t, MOB_WEIGHT[t]);
    both(T_THREAT_IN + t, IN_PALACE_THREAT[t]);
    both(T_THREAT_NEAR + t, NEAR_PALACE_THREAT[t]);
  }
  for (int t = GENERAL; t < PIECE_TYPE_NB; ++t)
    for (int r = 0; r < RANK_NB; ++r)
      for (int dc = 0; dc <= 4; ++dc) both(T_PST + t * PST_SIZE + r * 5 + dc, classic_pst(PieceType(t), r, dc));
  both(T_FILE_PRESSURE + CHARIOT, 8);
  both(T_FILE_PRESSURE + CANNON, 8);
  both(T_CANNON_CROWD, 2);
  both(T_GUARDS_NEAR, 12);
  both(T_HAN_BONUS, 40);
  both(T_TEMPO, 10);
  return w;
}

}  // namespace jz::ab
