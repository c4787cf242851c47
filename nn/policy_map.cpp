#include "nn/policy_map.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "core/geometry.h"

namespace jz {
namespace {

struct PolicyTable {
  int16_t index[SQUARE_NB][SQUARE_NB];
  Square from[POLICY_SIZE], to[POLICY_SIZE];
  int16_t mirror[POLICY_SIZE];

  PolicyTable() {
    const geo::Tables& t = geo::tables();
    bool reach[SQUARE_NB][SQUARE_NB] = {};
    // Lines (chariot, cannon; they contain every general, guard and soldier step, palace
    // diagonals included), then horse and elephant leaps.
    for (Square s = 0; s < SQUARE_NB; ++s) {
      for (int r = 0; r < t.ray_count[s]; ++r)
        for (int i = 0; i < t.rays[s][r].len; ++i) reach[s][t.rays[s][r].sq[i]] = true;
      for (int i = 0; i < t.horse_count[s]; ++i) reach[s][t.horse[s][i].to] = true;
      for (int i = 0; i < t.elephant_count[s]; ++i) reach[s][t.elephant[s][i].to] = true;
      for (int i = 0; i < t.palace_step_count[s]; ++i) reach[s][t.palace_step[s][i]] = true;
      for (int c = 0; c < 2; ++c)
        for (int i = 0; i < t.soldier_count[c][s]; ++i) reach[s][t.soldier[c][s][i]] = true;
    }
    int n = 0;
    for (Square a = 0; a < SQUARE_NB; ++a)
      for (Square b = 0; b < SQUARE_NB; ++b) {
        index[a][b] = -1;
        if (!reach[a][b]) continue;
        if (n >= PASS_INDEX) throw std::logic_error("policy map: more pairs than POLICY_SIZE - 1");
        index[a][b] = int16_t(n);
        from[n] = a;
        to[n] = b;
        ++n;
      }
    if (n != PASS_INDEX) throw std::logic_error("policy map: pair count differs from POLICY_SIZE - 1");
    from[PASS_INDEX] = to[PASS_INDEX] = NO_SQUARE;
    for (int i = 0; i < PASS_INDEX; ++i) {
      int m = index[mirror_square(from[i])][mirror_square(to[i])];
      if (m < 0) throw std::logic_error("policy map: not mirror symmetric");
      mirror[i] = int16_t(m);
    }
    mirror[PASS_INDEX] = PASS_INDEX;
  }
};

const PolicyTable& table() {
  static const PolicyTable t;
  return t;
}

}  // namespace

int policy_index(Move m, Color stm) {
  if (m.is_pass()) return PASS_INDEX;
  Square a = m.from(), b = m.to();
  if (a < 0 || a >= SQUARE_NB || b < 0 || b >= SQUARE_NB) return -1;
  if (stm == HAN) {
    a = flip_square(a);
    b = flip_square(b);
  }
  return table().index[a][b];
}

Move policy_move(int index, Color stm, Square general_square) {
  if (index == PASS_INDEX) return Move(general_square, general_square);
  if (index < 0 || index >= POLICY_SIZE) return Move::none();
  Square a = table().from[index], b = table().to[index];
  if (stm == HAN) {
    a = flip_square(a);
    b = flip_square(b);
  }
  return Move(a, b);
}

Move policy_move(int index, const Position& pos) {
  return policy_move(index, pos.side_to_move(), pos.king_square(pos.side_to_move()));
}

int mirror_policy_index(int index) { return index >= 0 && index < POLICY_SIZE ? table().mirror[index] : -1; }

void policy_squares(int index, Square& from, Square& to) {
  from = table().from[index];
  to = table().to[index];
}

void masked_policy(const float* logits, const Position& pos, const MoveList& moves, std::vector<float>& out) {
  const Color stm = pos.side_to_move();
  out.resize(moves.size);
  float mx = -INFINITY;
  for (int i = 0; i < moves.size; ++i) {
    int k = policy_index(moves[i], stm);
    out[i] = k >= 0 ? logits[k] : -INFINITY;
    mx = std::max(mx, out[i]);
  }
  if (moves.size == 0) return;
  if (!std::isfinite(mx)) {  // no usable logits (NaN/inf): fall back to uniform
    std::fill(out.begin(), out.end(), 1.0f / moves.size);
    return;
  }
  double sum = 0;
  for (float& p : out) {
    p = std::exp(p - mx);
    sum += p;
  }
  float inv = float(1.0 / sum);
  for (float& p : out) p *= inv;
}

}  // namespace jz
