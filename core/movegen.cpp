#include "movegen.h"

#include "geometry.h"

namespace jz {

bool MoveList::contains(Move m) const {
  for (int i = 0; i < size; ++i)
    if (moves[i] == m) return true;
  return false;
}

namespace {

// Pseudo-legal moves of the side to move into `out` (no pass). Returns the count written.
int generate_pseudo(const Position& pos, Move* out) {
  const geo::Tables& t = geo::tables();
  Color us = pos.side_to_move();
  int n = 0;
  auto own = [&](Square s) {
    Piece p = pos.piece_on(s);
    return p && color_of(p) == us;
  };
  for (int i = 0; i < pos.piece_count(us); ++i) {
    Square from = pos.piece_square(us, i);
    Piece p = pos.piece_on(from);
    switch (type_of(p)) {
      case GENERAL:
      case GUARD:
        for (int j = 0; j < t.palace_step_count[from]; ++j) {
          Square to = t.palace_step[from][j];
          if (!own(to)) out[n++] = Move(from, to);
        }
        break;
      case CHARIOT:
        for (int r = 0; r < t.ray_count[from]; ++r) {
          const geo::Ray& ray = t.rays[from][r];
          for (int j = 0; j < ray.len; ++j) {
            Square to = ray.sq[j];
            Piece q = pos.piece_on(to);
            if (!q) {
              out[n++] = Move(from, to);
              continue;
            }
            if (color_of(q) != us) out[n++] = Move(from, to);
            break;
          }
        }
        break;
      case CANNON:
        for (int r = 0; r < t.ray_count[from]; ++r) {
          const geo::Ray& ray = t.rays[from][r];
          int j = 0;
          while (j < ray.len && !pos.piece_on(ray.sq[j])) ++j;
          if (j == ray.len || type_of(pos.piece_on(ray.sq[j])) == CANNON) continue;
          for (++j; j < ray.len; ++j) {
            Square to = ray.sq[j];
            Piece q = pos.piece_on(to);
            if (!q) {
              out[n++] = Move(from, to);
              continue;
            }
            if (color_of(q) != us && type_of(q) != CANNON) out[n++] = Move(from, to);
            break;
          }
        }
        break;
      case HORSE:
        for (int j = 0; j < t.horse_count[from]; ++j) {
          const geo::Leap& l = t.horse[from][j];
          if (!pos.piece_on(l.block1) && !own(l.to)) out[n++] = Move(from, l.to);
        }
        break;
      case ELEPHANT:
        for (int j = 0; j < t.elephant_count[from]; ++j) {
          const geo::Leap& l = t.elephant[from][j];
          if (!pos.piece_on(l.block1) && !pos.piece_on(l.block2) && !own(l.to)) out[n++] = Move(from, l.to);
        }
        break;
      case SOLDIER:
        for (int j = 0; j < t.soldier_count[us][from]; ++j) {
          Square to = t.soldier[us][from][j];
          if (!own(to)) out[n++] = Move(from, to);
        }
        break;
      default:
        break;
    }
  }
  return n;
}

// Rule option soldier-promotion: every soldier move that ends on the far rank (forward onto it, or
// sideways along it) may also be made as a promotion to each type the side has lost: initial count
// (2 each) minus the pieces of that type on the board. Appends them after moves[0..n); returns the count.
int add_promotions(const Position& pos, Move* out, int n) {
  Color us = pos.side_to_move();
  const int far = us == CHO ? RANK_NB - 1 : 0;
  int lost[PIECE_TYPE_NB] = {}, end = n;
  bool counted = false;
  for (int i = 0; i < n; ++i) {
    Move m = out[i];
    if (rank_of(m.to()) != far || type_of(pos.piece_on(m.from())) != SOLDIER) continue;
    if (!counted) {
      for (PieceType t : {ELEPHANT, HORSE, CHARIOT, CANNON}) lost[t] = 2;
      for (int j = 0; j < pos.piece_count(us); ++j) --lost[type_of(pos.piece_on(pos.piece_square(us, j)))];
      counted = true;
    }
    for (PieceType t : {CHARIOT, CANNON, HORSE, ELEPHANT})
      if (lost[t] > 0) out[end++] = Move(m.from(), m.to(), t);
  }
  return end;
}

// Keeps the legal moves of `moves[0..n)`, appends a pass where legal; returns the new count.
int filter_legal(const Position& pos, Move* moves, int n) {
  const geo::Tables& t = geo::tables();
  Color us = pos.side_to_move();
  Square k = pos.king_square(us);
  bool careful = pos.in_check() || pos.in_bikjang();
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    Move m = moves[i];
    Square from = m.from(), to = m.to();
    // Without check or bikjang, a move can only expose the general by opening or closing a line
    // through it (cannon screens!) or unblocking a horse/elephant leap onto it.
    bool risky = careful || from == k || (t.danger[k][from] & 3) || (t.danger[k][to] & 1) || m.promotion();
    if (!risky || pos.legal_slow(m)) moves[kept++] = m;
  }
  if (!pos.in_check() || pos.in_bikjang()) moves[kept++] = Move(k, k);
  return kept;
}

}  // namespace

void generate_legal(const Position& pos, MoveList& out) {
  if (__builtin_expect(pos.xiangqi(), 0)) {  // Janggi is the hot path
    out.size = generate_legal_xiangqi(pos, out.moves);
    return;
  }
  int n = generate_pseudo(pos, out.moves);
  if (pos.options().has(RuleOptions::PROMOTION)) n = add_promotions(pos, out.moves, n);
  out.size = filter_legal(pos, out.moves, n);
}

int count_legal(const Position& pos) {
  Move buf[MoveList::CAPACITY];
  if (__builtin_expect(pos.xiangqi(), 0)) return generate_legal_xiangqi(pos, buf);
  int n = generate_pseudo(pos, buf);
  if (pos.options().has(RuleOptions::PROMOTION)) n = add_promotions(pos, buf, n);
  return filter_legal(pos, buf, n);
}

bool is_legal(const Position& pos, Move m) {
  if (m.is_none()) return false;
  MoveList list;
  generate_legal(pos, list);
  return list.contains(m);
}

}  // namespace jz
