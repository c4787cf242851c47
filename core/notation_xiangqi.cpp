#include "notation_xiangqi.h"

#include <cctype>
#include <cstdlib>
#include <utility>
#include <vector>

#include "movegen.h"
#include "notation.h"

namespace jz {

namespace {

const char* NAMES[2][PIECE_TYPE_NB] = {{"", "帥", "仕", "相", "傌", "俥", "炮", "兵"},
                                       {"", "將", "士", "象", "馬", "車", "砲", "卒"}};
const char* NUMERALS[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
const char* TYPE_WORDS[PIECE_TYPE_NB] = {"", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"};
constexpr const char* WXF_LETTERS = ".KAEHRCP";

// The board as the mover counts it: files 1..9 from its right, ranks ahead from its back rank.
int file_number(Color c, Square s) { return c == CHO ? FILE_NB - file_of(s) : file_of(s) + 1; }
int file_index(Color c, int number) { return c == CHO ? FILE_NB - number : number - 1; }
int ahead(Color c, Square s) { return c == CHO ? rank_of(s) : RANK_NB - 1 - rank_of(s); }
const char* side_word(Color c) { return c == CHO ? "red" : "black"; }
bool straight_mover(PieceType t) { return t == GENERAL || t == CHARIOT || t == CANNON || t == SOLDIER; }
// Named by their place among like pieces on a file; advisors and elephants are told apart by direction.
bool told_apart(PieceType t) { return t == HORSE || t == CHARIOT || t == CANNON || t == SOLDIER; }

// The mover's pieces of one type on one file (a file index), front first.
struct Column {
  Square sq[RANK_NB];
  int n = 0;
};
Column column(const Position& pos, Color c, PieceType t, int f) {
  Column col;
  for (int i = 0; i < RANK_NB; ++i) {
    Square s = make_square(f, c == CHO ? RANK_NB - 1 - i : i);
    if (pos.piece_on(s) == make_piece(c, t)) col.sq[col.n++] = s;
  }
  return col;
}

int tandem_soldier_files(const Position& pos, Color c) {
  int k = 0;
  for (int f = 0; f < FILE_NB; ++f) k += column(pos, c, SOLDIER, f).n >= 2;
  return k;
}

// What both notations say of a move: the piece, by its file or its place on it, and the motion.
struct Named {
  Color color;
  PieceType type;
  int file;              // the origin's file number
  int n = 1, index = 0;  // like pieces told apart on that file (1: none) and the mover's place, front = 0
  bool by_file = false;  // soldiers doubled on two files: the file number stands for the piece name
  char dir;              // '+' forward, '-' back, '.' sideways
  int number;            // ranks moved, or the destination's file number
};

Named name_move(const Position& pos, Move m) {
  Named d;
  Piece p = pos.piece_on(m.from());
  d.color = color_of(p), d.type = type_of(p);
  d.file = file_number(d.color, m.from());
  if (told_apart(d.type)) {
    Column col = column(pos, d.color, d.type, file_of(m.from()));
    if (col.n >= 2) {
      d.n = col.n;
      while (col.sq[d.index] != m.from()) ++d.index;
      d.by_file = d.type == SOLDIER && tandem_soldier_files(pos, d.color) >= 2;
    }
  }
  int up = ahead(d.color, m.to()) - ahead(d.color, m.from());
  d.dir = up > 0 ? '+' : up < 0 ? '-' : '.';
  bool along_file = file_of(m.from()) == file_of(m.to());
  d.number = straight_mover(d.type) && along_file ? std::abs(up) : file_number(d.color, m.to());
  return d;
}

std::string figure(Color c, int k) { return c == CHO ? NUMERALS[k] : std::string(1, char('0' + k)); }

// 前/後 of two, 前/中/後 of three, 前/二/三/四/五 of four or five.
std::string place_word(int n, int index) {
  if (index == 0) return "前";
  if (n <= 3) return index == n - 1 ? "後" : "中";
  return NUMERALS[index + 1];
}

// WXF's first two characters: letter and file, or the place among like pieces on the file.
std::string wxf_origin(const Named& d) {
  char letter = WXF_LETTERS[d.type], file = char('0' + d.file);
  if (d.n == 1) return {letter, file};
  int i = d.index, last = d.n - 1;
  if (d.n >= 4) {  // the outermost of four or five lose the letter; the inner ones count as of two or three
    if (i == 0 || i == last) return i == 0 ? "++" : "--";
    --i, last -= 2;
  }
  char place = i == 0 ? '+' : i == last ? '-' : file;
  return {d.by_file ? file : letter, place};
}

// How a text picks pieces among the mover's like pieces on a file.
enum class Pick : uint8_t { FILE, FRONT, MIDDLE, REAR, NTH, WXF_FILE, WXF_FRONT, WXF_REAR };

struct Spec {
  PieceType type = NO_PIECE_TYPE;
  int file = 0;  // the mover's file number; 0: every file where the pick names a piece
  Pick pick = Pick::FILE;
  int nth = 0;  // Pick::NTH: 1 = front
  char dir = 0;
  int number = 0;
};

// The places [lo, hi) a pick names among n like pieces on one file (front = 0); empty when none.
std::pair<int, int> places(const Spec& s, int n) {
  auto one = [&](int i, bool ok) { return ok ? std::make_pair(i, i + 1) : std::make_pair(0, 0); };
  switch (s.pick) {
    case Pick::FILE:
      return {0, n};
    case Pick::WXF_FILE:  // the file names the middle one of three or five soldiers
      return n >= 3 && n % 2 ? one(n / 2, true) : std::make_pair(0, n);
    case Pick::FRONT:
      return one(0, n >= 2);
    case Pick::MIDDLE:
      return one(n / 2, n >= 3 && n % 2);
    case Pick::REAR:
      return one(n - 1, n >= 2);
    case Pick::NTH:
      return one(s.nth - 1, n >= 2 && s.nth <= n);
    case Pick::WXF_FRONT:  // + : the front one of two or three, the second of four or five
      return one(n >= 4 ? 1 : 0, n >= 2);
    case Pick::WXF_REAR:
      return one(n >= 4 ? n - 2 : n - 1, n >= 2);
  }
  return {0, 0};
}

std::vector<Square> candidates(const Position& pos, const Spec& s) {
  Color c = pos.side_to_move();
  std::vector<Square> out;
  for (int number = 1; number <= FILE_NB; ++number) {
    if (s.file && number != s.file) continue;
    Column col = column(pos, c, s.type, file_index(c, number));
    auto [lo, hi] = places(s, col.n);
    for (int i = lo; i < hi; ++i) out.push_back(col.sq[i]);
  }
  return out;
}

// Where a piece on `from` lands for a direction and figure; NO_SQUARE when it has no such step.
Square destination(Color c, PieceType t, Square from, char dir, int number) {
  int f = file_of(from), up = number;
  if (dir == '.' || !straight_mover(t)) f = file_index(c, number);
  if (dir == '.') {
    if (!straight_mover(t)) return NO_SQUARE;
    up = 0;
  } else if (!straight_mover(t)) {  // diagonal movers: the file decides how far ahead they land
    int df = std::abs(f - file_of(from));
    up = t == HORSE ? (df == 1 ? 2 : df == 2 ? 1 : 0) : t == ELEPHANT ? (df == 2 ? 2 : 0) : (df == 1 ? 1 : 0);
    if (!up) return NO_SQUARE;
  }
  int a = ahead(c, from) + (dir == '-' ? -up : up);
  if (a < 0 || a >= RANK_NB) return NO_SQUARE;
  return make_square(f, c == CHO ? a : RANK_NB - 1 - a);
}

bool fail(std::string* error, const std::string& why) {
  if (error) *error = why;
  return false;
}

// The one legal move the text names, or a reason.
bool resolve(const Position& pos, const Spec& s, const std::string& text, const char* tell_apart, Move& out,
             std::string* error) {
  Color c = pos.side_to_move();
  std::vector<Square> from = candidates(pos, s);
  if (from.empty())
    return fail(error, "'" + text + "' names no " + side_word(c) + " " + TYPE_WORDS[s.type] +
                           " (files count 1-9 from the mover's right)");
  int found = 0;
  Move m;
  for (Square sq : from) {
    Square to = destination(c, s.type, sq, s.dir, s.number);
    if (to != NO_SQUARE && is_legal(pos, Move(sq, to))) m = Move(sq, to), ++found;
  }
  if (found == 0) return fail(error, "illegal move '" + text + "' in position " + pos.fen());
  if (found > 1)
    return fail(error, "ambiguous move '" + text + "': " + std::to_string(found) + " " + TYPE_WORDS[s.type] +
                           "s can make it (" + tell_apart + ")");
  out = m;
  return true;
}

// Chinese text, one token per character.
struct Token {
  enum Kind : uint8_t { PIECE, FIGURE, PLACE, DIR, BAD } kind = BAD;
  int value = 0;  // PIECE: a PieceType; FIGURE: 1..9; PLACE: a Pick; DIR: '+', '-', '.'
};

// The characters of each token: either side's piece names and Simplified forms; figures in Chinese,
// full-width and ASCII digits. UTF-8 is self-synchronising, so a character is found by substring.
struct Glyphs {
  const char* chars;
  Token token;
};
const Glyphs GLYPHS[] = {
    {"帥帅將将", {Token::PIECE, GENERAL}},
    {"仕士", {Token::PIECE, GUARD}},
    {"相象", {Token::PIECE, ELEPHANT}},
    {"傌馬马", {Token::PIECE, HORSE}},
    {"俥車车", {Token::PIECE, CHARIOT}},
    {"炮砲包", {Token::PIECE, CANNON}},
    {"兵卒", {Token::PIECE, SOLDIER}},
    {"前", {Token::PLACE, int(Pick::FRONT)}},
    {"中", {Token::PLACE, int(Pick::MIDDLE)}},
    {"後后", {Token::PLACE, int(Pick::REAR)}},
    {"進进", {Token::DIR, '+'}},
    {"退", {Token::DIR, '-'}},
    {"平", {Token::DIR, '.'}},
    {"一１1", {Token::FIGURE, 1}},
    {"二２2", {Token::FIGURE, 2}},
    {"三３3", {Token::FIGURE, 3}},
    {"四４4", {Token::FIGURE, 4}},
    {"五５5", {Token::FIGURE, 5}},
    {"六６6", {Token::FIGURE, 6}},
    {"七７7", {Token::FIGURE, 7}},
    {"八８8", {Token::FIGURE, 8}},
    {"九９9", {Token::FIGURE, 9}},
};

// Tokens of a UTF-8 text; spaces (ASCII and the ideographic one) are skipped.
std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  for (size_t i = 0; i < s.size();) {
    unsigned char b = s[i];
    size_t len = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    std::string g = s.substr(i, len);
    i += len;
    if (g == " " || g == "\t" || g == "\u3000") continue;
    bool whole = g.size() == len && (len > 1 || b < 0x80);  // no stray byte may match part of a glyph
    for (size_t k = 1; k < g.size(); ++k) whole = whole && (g[k] & 0xC0) == 0x80;
    Token t;
    for (const Glyphs& gl : GLYPHS)
      if (whole && std::string(gl.chars).find(g) != std::string::npos) t = gl.token;
    out.push_back(t);
  }
  return out;
}

// 炮二平五, 前俥進一, 二兵平四, 前七進一 (soldiers on two files), and the AXF's older 車前平三.
bool chinese_spec(const std::vector<Token>& t, Spec& s) {
  if (t.size() != 4 || t[2].kind != Token::DIR || t[3].kind != Token::FIGURE) return false;
  s.dir = char(t[2].value), s.number = t[3].value;
  auto place = [&](const Token& k) {  // 前/中/後, or a figure counting from the front
    if (k.kind == Token::PLACE) return s.pick = Pick(k.value), true;
    if (k.kind == Token::FIGURE && k.value <= 5) return s.pick = Pick::NTH, s.nth = k.value, true;
    return false;
  };
  if (t[0].kind == Token::PIECE) {
    s.type = PieceType(t[0].value);
    if (t[1].kind == Token::FIGURE) return s.file = t[1].value, true;
    return t[1].kind == Token::PLACE && place(t[1]);
  }
  if (!place(t[0])) return false;
  if (t[1].kind == Token::PIECE) return s.type = PieceType(t[1].value), true;
  if (t[1].kind != Token::FIGURE) return false;
  s.type = SOLDIER, s.file = t[1].value;
  return true;
}

// C2.5, H8+7, R+.3, P3.4 (the middle of three), ++.4 / --.4 (the outermost of four or five), 3+.4, 33.4.
bool wxf_spec(const std::string& w, Spec& s) {
  auto digit = [](char c) { return c >= '1' && c <= '9'; };
  if (w.size() != 4 || !digit(w[3]) || std::string("+-.=").find(w[2]) == std::string::npos) return false;
  char a = w[0], b = w[1];
  s.dir = w[2] == '=' ? '.' : w[2], s.number = w[3] - '0';
  if (std::isalpha(static_cast<unsigned char>(a))) {
    if ((s.type = piece_type_from_letter(a)) == NO_PIECE_TYPE) return false;
    if (digit(b)) return s.file = b - '0', s.pick = Pick::WXF_FILE, true;
    if (b != '+' && b != '-') return false;
    return s.pick = b == '+' ? Pick::WXF_FRONT : Pick::WXF_REAR, true;
  }
  s.type = SOLDIER;
  if ((a == '+' || a == '-') && b == a) return s.pick = a == '+' ? Pick::FRONT : Pick::REAR, true;
  if (!digit(a)) return false;
  s.file = a - '0';
  if (b == a) return s.pick = Pick::MIDDLE, true;
  if (b != '+' && b != '-') return false;
  return s.pick = b == '+' ? Pick::FRONT : Pick::REAR, true;
}

}  // namespace

const char* piece_name_chinese(Piece p) { return p ? NAMES[color_of(p)][type_of(p)] : ""; }

std::string file_figure(Color c, int file, bool ascii) {
  return figure(ascii ? HAN : c, file_number(c, make_square(file, 0)));
}

std::string move_to_chinese(const Position& pos, Move m) {
  if (m.is_none() || !pos.piece_on(m.from())) return move_to_uci(m);
  Named d = name_move(pos, m);
  const char* name = NAMES[d.color][d.type];
  std::string s = d.n == 1 ? name + figure(d.color, d.file)
                           : place_word(d.n, d.index) + (d.by_file ? figure(d.color, d.file) : std::string(name));
  return s + (d.dir == '+' ? "進" : d.dir == '-' ? "退" : "平") + figure(d.color, d.number);
}

std::string move_to_wxf(const Position& pos, Move m) {
  if (m.is_none() || !pos.piece_on(m.from())) return move_to_uci(m);
  Named d = name_move(pos, m);
  return wxf_origin(d) + d.dir + char('0' + d.number);
}

bool parse_chinese_move(const Position& pos, const std::string& s, Move& out, std::string* error) {
  Spec spec;
  if (!chinese_spec(tokenize(s), spec))
    return fail(error, "malformed Chinese move '" + s + "' (expected like 炮二平五, 馬8進7 or 前俥進一)");
  return resolve(pos, spec, s, "name it by 前/後 or its file", out, error);
}

bool parse_wxf_move(const Position& pos, const std::string& s, Move& out, std::string* error) {
  std::string w;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) w += c;
  Spec spec;
  if (!wxf_spec(w, spec)) return fail(error, "malformed WXF move '" + s + "' (expected like C2.5, H8+7 or R+.3)");
  return resolve(pos, spec, s, "name it by + / - or its file", out, error);
}

std::string move_to_game_notation(const Position& pos, Move m) {
  return pos.xiangqi() ? move_to_chinese(pos, m) : move_to_korean(pos, m);
}

}  // namespace jz
