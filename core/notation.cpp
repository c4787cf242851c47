#include "notation.h"

#include <algorithm>
#include <cctype>

#include "movegen.h"
#include "notation_xiangqi.h"

namespace jz {

PieceType piece_type_from_letter(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'K':
      return GENERAL;
    case 'A':
      return GUARD;
    case 'B':
    case 'E':
      return ELEPHANT;
    case 'N':
    case 'H':
      return HORSE;
    case 'R':
      return CHARIOT;
    case 'C':
      return CANNON;
    case 'P':
      return SOLDIER;
    default:
      return NO_PIECE_TYPE;
  }
}

std::string square_name(Square s) { return std::string(1, char('a' + file_of(s))) + std::to_string(rank_of(s) + 1); }

bool parse_square(const std::string& s, Square& out) {
  if (s.size() < 2 || s.size() > 3 || s[0] < 'a' || s[0] > 'i') return false;
  int rank = 0;
  for (size_t i = 1; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    rank = rank * 10 + (s[i] - '0');
  }
  if (s[1] == '0' || rank < 1 || rank > 10) return false;
  out = make_square(s[0] - 'a', rank - 1);
  return true;
}

namespace {
// Promotion suffixes: the FEN letters, lowercase (h and e accepted on input like in FEN).
const char PROMO_CHARS[PIECE_TYPE_NB] = {0, 0, 0, 'b', 'n', 'r', 'c', 0};
PieceType promo_from_char(char c) {
  switch (c) {
    case 'r':
      return CHARIOT;
    case 'c':
      return CANNON;
    case 'n':
    case 'h':
      return HORSE;
    case 'b':
    case 'e':
      return ELEPHANT;
    default:
      return NO_PIECE_TYPE;
  }
}
}  // namespace

std::string move_to_uci(Move m) {
  if (m.is_none()) return "0000";
  std::string s = square_name(m.from()) + square_name(m.to());
  if (m.promotion()) s += PROMO_CHARS[m.promotion()];
  return s;
}

bool parse_uci_move(const std::string& s, Move& out) {
  // Split after the first square: letter, digits, letter, digits, and an optional promotion letter.
  size_t i = 1;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  std::string rest = s.substr(std::min(i, s.size()));
  PieceType promo = NO_PIECE_TYPE;
  if (!rest.empty() && !std::isdigit(static_cast<unsigned char>(rest.back()))) {
    if ((promo = promo_from_char(rest.back())) == NO_PIECE_TYPE) return false;
    rest.pop_back();
  }
  Square from, to;
  if (!parse_square(s.substr(0, i), from) || !parse_square(rest, to)) return false;
  if (promo && from == to) return false;
  out = Move(from, to, promo);
  return true;
}

bool parse_legal_uci_move(const Position& pos, const std::string& s, Move& out, std::string* error) {
  Move m;
  if (!parse_uci_move(s, m)) {
    if (error) *error = "malformed move '" + s + "'";
    return false;
  }
  if (m.is_pass() && m.from() != pos.king_square(pos.side_to_move())) {
    if (error) *error = "illegal move '" + s + "': a pass is written as the general's square twice";
    return false;
  }
  if (!is_legal(pos, m)) {
    if (error) *error = "illegal move '" + s + "' in position " + pos.fen();
    return false;
  }
  out = m;
  return true;
}

std::string korean_square(Square s) {
  int row = 10 - rank_of(s);
  return std::to_string(row % 10) + std::to_string(file_of(s) + 1);
}

namespace {
const char* HANGUL[2][PIECE_TYPE_NB] = {{"", "장", "사", "상", "마", "차", "포", "졸"},
                                        {"", "장", "사", "상", "마", "차", "포", "병"}};
const char* HANJA[2][PIECE_TYPE_NB] = {{"", "楚", "士", "象", "馬", "車", "包", "卒"},
                                       {"", "漢", "士", "象", "馬", "車", "包", "兵"}};

bool korean_point(char r, char c, Square& out) {
  if (!std::isdigit(static_cast<unsigned char>(r)) || c < '1' || c > '9') return false;
  int row = r == '0' ? 10 : r - '0';
  out = make_square(c - '1', 10 - row);
  return true;
}
}  // namespace

const char* piece_name_hangul(Piece p) { return p ? HANGUL[color_of(p)][type_of(p)] : ""; }
const char* piece_name_hanja(Piece p) { return p ? HANJA[color_of(p)][type_of(p)] : ""; }

std::string move_to_korean(const Position& pos, Move m, bool hanja) {
  if (m.is_pass()) return hanja ? "閑手" : "한수쉼";
  Piece p = pos.piece_on(m.from());
  std::string s =
      korean_square(m.from()) + (hanja ? piece_name_hanja(p) : piece_name_hangul(p)) + korean_square(m.to());
  // Promotion (rule option): "=" and the new piece, display only (input takes UCI: c9c10r).
  if (PieceType t = m.promotion()) {
    Piece q = make_piece(color_of(p), t);
    s += std::string("=") + (hanja ? piece_name_hanja(q) : piece_name_hangul(q));
  }
  return s;
}

bool parse_korean_move(const Position& pos, const std::string& s, Move& out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  Square k = pos.king_square(pos.side_to_move());
  if (s == "한수쉼" || s == "한수" || s == "pass" || s == "閑手") {
    if (!is_legal(pos, Move(k, k))) return fail("illegal move '" + s + "': cannot pass in check");
    out = Move(k, k);
    return true;
  }
  std::string digits;
  for (char c : s)
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  // The first two and the last two digits; whatever stands between them is the piece name.
  if (digits.size() != 4 || !std::isdigit(static_cast<unsigned char>(s[0])) ||
      !std::isdigit(static_cast<unsigned char>(s.back())))
    return fail("malformed Korean move '" + s + "' (expected like 79졸78)");
  Square from, to;
  if (!korean_point(digits[0], digits[1], from) || !korean_point(digits[2], digits[3], to))
    return fail("malformed Korean move '" + s + "'");
  Move m(from, to);
  if (!is_legal(pos, m)) return fail("illegal move '" + s + "' in position " + pos.fen());
  out = m;
  return true;
}

bool parse_any_move(const Position& pos, const std::string& s, Move& out, std::string* error) {
  if (pos.xiangqi()) {  // UCI, else WXF (ASCII) or Chinese; no WXF text is also UCI
    Move m;
    if (parse_uci_move(s, m)) return parse_legal_uci_move(pos, s, out, error);
    bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    return ascii ? parse_wxf_move(pos, s, out, error) : parse_chinese_move(pos, s, out, error);
  }
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'i') return parse_legal_uci_move(pos, s, out, error);
  return parse_korean_move(pos, s, out, error);
}

}  // namespace jz
