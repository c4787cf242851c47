#include "position.h"

#include <cctype>
#include <cstring>
#include <sstream>

#include "geometry.h"
#include "notation.h"
#include "util/random.h"

namespace jz {

namespace {

struct ZobristTable {
  uint64_t piece[16][SQUARE_NB];
  uint64_t side;
  ZobristTable() {
    uint64_t s = GOLDEN_GAMMA;  // a fixed seed: keys are stable across runs and builds
    auto next = [&s] { return splitmix64(s); };
    for (auto& p : piece)
      for (auto& k : p) k = next();
    side = next();
  }
};
const ZobristTable& Z() {
  static const ZobristTable z;
  return z;
}

const char PIECE_CHARS[] = " KABNRCP";

}  // namespace

namespace zobrist {
uint64_t piece(Piece p, Square s) { return Z().piece[p][s]; }
uint64_t side() { return Z().side; }
}  // namespace zobrist

Position::Position() {
  std::string err;
  set_fen(START_FEN, Ruleset::JANGGI, &err);
}

Position::Position(EmptyTag) : side_(CHO), rules_(Ruleset::JANGGI), start_ply_(0) {
  std::memset(board_, 0, sizeof board_);
  std::memset(index_, 0, sizeof index_);
  count_[0] = count_[1] = 0;
  king_[0] = king_[1] = NO_SQUARE;
  material_[0] = material_[1] = 0;
}

void Position::put(Square s, Piece p) {
  Color c = color_of(p);
  board_[s] = p;
  index_[s] = count_[c];
  list_[c][count_[c]++] = s;
  material_[c] += PIECE_POINTS[type_of(p)];
  if (type_of(p) == GENERAL) king_[c] = s;
}

void Position::remove(Square s) {
  Piece p = board_[s];
  Color c = color_of(p);
  Square last = list_[c][--count_[c]];
  index_[last] = index_[s];
  list_[c][index_[s]] = last;
  board_[s] = NO_PIECE;
  material_[c] -= PIECE_POINTS[type_of(p)];
  if (type_of(p) == GENERAL) king_[c] = NO_SQUARE;  // Xiangqi from a FEN whose mover gives check
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Color c = color_of(p);
  board_[to] = p;
  board_[from] = NO_PIECE;
  index_[to] = index_[from];
  list_[c][index_[to]] = to;
  if (type_of(p) == GENERAL) king_[c] = to;
}

bool Position::set_fen(const std::string& fen, Ruleset rules, std::string* error) {
  return set_fen(fen, rules, RuleOptions{}, error);
}

namespace {

// The FEN fields after the side to move: two ignored (castling, en passant), then the halfmove clock and
// the move number, each optional.
bool read_counters(std::istringstream& in, int& half, int& full, std::string& why) {
  std::string f3, f4, h, fl;
  if (in >> f3 && in >> f4 && in >> h) {
    try {
      half = std::stoi(h);
    } catch (...) {
      return why = "bad halfmove clock '" + h + "'", false;
    }
    if (in >> fl) {
      try {
        full = std::stoi(fl);
      } catch (...) {
        return why = "bad move number '" + fl + "'", false;
      }
    }
  }
  if (half < 0 || half > 10000 || full < 1 || full > 100000) return why = "move counters out of range", false;
  return true;
}

}  // namespace

bool Position::set_fen(const std::string& fen, Ruleset rules, RuleOptions options, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "invalid FEN '" + fen + "': " + why;
    return false;
  };
  std::istringstream in(fen);
  std::string placement, side, why;
  int half = 0, full = 1;
  if (!(in >> placement)) return fail("empty");
  if (!(in >> side)) side = "w";
  if (!read_counters(in, half, full, why)) return fail(why);
  if (options.any() && game_of(rules) != GameKind::JANGGI) return fail("rule options are janggi's, not " + std::string(ruleset_name(rules)) + "'s");

