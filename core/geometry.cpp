#include "geometry.h"

#include <cstdlib>

namespace jz::geo {
namespace {

bool on_board(int f, int r) { return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB; }

bool palace_of(Square s, Color c) {
  int f = file_of(s), r = rank_of(s);
  return f >= 3 && f <= 5 && (c == CHO ? r <= 2 : r >= 7);
}
bool any_palace(Square s) { return palace_of(s, CHO) || palace_of(s, HAN); }

// Palace diagonal points: corners and centres of both palaces.
bool diagonal_point(Square s) {
  if (!any_palace(s)) return false;
  int f = file_of(s), r = rank_of(s) % 7;  // rank in palace 0..2 (Han palace 7..9 -> 0..2)
  return (f == 4 && r == 1) || ((f == 3 || f == 5) && (r == 0 || r == 2));
}

// Diagonal step inside the same palace along a drawn line.
bool diagonal_step(Square a, int df, int dr, Square& out) {
  int f = file_of(a) + df, r = rank_of(a) + dr;
  if (!on_board(f, r) || !diagonal_point(a)) return false;
  Square b = make_square(f, r);
  if (!diagonal_point(b)) return false;
  if (palace_of(a, CHO) != palace_of(b, CHO) || palace_of(a, HAN) != palace_of(b, HAN)) return false;
  out = b;
  return true;
}

constexpr int ORTHOGONAL[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
constexpr int DIAGONAL[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Rays from s: the four orthogonal lines, then the palace diagonals along the drawn lines.
void build_rays(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s), n = 0;
  for (auto& d : ORTHOGONAL) {
    Ray ray{0, {}};
    for (int ff = f + d[0], rr = r + d[1]; on_board(ff, rr); ff += d[0], rr += d[1])
      ray.sq[ray.len++] = make_square(ff, rr);
    if (ray.len) t.rays[s][n++] = ray;
  }
  for (auto& d : DIAGONAL) {
    Ray ray{0, {}};
    Square cur = s, nxt;
    while (diagonal_step(cur, d[0], d[1], nxt)) {
      ray.sq[ray.len++] = nxt;
      cur = nxt;
    }
    if (ray.len) t.rays[s][n++] = ray;
  }
  t.ray_count[s] = int8_t(n);
}

// Horse: orthogonal step then diagonal outward; the elephant one diagonal step further.
void build_leaps(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s);
  t.horse_count[s] = 0;
  t.elephant_count[s] = 0;
  for (auto& d : ORTHOGONAL) {
    int bf = f + d[0], br = r + d[1];
    if (!on_board(bf, br)) continue;
    for (int side = -1; side <= 1; side += 2) {
      int df = d[0] ? d[0] : side, dr = d[1] ? d[1] : side;
      int hf = bf + df, hr = br + dr;
      if (on_board(hf, hr)) t.horse[s][t.horse_count[s]++] = {make_square(hf, hr), make_square(bf, br), NO_SQUARE};
      int ef = hf + df, er = hr + dr;
      if (on_board(hf, hr) && on_board(ef, er))
        t.elephant[s][t.elephant_count[s]++] = {make_square(ef, er), make_square(bf, br), make_square(hf, hr)};
    }
  }
}

// General's and guards' steps: orthogonal within the same palace, and along its drawn diagonals.
void build_palace_steps(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s);
  t.palace_step_count[s] = 0;
  if (!any_palace(s)) return;
  for (auto& d : ORTHOGONAL) {
    int ff = f + d[0], rr = r + d[1];
    if (on_board(ff, rr) && any_palace(make_square(ff, rr)) && palace_of(s, CHO) == palace_of(make_square(ff, rr), CHO))
      t.palace_step[s][t.palace_step_count[s]++] = make_square(ff, rr);
  }
  for (auto& d : DIAGONAL) {
    Square b;
    if (diagonal_step(s, d[0], d[1], b)) t.palace_step[s][t.palace_step_count[s]++] = b;
  }
}

// Soldiers: forward or sideways; forward along a drawn diagonal inside either palace (in its own
// palace a soldier only stands after a FEN set-up, and the reference engine allows the step there).
// Soldier attacks are single steps that nothing can block, so the danger map needs no soldier
// entries: moving another piece never opens or closes a soldier's attack on the general.
void build_soldier_steps(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s);
  for (int c = 0; c < 2; ++c) {
    int fwd = c == CHO ? 1 : -1;
    int8_t& k = t.soldier_count[c][s];
    k = 0;
    if (on_board(f, r + fwd)) t.soldier[c][s][k++] = make_square(f, r + fwd);
    if (f > 0) t.soldier[c][s][k++] = make_square(f - 1, r);
    if (f < 8) t.soldier[c][s][k++] = make_square(f + 1, r);
    if (any_palace(s)) {
      Square b;
      for (int df = -1; df <= 1; df += 2)
        if (diagonal_step(s, df, fwd, b)) t.soldier[c][s][k++] = b;
    }
  }
}

// Reverse tables: the squares a horse, an elephant or a soldier leaps or steps from onto each square.
void build_reverse(Tables& t) {
  for (Square s = 0; s < SQUARE_NB; ++s) {
    t.horse_from_count[s] = t.elephant_from_count[s] = 0;
    t.soldier_from_count[0][s] = t.soldier_from_count[1][s] = 0;
  }
  for (Square s = 0; s < SQUARE_NB; ++s) {
    for (int i = 0; i < t.horse_count[s]; ++i) {
      Leap l = t.horse[s][i];
      t.horse_from[l.to][t.horse_from_count[l.to]++] = {s, l.block1, NO_SQUARE};
    }
    for (int i = 0; i < t.elephant_count[s]; ++i) {
      Leap l = t.elephant[s][i];
      t.elephant_from[l.to][t.elephant_from_count[l.to]++] = {s, l.block1, l.block2};
    }
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < t.soldier_count[c][s]; ++i) {
        Square to = t.soldier[c][s][i];
        t.soldier_from[c][to][t.soldier_from_count[c][to]++] = s;
      }
  }
}

// Danger masks per general's square: 1 on its lines, 2 on the blocking points of leaps onto it.
void build_danger(Tables& t) {
  for (Square k = 0; k < SQUARE_NB; ++k) {
    for (Square s = 0; s < SQUARE_NB; ++s) t.danger[k][s] = 0;
    for (int i = 0; i < t.ray_count[k]; ++i)
      for (int j = 0; j < t.rays[k][i].len; ++j) t.danger[k][t.rays[k][i].sq[j]] |= 1;
    for (int i = 0; i < t.horse_from_count[k]; ++i) t.danger[k][t.horse_from[k][i].block1] |= 2;
    for (int i = 0; i < t.elephant_from_count[k]; ++i) {
      t.danger[k][t.elephant_from[k][i].block1] |= 2;
      t.danger[k][t.elephant_from[k][i].block2] |= 2;
    }
  }
}

void build(Tables& t) {
  for (Square s = 0; s < SQUARE_NB; ++s) {
    for (int c = 0; c < 2; ++c) t.in_palace[c][s] = palace_of(s, Color(c));
    build_rays(t, s);
    build_leaps(t, s);
    build_palace_steps(t, s);
    build_soldier_steps(t, s);
  }
  build_reverse(t);
  build_danger(t);
}

}  // namespace

const Tables& tables() {
  static const Tables* t = [] {
    auto* p = new Tables();
    build(*p);
    return p;
  }();
  return *t;
}

}  // namespace jz::geo
