// Xiangqi's legal moves: its own piece steps (geo::xiangqi_tables) and cannon rule, no pass; the
// same fast legality filter as Janggi's, with facing generals counted as an attack along the file.
#include "geometry.h"
#include "movegen.h"

namespace jz {

namespace {

int generate_pseudo_xiangqi(const Position& pos, Move* out) {
  const geo::Tables& t = geo::xiangqi_tables();
  Color us = pos.side_to_move();
  int n = 0;
  auto own = [&](Square s) {
    Piece p = pos.piece_on(s);
    return p && color_of(p) == us;
  };
  auto steps = [&](Square from, const Square* to, int count) {
    for (int j = 0; j < count; ++j)
      if (!own(to[j])) out[n++] = Move(from, to[j]);
  };
  for (int i = 0; i < pos.piece_count(us); ++i) {
    Square from = pos.piece_square(us, i);
    switch (type_of(pos.piece_on(from))) {
      case GENERAL:
        steps(from, t.palace_step[from], t.palace_step_count[from]);
        break;
      case GUARD:
        steps(from, t.advisor_step[from], t.advisor_step_count[from]);
        break;
      case SOLDIER:
        steps(from, t.soldier[us][from], t.soldier_count[us][from]);
        break;
      case CHARIOT:
      case CANNON: {
        bool cannon = type_of(pos.piece_on(from)) == CANNON;
        for (int r = 0; r < t.ray_count[from]; ++r) {
          const geo::Ray& ray = t.rays[from][r];
          int j = 0;
          for (; j < ray.len && !pos.piece_on(ray.sq[j]); ++j) out[n++] = Move(from, ray.sq[j]);
          if (j == ray.len) continue;
          if (!cannon) {
            if (!own(ray.sq[j])) out[n++] = Move(from, ray.sq[j]);
            continue;
          }
          for (++j; j < ray.len; ++j)  // over the screen: the first piece beyond, if it is the enemy's
            if (pos.piece_on(ray.sq[j])) {
              if (!own(ray.sq[j])) out[n++] = Move(from, ray.sq[j]);
              break;
            }
        }
        break;
      }
      case HORSE:
        for (int j = 0; j < t.horse_count[from]; ++j) {
          const geo::Leap& l = t.horse[from][j];
          if (!pos.piece_on(l.block1) && !own(l.to)) out[n++] = Move(from, l.to);
        }
        break;
      case ELEPHANT:
        for (int j = 0; j < t.elephant_count[from]; ++j) {
          const geo::Leap& l = t.elephant[from][j];
          if (!pos.piece_on(l.block1) && !own(l.to)) out[n++] = Move(from, l.to);
        }
        break;
      default:
        break;
    }
  }
  return n;
}

}  // namespace

int generate_legal_xiangqi(const Position& pos, Move* moves) {
  const geo::Tables& t = geo::xiangqi_tables();
  Square k = pos.king_square(pos.side_to_move());
  if (k == NO_SQUARE) return 0;  // the general was captured (only from a FEN whose mover gave check)
  int n = generate_pseudo_xiangqi(pos, moves);
  bool careful = pos.in_check();
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    Move m = moves[i];
    // Out of check a move can only expose the general by opening or closing a line through it (its
    // file included: facing generals, cannon screens) or by unblocking a horse's leg.
    bool risky = careful || m.from() == k || (t.danger[k][m.from()] & 3) || (t.danger[k][m.to()] & 1);
    if (!risky || pos.legal_slow(m)) moves[kept++] = m;
  }
  return kept;
}

}  // namespace jz
