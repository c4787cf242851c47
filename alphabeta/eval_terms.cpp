// The tuned evaluation: one template walks the position's terms; an accumulator either sums weights
// (the engine) or records the terms (the tuner), so the two can never disagree.
#include "alphabeta/eval_terms.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "alphabeta/eval.h"
#include "alphabeta/reach.h"
#include "core/geometry.h"
#include "core/rules.h"

namespace jz::ab {

namespace {

constexpr int PHASE_FULL = 124;  // points of guards, elephants, horses, chariots and cannons in the setup

inline Square rel(Color c, Square s) { return c == CHO ? s : flip_square(s); }

// The nine squares of each side's palace.
struct PalaceSquares {
  Square sq[2][9];
  PalaceSquares() {
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < 9; ++i) sq[c][i] = rel(Color(c), make_square(3 + i % 3, i / 3));
  }
};
const PalaceSquares PALACE_SQUARES;

// A cannon with exactly one screen (in Janggi not a cannon) between it and the enemy general.
bool cannon_loaded(const Position& pos, Square from, Square target) {
  const bool xiangqi = pos.xiangqi();
  const geo::Tables& g = geo::tables(pos.game());
  if (!(g.danger[target][from] & 1)) return false;  // not on a line through the general
  for (int r = 0; r < g.ray_count[from]; ++r) {
    const geo::Ray& ray = g.rays[from][r];
    int j = 0;
    while (j < ray.len && !pos.piece_on(ray.sq[j])) ++j;
    if (j == ray.len || (!xiangqi && type_of(pos.piece_on(ray.sq[j])) == CANNON)) continue;
    for (++j; j < ray.len; ++j)
      if (pos.piece_on(ray.sq[j])) {
        if (ray.sq[j] == target) return true;
        break;
      }
  }
  return false;
}

// No own piece in front of the general on its file (a chariot or cannon can reach it from afar).
bool open_file(const Position& pos, Color c) {
  Square k = pos.king_square(c);
  int f = file_of(k), step = c == CHO ? 1 : -1;
  for (int r = rank_of(k) + step; r >= 0 && r < RANK_NB; r += step) {
    Piece p = pos.piece_on(make_square(f, r));
    if (p) return color_of(p) != c;
  }
  return true;
}

// Squares each side attacks (or defends: own pieces count), with the cheapest attacker's value.
struct AttackMap {
  uint8_t count[2][SQUARE_NB];
  int16_t cheapest[2][SQUARE_NB];
  AttackMap() {
    std::memset(count, 0, sizeof count);
    for (auto& side : cheapest)
      for (int16_t& v : side) v = INT16_MAX;
  }
  void mark(Color c, Square s, int value) {
    ++count[c][s];
    cheapest[c][s] = int16_t(std::min<int>(cheapest[c][s], value));
  }
};

// Marks the squares the piece on `from` attacks or defends; returns its mobility (empty or enemy squares).
int reach(const Position& pos, Square from, PieceType t, Color us, AttackMap& am) {
  const int value = PIECE_CP[t] ? PIECE_CP[t] : 10000;
  int n = 0;
  for_each_reach(pos, from, t, us, [&](Square to) {
    am.mark(us, to, value);
    Piece q = pos.piece_on(to);
    n += !q || color_of(q) != us;
  });
  return n;
}

// Pieces in or next to each side's palace, or lined up on its general's file from afar: their terms,
// added at the end scaled by how many attackers gang up.
struct PalaceThreats {
  int attackers[2] = {0, 0};  // attackers[c]: enemy pieces in or next to c's palace
  int terms[2][16], n[2] = {0, 0};

  // The enemy piece of type t on rank r (its own view), dc files from the centre, facing c's palace.
  void note(Color c, PieceType t, int r, int dc, bool on_king_file) {
    if (r >= 7 && dc <= 1) {
      terms[c][n[c]++] = T_THREAT_IN + t;
      ++attackers[c];
    } else if (r >= 6 && dc <= 2) {
      terms[c][n[c]++] = T_THREAT_NEAR + t;
      ++attackers[c];
    } else if ((t == CHARIOT || t == CANNON) && on_king_file) {
      terms[c][n[c]++] = T_FILE_PRESSURE + t;
    }
  }