  Position p{EmptyTag{}};
  int rank = RANK_NB - 1, file = 0;
  for (char ch : placement) {
    if (ch == '/') {
      if (file != FILE_NB) return fail("rank " + std::to_string(rank + 1) + " does not have 9 files");
      if (--rank < 0) return fail("more than 10 ranks");
      file = 0;
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      if (ch == '0') return fail("digit 0 in placement");
      // "10"-style multi-digit runs are not used on a 9-file board.
      file += ch - '0';
      if (file > FILE_NB) return fail("rank " + std::to_string(rank + 1) + " has more than 9 files");
    } else {
      PieceType t = piece_type_from_letter(ch);
      if (t == NO_PIECE_TYPE) return fail(std::string("unknown piece letter '") + ch + "'");
      if (file >= FILE_NB) return fail("rank " + std::to_string(rank + 1) + " has more than 9 files");
      Color c = std::isupper(static_cast<unsigned char>(ch)) ? CHO : HAN;
      if (t == GENERAL && p.king_[c] != NO_SQUARE) return fail("two generals of one side");
      if (p.count_[c] >= 16) return fail("more than 16 pieces of one side");
      Square s = make_square(file, rank);
      if ((t == GENERAL || t == GUARD) && !geo::tables().in_palace[c][s])
        return fail(std::string(t == GENERAL ? "general" : "guard") + " outside its palace");
      if (t == ELEPHANT && rules == Ruleset::XIANGQI && (c == CHO ? rank > 4 : rank < 5))
        return fail("elephant across the river");
      p.put(s, make_piece(c, t));
      ++file;
    }
  }
  if (rank != 0 || file != FILE_NB) return fail("expected 10 ranks of 9 files");
  if (p.king_[CHO] == NO_SQUARE || p.king_[HAN] == NO_SQUARE) return fail("each side needs one general");
  if (side == "w" || side == "r")
    p.side_ = CHO;
  else if (side == "b")
    p.side_ = HAN;
  else
    return fail("side to move must be 'w' or 'b'");
  p.rules_ = rules;
  p.options_ = options;
  p.start_ply_ = 2 * (full - 1) + (p.side_ == HAN);
  StateInfo s0;
  for (Square s = 0; s < SQUARE_NB; ++s)
    if (p.board_[s]) s0.key ^= zobrist::piece(p.board_[s], s);
  if (p.side_ == HAN) s0.key ^= zobrist::side();
  s0.rule50 = uint16_t(half);
  s0.check = p.attacked(p.king_[p.side_], ~p.side_);
  s0.facing = p.compute_facing();
  // The Xiangqi reference takes such a FEN: the mover may capture the general, and a side without one has
  // no move (docs/xiangqi.md).
  if (p.attacked(p.king_[~p.side_], p.side_) && rules != Ruleset::XIANGQI) return fail("the side to move gives check");
  p.states_.clear();
  p.states_.reserve(256);
  p.states_.push_back(s0);
  *this = std::move(p);
  return true;
}

std::string Position::fen() const {
  std::string s;
  for (int r = RANK_NB - 1; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < FILE_NB; ++f) {
      Piece p = board_[make_square(f, r)];
      if (!p) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      char ch = PIECE_CHARS[type_of(p)];
      s += color_of(p) == CHO ? ch : char(std::tolower(ch));
    }
    if (empty) s += char('0' + empty);
    if (r) s += '/';
  }
  s += side_ == CHO ? " w - - " : " b - - ";
  s += std::to_string(rule50()) + " " + std::to_string(game_ply() / 2 + 1);
  return s;
}

bool Position::compute_facing() const {
  Square a = king_[CHO], b = king_[HAN];
  if (file_of(a) != file_of(b)) return false;
  for (Square s = Square(a + 9); s < b; s = Square(s + 9))
    if (board_[s]) return false;
  return true;
}

bool Position::generals_facing() const { return compute_facing(); }

bool Position::attacked(Square s, Color by) const {
  if (__builtin_expect(rules_ == Ruleset::XIANGQI, 0)) return attacked_xiangqi(s, by);  // Janggi is the hot path
  const geo::Tables& t = geo::tables();
  const Piece chariot = make_piece(by, CHARIOT), cannon = make_piece(by, CANNON);
  for (int i = 0; i < t.ray_count[s]; ++i) {
    const geo::Ray& ray = t.rays[s][i];
    int j = 0;
    while (j < ray.len && !board_[ray.sq[j]]) ++j;
    if (j == ray.len) continue;
    Piece screen = board_[ray.sq[j]];
    if (screen == chariot) return true;
    if (type_of(screen) == CANNON) continue;
    for (++j; j < ray.len; ++j) {
      Piece p = board_[ray.sq[j]];
      if (!p) continue;
      if (p == cannon) return true;
      break;
    }
  }
  const Piece horse = make_piece(by, HORSE), elephant = make_piece(by, ELEPHANT);
  for (int i = 0; i < t.horse_from_count[s]; ++i) {
    const geo::Leap& l = t.horse_from[s][i];
    if (board_[l.to] == horse && !board_[l.block1]) return true;
  }
  for (int i = 0; i < t.elephant_from_count[s]; ++i) {
    const geo::Leap& l = t.elephant_from[s][i];
    if (board_[l.to] == elephant && !board_[l.block1] && !board_[l.block2]) return true;
  }
  const Piece soldier = make_piece(by, SOLDIER);
  for (int i = 0; i < t.soldier_from_count[by][s]; ++i)
    if (board_[t.soldier_from[by][s][i]] == soldier) return true;
  // Generals and guards never leave their own palace, so they cannot reach the enemy general;
  // for other squares inside their palace they attack along palace lines.
  if (t.in_palace[by][s])
    for (int i = 0; i < t.palace_step_count[s]; ++i) {
      Piece p = board_[t.palace_step[s][i]];
      if (p == make_piece(by, GENERAL) || p == make_piece(by, GUARD)) return true;
    }
  return false;
}

