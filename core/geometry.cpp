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

// Xiangqi: the river lies between ranks 5 and 6 (indexes 4 and 5).
bool own_half(int r, Color c) { return c == CHO ? r <= 4 : r >= 5; }

// Xiangqi lines: the four orthogonal rays only.
void build_xiangqi_rays(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s), n = 0;
  for (auto& d : ORTHOGONAL) {
    Ray ray{0, {}};
    for (int ff = f + d[0], rr = r + d[1]; on_board(ff, rr); ff += d[0], rr += d[1])
      ray.sq[ray.len++] = make_square(ff, rr);
    if (ray.len) t.rays[s][n++] = ray;
  }
  t.ray_count[s] = int8_t(n);
}

// Xiangqi elephants: two diagonal steps, blocked at the eye, staying on the half they stand on; the
// eye is both blocking points so the Janggi leap test serves unchanged.
void build_xiangqi_elephant(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s);
  t.elephant_count[s] = 0;
  for (auto& d : DIAGONAL) {
    int ef = f + 2 * d[0], er = r + 2 * d[1];
    if (!on_board(ef, er) || own_half(r, CHO) != own_half(er, CHO)) continue;
    Square eye = make_square(f + d[0], r + d[1]);
    t.elephant[s][t.elephant_count[s]++] = {make_square(ef, er), eye, eye};
  }
}

// Xiangqi general: orthogonal steps inside its palace; advisor: diagonal steps inside it.
void build_xiangqi_palace_steps(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s);
  t.palace_step_count[s] = t.advisor_step_count[s] = 0;
  if (!any_palace(s)) return;
  auto same_palace = [&](int ff, int rr) {
    return on_board(ff, rr) && palace_of(make_square(ff, rr), CHO) == palace_of(s, CHO) &&
           palace_of(make_square(ff, rr), HAN) == palace_of(s, HAN);
  };
  for (auto& d : ORTHOGONAL)
    if (same_palace(f + d[0], r + d[1])) t.palace_step[s][t.palace_step_count[s]++] = make_square(f + d[0], r + d[1]);
  for (auto& d : DIAGONAL)
    if (same_palace(f + d[0], r + d[1])) t.advisor_step[s][t.advisor_step_count[s]++] = make_square(f + d[0], r + d[1]);
}

// Xiangqi soldiers: forward; sideways too once across the river; never back.
void build_xiangqi_soldier(Tables& t, Square s) {
  int f = file_of(s), r = rank_of(s);
  for (int c = 0; c < 2; ++c) {
    int fwd = c == CHO ? 1 : -1;
    int8_t& k = t.soldier_count[c][s];
    k = 0;
    if (on_board(f, r + fwd)) t.soldier[c][s][k++] = make_square(f, r + fwd);
    if (own_half(r, Color(c))) continue;
    if (f > 0) t.soldier[c][s][k++] = make_square(f - 1, r);
    if (f < 8) t.soldier[c][s][k++] = make_square(f + 1, r);
  }
}

void build(Tables& t, GameKind g) {
  for (Square s = 0; s < SQUARE_NB; ++s) {
    for (int c = 0; c < 2; ++c) t.in_palace[c][s] = palace_of(s, Color(c));
    build_leaps(t, s);  // the horse's leaps are the same in both games
    if (g == GameKind::XIANGQI) {
      build_xiangqi_rays(t, s);
      build_xiangqi_elephant(t, s);
      build_xiangqi_palace_steps(t, s);
      build_xiangqi_soldier(t, s);
    } else {
      build_rays(t, s);
      build_palace_steps(t, s);
      build_soldier_steps(t, s);
      t.advisor_step_count[s] = 0;
    }
  }
  build_reverse(t);
  build_danger(t);
}

const Tables* make_tables(GameKind g) {
  auto* p = new Tables();
  build(*p, g);
  return p;
}

}  // namespace

const Tables& tables() {
  static const Tables* t = make_tables(GameKind::JANGGI);
  return *t;
}

const Tables& xiangqi_tables() {
  static const Tables* t = make_tables(GameKind::XIANGQI);
  return *t;
}

}  // namespace jz::geo