  // Threats against c's palace help the other side.
  template <class Acc>
  void add_to(Acc& acc) const {
    for (int ci = 0; ci < 2; ++ci) {
      int scale = THREAT_SCALE[std::min(attackers[ci], 7)] * (ci == CHO ? -1 : 1);
      for (int i = 0; i < n[ci]; ++i) acc.add(terms[ci][i], scale);
    }
  }
};

// What one side's pieces add up to for the side's own terms.
struct SideCounts {
  int cannons = 0, guards_near = 0, defenders = 0, connected = 0;
};

// Own soldiers beside the soldier on s.
int soldier_neighbours(const Position& pos, Square s, Color c) {
  int n = 0;
  for (int df : {-1, 1}) {
    int nf = file_of(s) + df;
    Piece q = nf >= 0 && nf < FILE_NB ? pos.piece_on(make_square(nf, rank_of(s))) : NO_PIECE;
    n += q && color_of(q) == c && type_of(q) == SOLDIER;
  }
  return n;
}

// The terms of each piece of c (square table, material, threats, mobility, piece kinds); adds the
// phase points of its pieces to phase_pts.
template <class Acc>
inline SideCounts piece_terms(const Position& pos, Acc& acc, const AttackMap& am, const int* moves, Color c,
                              int& phase_pts, PalaceThreats& threats) {
  const geo::Tables& g = geo::tables(pos.game());
  const int total = pos.piece_count(CHO) + pos.piece_count(HAN);
  Color them = ~c;
  int one = c == CHO ? COUNT_ONE : -COUNT_ONE;
  Square our_king = rel(c, pos.king_square(c)), their_king = pos.king_square(them);
  SideCounts n;
  for (int i = 0; i < pos.piece_count(c); ++i) {
    Square s = pos.piece_square(c, i);
    PieceType t = type_of(pos.piece_on(s));
    Square rs = rel(c, s);
    int r = rank_of(rs), f = file_of(rs), dc = std::abs(f - 4);
    acc.add(T_PST + t * PST_SIZE + pst_index(r, f), one);
    if (t == GENERAL) continue;
    acc.add(T_MATERIAL + t, one);
    if (t != SOLDIER) phase_pts += PIECE_POINTS[t];
    if (g.in_palace[c][s]) ++n.defenders;
    // Threats: a piece attacked by a cheaper one, or attacked and not defended.
    if (am.count[them][s]) {
      if (am.cheapest[them][s] < PIECE_CP[t])
        acc.add(T_ATTACKED_BY_LESSER + t, one);
      else if (!am.count[c][s])
        acc.add(T_HANGING + t, one);
    }
    if (t >= ELEPHANT && t <= CANNON) {
      int m = moves[i];
      acc.add(T_MOBILITY + t, one * m);
      if (m < 2) acc.add(T_LOW_MOBILITY + t, one * (2 - m));
    }
    if (t == CANNON) {
      ++n.cannons;
      acc.add(T_CANNON_CROWD, one * (total - 18));
      if (cannon_loaded(pos, s, their_king)) acc.add(T_CANNON_LOADED, one);
    } else if (t == GUARD) {
      if (std::abs(f - file_of(our_king)) <= 1 && std::abs(r - rank_of(our_king)) <= 1) ++n.guards_near;
    } else if (t == SOLDIER) {
      n.connected += soldier_neighbours(pos, s, c);
    }
    if (t >= HORSE) threats.note(them, t, r, dc, file_of(s) == file_of(their_king));
  }
  return n;
}

// The terms of c as a whole: piece kinds counted over its pieces, its general's file, its palace.
template <class Acc>
inline void side_terms(const Position& pos, Acc& acc, const AttackMap& am, Color c, const SideCounts& n) {
  Color them = ~c;
  int one = c == CHO ? COUNT_ONE : -COUNT_ONE;
  if (n.cannons == 2) acc.add(T_CANNON_PAIR, one);
  acc.add(T_GUARDS_NEAR, one * std::min(n.guards_near, 2));
  acc.add(T_PALACE_DEFENDERS, one * n.defenders);
  acc.add(T_SOLDIER_CONNECTED, one * n.connected);
  if (open_file(pos, c)) acc.add(T_OPEN_FILE, one);
  int palace_attacks = 0, palace_weak = 0;
  for (Square s : PALACE_SQUARES.sq[c]) {
    palace_attacks += am.count[them][s];
    palace_weak += am.count[them][s] && !am.count[c][s];
  }
  acc.add(T_PALACE_ATTACKS, one * palace_attacks);
  acc.add(T_PALACE_WEAK, one * palace_weak);
}

template <class Acc>
int walk_terms(const Position& pos, Acc& acc) {
  AttackMap am;
  int moves[2][16];  // mobility of each piece, in piece list order
  for (int ci = 0; ci < 2; ++ci)
    for (int i = 0; i < pos.piece_count(Color(ci)); ++i) {
      Square s = pos.piece_square(Color(ci), i);
      moves[ci][i] = reach(pos, s, type_of(pos.piece_on(s)), Color(ci), am);
    }
  int phase_pts = 0;
  PalaceThreats threats;
  for (int ci = 0; ci < 2; ++ci) {
    SideCounts n = piece_terms(pos, acc, am, moves[ci], Color(ci), phase_pts, threats);
    side_terms(pos, acc, am, Color(ci), n);
  }
  threats.add_to(acc);
  if (ruleset_info(pos.ruleset()).counting) acc.add(T_HAN_BONUS, -COUNT_ONE);
  acc.add(T_TEMPO, pos.side_to_move() == CHO ? COUNT_ONE : -COUNT_ONE);
  return std::min(PHASE_MAX, phase_pts * PHASE_MAX / PHASE_FULL);
}

struct ScoreAcc {
  const EvalWeights& w;
  int mg = 0, eg = 0;
  void add(int term, int n) {
    mg += w.mg[term] * n;
    eg += w.eg[term] * n;
  }
};

struct TraceAcc {
  EvalTrace& t;
  void add(int term, int n) {
    if (n) t.terms.push_back({term, n});
  }
};

}  // namespace

