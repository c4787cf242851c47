#include "nn/policy_map.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "core/geometry.h"

namespace jz {
PolicyMap::PolicyMap(GameKind game) : game_(game) {
  const geo::Tables& t = geo::tables(game);
  const bool pass = game == GameKind::JANGGI;
  bool reach[SQUARE_NB][SQUARE_NB] = {};
  // Lines (chariot, cannon; they contain every general and soldier step, and Janggi's guard steps and
  // palace diagonals), then horse and elephant leaps, palace and advisor steps, soldiers of both colors.
  for (Square s = 0; s < SQUARE_NB; ++s) {
    for (int r = 0; r < t.ray_count[s]; ++r)
      for (int i = 0; i < t.rays[s][r].len; ++i) reach[s][t.rays[s][r].sq[i]] = true;
    for (int i = 0; i < t.horse_count[s]; ++i) reach[s][t.horse[s][i].to] = true;
    // Every square of a half or palace: a FEN may put an elephant or advisor anywhere the rules allow.
    for (int i = 0; i < t.elephant_count[s]; ++i) reach[s][t.elephant[s][i].to] = true;
    for (int i = 0; i < t.palace_step_count[s]; ++i) reach[s][t.palace_step[s][i]] = true;
    for (int i = 0; i < t.advisor_step_count[s]; ++i) reach[s][t.advisor_step[s][i]] = true;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < t.soldier_count[c][s]; ++i) reach[s][t.soldier[c][s][i]] = true;
  }
  const int expected = game == GameKind::JANGGI ? POLICY_SIZE : XIANGQI_POLICY_SIZE;
  int n = 0;
  for (Square a = 0; a < SQUARE_NB; ++a)
    for (Square b = 0; b < SQUARE_NB; ++b) {
      index_[a][b] = -1;
      if (!reach[a][b]) continue;
      if (n >= MAX_POLICY_SIZE - 1) throw std::logic_error("policy map: more pairs than MAX_POLICY_SIZE");
      index_[a][b] = int16_t(n);
      from_[n] = a;
      to_[n] = b;
      ++n;
    }
  pairs_ = n;
  size_ = n + pass;
  if (size_ != expected) throw std::logic_error(std::string("policy map of ") + game_name(game) + ": " + std::to_string(size_) + " outputs, expected " +
                                                std::to_string(expected));
  if (pass) {
    pass_index_ = n;
    from_[n] = to_[n] = NO_SQUARE;
    mirror_[n] = int16_t(n);
  }
  for (int i = 0; i < pairs_; ++i) {
    int m = index_[mirror_square(from_[i])][mirror_square(to_[i])];
    if (m < 0) throw std::logic_error("policy map: not mirror symmetric");
    mirror_[i] = int16_t(m);
  }
}

const PolicyMap& policy_map(GameKind game) {
  static const PolicyMap janggi(GameKind::JANGGI), xiangqi(GameKind::XIANGQI);
  return game == GameKind::XIANGQI ? xiangqi : janggi;
}

int PolicyMap::index(Move m, Color stm) const {
  if (m.is_pass()) return pass_index_;
  Square a = m.from(), b = m.to();
  if (a < 0 || a >= SQUARE_NB || b < 0 || b >= SQUARE_NB) return -1;
  if (stm == HAN) {
    a = flip_square(a);
    b = flip_square(b);
  }
  return index_[a][b];
}

Move PolicyMap::move(int index, Color stm, Square general_square) const {
  if (index < 0 || index >= size_) return Move::none();
  if (index == pass_index_) return Move(general_square, general_square);
  Square a = from_[index], b = to_[index];
  if (stm == HAN) {
    a = flip_square(a);
    b = flip_square(b);
  }
  return Move(a, b);
}

Move PolicyMap::move(int index, const Position& pos) const {
  return move(index, pos.side_to_move(), pos.king_square(pos.side_to_move()));
}

int PolicyMap::mirror(int index) const { return index >= 0 && index < size_ ? mirror_[index] : -1; }

void PolicyMap::squares(int index, Square& from, Square& to) const {
  from = from_[index];
  to = to_[index];
}

void masked_policy(const float* logits, const Position& pos, const MoveList& moves, std::vector<float>& out) {
  const PolicyMap& map = policy_map(pos.game());
  const Color stm = pos.side_to_move();
  out.resize(moves.size);
  float mx = -INFINITY;
  for (int i = 0; i < moves.size; ++i) {
    int k = map.index(moves[i], stm);
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