bool Position::attacks_from(Square from, Square target) const {
  if (__builtin_expect(rules_ == Ruleset::XIANGQI, 0)) return attacks_from_xiangqi(from, target);
  const geo::Tables& t = geo::tables();
  Piece p = board_[from];
  switch (type_of(p)) {
    case CHARIOT:
    case CANNON:
      for (int i = 0; i < t.ray_count[from]; ++i) {
        const geo::Ray& ray = t.rays[from][i];
        int between = 0;
        bool cannon_screen = false;
        for (int j = 0; j < ray.len; ++j) {
          Square s = ray.sq[j];
          if (s == target) {
            if (type_of(p) == CHARIOT) return between == 0;
            return between == 1 && !cannon_screen && type_of(board_[target]) != CANNON;
          }
          if (board_[s]) {
            ++between;
            cannon_screen |= type_of(board_[s]) == CANNON;
          }
        }
      }
      return false;
    case HORSE:
      for (int i = 0; i < t.horse_count[from]; ++i)
        if (t.horse[from][i].to == target && !board_[t.horse[from][i].block1]) return true;
      return false;
    case ELEPHANT:
      for (int i = 0; i < t.elephant_count[from]; ++i) {
        const geo::Leap& l = t.elephant[from][i];
        if (l.to == target && !board_[l.block1] && !board_[l.block2]) return true;
      }
      return false;
    case SOLDIER:
      for (int i = 0; i < t.soldier_count[color_of(p)][from]; ++i)
        if (t.soldier[color_of(p)][from][i] == target) return true;
      return false;
    case GENERAL:
    case GUARD:
      for (int i = 0; i < t.palace_step_count[from]; ++i)
        if (t.palace_step[from][i] == target) return true;
      return false;
    default:
      return false;
  }
}

int Position::checkers(Square* out) const {
  int n = 0;
  Color them = ~side_;
  for (int i = 0; i < count_[them]; ++i)
    if (attacks_from(list_[them][i], king_[side_])) out[n++] = list_[them][i];
  return n;
}

bool Position::legal_slow(Move m) const {
  Position& self = const_cast<Position&>(*this);
  Color us = side_;
  if (m.is_pass()) return ruleset_info(rules_).pass && (!st().check || in_bikjang());
  Square from = m.from(), to = m.to();
  Piece moved = board_[from], captured = board_[to];
  // A promoted piece matters here: a cannon is no screen for an enemy cannon.
  self.board_[to] = m.promotion() ? make_piece(us, m.promotion()) : moved;
  self.board_[from] = NO_PIECE;
  Square k = type_of(moved) == GENERAL ? to : king_[us];
  Square saved_king = king_[us];
  self.king_[us] = k;
  bool ok = !attacked(k, ~us);
  if (ok && in_bikjang()) ok = !compute_facing();
  self.king_[us] = saved_king;
  self.board_[from] = moved;
  self.board_[to] = captured;
  return ok;
}

bool Position::pass_ended() const {
  // Xiangqi has no pass: one there is an engine's null move, which ends nothing.
  if (states_.size() < 2 || !st().move.is_pass() || !ruleset_info(rules_).pass) return false;
  const StateInfo& before = states_[states_.size() - 2];
  if (before.facing && ruleset_info(rules_).bikjang) return true;
  return states_.size() >= 3 && before.move.is_pass();
}

void Position::do_move(Move m) {
  StateInfo ns;
  const StateInfo& prev = st();
  ns.key = prev.key ^ zobrist::side();
  ns.move = m;
  ns.rule50 = uint16_t(prev.rule50 + 1);
  if (!m.is_pass()) {
    Square from = m.from(), to = m.to();
    Piece p = board_[from];
    ns.moved = p;
    if (Piece c = board_[to]) {
      ns.captured = c;
      ns.key ^= zobrist::piece(c, to);
      remove(to);
      ns.rule50 = 0;
    }
    if (PieceType promo = m.promotion()) {
      Piece q = make_piece(color_of(p), promo);
      ns.key ^= zobrist::piece(p, from) ^ zobrist::piece(q, to);
      remove(from);
      put(to, q);
    } else {
      ns.key ^= zobrist::piece(p, from) ^ zobrist::piece(p, to);
      move_piece(from, to);
    }
  }
  side_ = ~side_;
  ns.check = __builtin_expect(king_[side_] != NO_SQUARE, 1) && attacked(king_[side_], ~side_);
  ns.facing = __builtin_expect(king_[side_] != NO_SQUARE, 1) && compute_facing();
  states_.push_back(ns);
}

void Position::undo_move() {
  const StateInfo& s = st();
  side_ = ~side_;
  if (s.move.promotion()) {
    remove(s.move.to());
    put(s.move.from(), s.moved);
    if (s.captured) put(s.move.to(), s.captured);
  } else if (!s.move.is_pass()) {
    move_piece(s.move.to(), s.move.from());
    if (s.captured) put(s.move.to(), s.captured);
  }
  states_.pop_back();
}

}  // namespace jz