int eval_cho(const Position& pos, const EvalWeights& w) {
  ScoreAcc acc{w};
  int phase = walk_terms(pos, acc);
  int64_t v = int64_t(acc.mg) * phase + int64_t(acc.eg) * (PHASE_MAX - phase);
  return int(v / (PHASE_MAX * COUNT_ONE));
}

void trace_terms(const Position& pos, EvalTrace& out) {
  out.terms.clear();
  TraceAcc acc{out};
  out.phase = walk_terms(pos, acc);
  // Merge repeated terms (one entry per term keeps the tuner's gradient cheap).
  std::sort(out.terms.begin(), out.terms.end());
  size_t k = 0;
  for (size_t i = 0; i < out.terms.size(); ++i) {
    if (k && out.terms[k - 1].first == out.terms[i].first)
      out.terms[k - 1].second += out.terms[i].second;
    else
      out.terms[k++] = out.terms[i];
  }
  out.terms.resize(k);
  out.terms.erase(std::remove_if(out.terms.begin(), out.terms.end(), [](auto& p) { return p.second == 0; }),
                  out.terms.end());
}

double trace_score(const EvalTrace& t, const double* mg, const double* eg) {
  double a = double(t.phase) / PHASE_MAX, sum = 0;
  for (auto& [term, n] : t.terms) sum += n * (mg[term] * a + eg[term] * (1 - a));
  return sum / COUNT_ONE;
}

std::string term_name(int term) {
  static const char* PIECE[PIECE_TYPE_NB] = {"-",     "general", "guard",  "elephant",
                                             "horse", "chariot", "cannon", "soldier"};
  struct Block {
    int begin, size;
    const char* name;
  };
  static const Block BLOCKS[] = {{T_MATERIAL, PIECE_TYPE_NB, "material"},
                                 {T_MOBILITY, PIECE_TYPE_NB, "mobility"},
                                 {T_LOW_MOBILITY, PIECE_TYPE_NB, "low_mobility"},
                                 {T_THREAT_IN, PIECE_TYPE_NB, "threat_in_palace"},
                                 {T_THREAT_NEAR, PIECE_TYPE_NB, "threat_near_palace"},
                                 {T_FILE_PRESSURE, PIECE_TYPE_NB, "file_pressure"},
                                 {T_HANGING, PIECE_TYPE_NB, "hanging"},
                                 {T_ATTACKED_BY_LESSER, PIECE_TYPE_NB, "attacked_by_lesser"}};
  if (term >= T_PST && term < T_PST + PIECE_TYPE_NB * PST_SIZE) {
    int i = term - T_PST, sq = i % PST_SIZE;
    return std::string("pst[") + PIECE[i / PST_SIZE] + "][r" + std::to_string(sq / 5) + " d" + std::to_string(sq % 5) +
           "]";
  }
  for (const Block& b : BLOCKS)
    if (term >= b.begin && term < b.begin + b.size) return std::string(b.name) + "[" + PIECE[term - b.begin] + "]";
  static const char* SINGLE[] = {"cannon_crowd",      "cannon_pair", "cannon_loaded",  "guards_near",
                                 "palace_defenders",  "open_file",   "palace_attacks", "palace_weak",
                                 "soldier_connected", "han_bonus",   "tempo"};
  if (term >= T_CANNON_CROWD && term < TERM_NB) return SINGLE[term - T_CANNON_CROWD];
  return "?";
}

}  // namespace jz::ab
