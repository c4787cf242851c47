#include "records/gib.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"

namespace jz {

namespace {

// UTF-8 piece names (Hangul and Hanja) and the types they name.
struct Name {
  const char* text;
  PieceType type;
};
const Name NAMES[] = {{"장", GENERAL}, {"궁", GENERAL},  {"楚", GENERAL},  {"漢", GENERAL}, {"사", GUARD},
                      {"士", GUARD},   {"상", ELEPHANT}, {"象", ELEPHANT}, {"마", HORSE},   {"馬", HORSE},
                      {"차", CHARIOT}, {"車", CHARIOT},  {"포", CANNON},   {"包", CANNON},  {"砲", CANNON},
                      {"졸", SOLDIER}, {"병", SOLDIER},  {"卒", SOLDIER},  {"兵", SOLDIER}};

// Piece name at s[at..]; advances `at` past it.
PieceType piece_name_at(const std::string& s, size_t& at) {
  for (const Name& n : NAMES) {
    size_t len = std::strlen(n.text);
    if (s.compare(at, len, n.text) == 0) {
      at += len;
      return n.type;
    }
  }
  return NO_PIECE_TYPE;
}

bool point_at(const std::string& s, size_t at, Square& out) {
  if (at + 2 > s.size() || !std::isdigit((unsigned char)s[at]) || s[at + 1] < '1' || s[at + 1] > '9') return false;
  int row = s[at] == '0' ? 10 : s[at] - '0';
  out = make_square(s[at + 1] - '1', 10 - row);
  return true;
}

bool starts_with(const std::string& s, size_t at, const char* p) { return s.compare(at, std::strlen(p), p) == 0; }

// One move token ("74상42병", "85포55장군", "한수쉼") in pos. False with a reason.
bool parse_gib_move(const Position& pos, const std::string& tok, Move& out, std::string& why) {
  if (tok.find("한수쉼") != std::string::npos || tok == "閑手") {
    Square k = pos.king_square(pos.side_to_move());
    if (!is_legal(pos, Move(k, k))) return why = "pass (한수쉼) is not legal here", false;
    out = Move(k, k);
    return true;
  }
  Square from, to;
  size_t at = 2;
  if (!point_at(tok, 0, from)) return why = "malformed move '" + tok + "'", false;
  PieceType named = piece_name_at(tok, at);
  if (named == NO_PIECE_TYPE || !point_at(tok, at, to)) return why = "malformed move '" + tok + "'", false;
  at += 2;
  PieceType captured = NO_PIECE_TYPE;
  if (at < tok.size() && !starts_with(tok, at, "장군") && !starts_with(tok, at, "멍군")) {
    captured = piece_name_at(tok, at);
    if (captured == NO_PIECE_TYPE) return why = "malformed move '" + tok + "'", false;
  }
  if (starts_with(tok, at, "장군") || starts_with(tok, at, "멍군")) at += std::strlen("장군");
  if (at != tok.size()) return why = "malformed move '" + tok + "'", false;
  Piece p = pos.piece_on(from);
  if (p == NO_PIECE || color_of(p) != pos.side_to_move() || type_of(p) != named)
    return why = "move '" + tok + "': no such piece of the side to move on " + square_name(from), false;
  // A written capture must be there; an unwritten one is tolerated (some programs omit it).
  if (captured != NO_PIECE_TYPE && (pos.piece_on(to) == NO_PIECE || type_of(pos.piece_on(to)) != captured))
    return why = "move '" + tok + "': the captured piece is not on " + square_name(to), false;
  Move m(from, to);
  if (from == to || !is_legal(pos, m)) return why = "illegal move '" + tok + "'", false;
  out = m;
  return true;
}

// Board-order pattern of files b, c, g, h on a back rank, from a to i.
std::string fen_with_setups(const std::string& cho, const std::string& han) {
  auto row = [](const std::string& pat, bool upper) {
    std::string pieces;  // 4 letters for files b, c, g, h
    for (size_t at = 0; at < pat.size();) {
      PieceType t = piece_name_at(pat, at);
      if (t != ELEPHANT && t != HORSE) return std::string();
      pieces += t == ELEPHANT ? 'b' : 'n';
    }
    // Each wing holds one horse and one elephant.
    if (pieces.size() != 4 || pieces[0] == pieces[1] || pieces[2] == pieces[3]) return std::string();
    std::string r = std::string("r") + pieces[0] + pieces[1] + "a1a" + pieces[2] + pieces[3] + "r";
    if (upper)
      for (char& c : r) c = char(std::toupper((unsigned char)c));
    return r;
  };
  std::string c = row(cho, true), h = row(han, false);
  if (c.empty() || h.empty()) return {};
  return h + "/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/" + c + " w - - 0 1";
}

// 대국결과: "초 완승", "한 시간승", "무승부", ... False if it is not a result.
bool parse_result(const std::string& v, ParsedGame& g) {
  if (v.find("무승부") != std::string::npos || v.find("비김") != std::string::npos) {
    g.winner = Winner::DRAW;
    g.ending = Ending::NONE;
    return true;
  }
  size_t at = v.find_first_not_of(' ');
  if (at == std::string::npos || v.find("승") == std::string::npos) return false;
  if (starts_with(v, at, "초") || starts_with(v, at, "楚"))
    g.winner = Winner::CHO;
  else if (starts_with(v, at, "한") || starts_with(v, at, "漢"))
    g.winner = Winner::HAN;
  else
    return false;
  // 완승: a win the board may show (checkmate) or not (resignation); the importer asks the rules.
  if (v.find("시간") != std::string::npos)
    g.ending = Ending::TIME;
  else if (v.find("판정") != std::string::npos || v.find("계가") != std::string::npos)
    g.ending = Ending::NONE;
  else
    g.ending = Ending::RESIGNATION;
  return true;
}

struct Header {
  std::string key, value;
};

bool parse_header_line(const std::string& line, Header& h) {
  // [key "value"]
  size_t sp = line.find_first_of(" \t");
  size_t q1 = line.find('"'), q2 = line.rfind('"');
  if (line.size() < 5 || line.front() != '[' || line.back() != ']' || sp == std::string::npos || q1 == q2 || q1 < sp ||
      q2 != line.size() - 2)
    return false;
  h.key = line.substr(1, sp - 1);
  h.value = line.substr(q1 + 1, q2 - q1 - 1);
  return !h.key.empty();
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

struct RawGame {
  std::vector<std::string> header_lines;
  std::string movetext;
};

void finish_game(const RawGame& raw, Ruleset default_rules, ParsedGame& g) {
  auto fail = [&](const std::string& why, int ply) {
    g.error = why;
    g.error_ply = ply;
  };
  g.ruleset = default_rules;
  std::string cho, han, fen;
  int total = -1;
  for (const std::string& line : raw.header_lines) {
    Header h;
    if (!parse_header_line(line, h)) return fail("bad header line '" + line + "'", -1);
    if (h.key == "초차림")
      cho = h.value;
    else if (h.key == "한차림")
      han = h.value;
    else if (h.key == "FEN")
      fen = h.value;
    else if (h.key == "규칙" && !parse_ruleset(h.value, g.ruleset))
      return fail("bad 규칙 '" + h.value + "'", -1);
    else if (h.key == "총수") {
      std::string v = trim(h.value);
      if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos)
        return fail("bad 총수 '" + h.value + "'", -1);
      total = std::stoi(v);
    } else if (h.key == "대국결과") {
      if (!parse_result(h.value, g)) return fail("bad 대국결과 '" + h.value + "'", -1);
    }
  }
  if (fen.empty()) {
    if (cho.empty() || han.empty()) return fail("no 초차림/한차림 setup headers", -1);
    fen = fen_with_setups(trim(cho), trim(han));
    if (fen.empty()) return fail("bad setup 초차림 '" + cho + "' / 한차림 '" + han + "'", -1);
  }
  Position pos;
  std::string why;
  if (!pos.set_fen(fen, g.ruleset, &why)) return fail("bad start position: " + why, -1);
  g.start_fen = fen;

  // Tokens: "N." numbers (checked to run 1, 2, 3, ...), moves, possibly glued as "N.move".
  const std::string& t = raw.movetext;
  size_t i = 0;
  int expect = 1;
  while (i < t.size()) {
    while (i < t.size() && std::isspace((unsigned char)t[i])) ++i;
    if (i >= t.size()) break;
    size_t j = i;
    while (j < t.size() && !std::isspace((unsigned char)t[j])) ++j;
    std::string tok = t.substr(i, j - i);
    i = j;
    size_t dot = tok.find('.');
    if (dot != std::string::npos && dot > 0 && tok.find_first_not_of("0123456789") == dot) {
      if (std::stoi(tok.substr(0, std::min<size_t>(dot, 6))) != expect)
        return fail("move number " + tok.substr(0, dot) + " where " + std::to_string(expect) + " was due",
                    int(g.moves.size()));
      tok = tok.substr(dot + 1);
      if (tok.empty()) continue;
    }
    Move m;
    if (!parse_gib_move(pos, tok, m, why)) return fail(why, int(g.moves.size()));
    pos.do_move(m);
    g.moves.push_back(m);
    ++expect;
  }
  if (total >= 0 && total != int(g.moves.size()))
    return fail("총수 says " + std::to_string(total) + " moves but the record has " + std::to_string(g.moves.size()) +
                    " (truncated?)",
                int(g.moves.size()));
}

}  // namespace

std::vector<ParsedGame> read_gib(const std::string& text, Ruleset rules) {
  std::vector<RawGame> raws(1);
  bool in_moves = false, blank_after_headers = false;
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::string line = trim(text.substr(at, nl - at));
    at = nl + 1;
    if (line.empty()) {
      blank_after_headers |= !raws.back().header_lines.empty();
      continue;
    }
    if (line[0] == '[') {
      // Headers after moves, after the blank line that ends a header block, or repeating a key the
      // game has (games without moves): the next game.
      std::string key = line.substr(0, line.find_first_of(" \t\""));
      bool repeated = false;
      for (const std::string& h : raws.back().header_lines) repeated |= h.compare(0, key.size() + 1, key + " ") == 0;
      if (in_moves || repeated || blank_after_headers) {
        raws.emplace_back();
        in_moves = false;
      }
      blank_after_headers = false;
      raws.back().header_lines.push_back(line);
    } else {
      in_moves = true;
      raws.back().movetext += line + "\n";
    }
  }
  std::vector<ParsedGame> out;
  for (size_t k = 0; k < raws.size(); ++k) {
    if (raws[k].header_lines.empty() && raws[k].movetext.empty()) continue;
    ParsedGame g;
    g.index = int(out.size());
    finish_game(raws[k], rules, g);
    out.push_back(std::move(g));
  }
  return out;
}

bool gib_setup_of(const std::string& fen, Color side, std::string& out) {
  Position pos;
  std::string why;
  if (!pos.set_fen(fen, Ruleset::JANGGI, &why)) return false;
  int rank = side == CHO ? 0 : 9;
  out.clear();
  int elephants = 0;
  for (int file : {1, 2, 6, 7}) {
    Piece p = pos.piece_on(make_square(file, rank));
    if (p == NO_PIECE || color_of(p) != side || (type_of(p) != ELEPHANT && type_of(p) != HORSE)) return false;
    elephants += type_of(p) == ELEPHANT;
    out += type_of(p) == ELEPHANT ? "상" : "마";
  }
  return elephants == 2;
}

bool write_gib(const std::string& start_fen, Ruleset rules, const std::vector<Move>& moves, Winner winner,
               Ending ending, std::string& out, std::string* error) {
  if (game_of(rules) != GameKind::JANGGI) {  // Korean Janggi records; PGN holds Xiangqi's
    if (error) *error = std::string(".gib is a Janggi record, not ") + game_name(game_of(rules)) + "'s: use pgn";
    return false;
  }
  Position pos;
  std::string why;
  if (!pos.set_fen(start_fen, rules, &why)) {
    if (error) *error = "bad start FEN: " + why;
    return false;
  }
  std::string cho, han;
  bool setups =
      gib_setup_of(start_fen, CHO, cho) && gib_setup_of(start_fen, HAN, han) && fen_with_setups(cho, han) == start_fen;
  out.clear();
  if (setups)
    out += "[초차림 \"" + cho + "\"]\n[한차림 \"" + han + "\"]\n";
  else
    out += "[FEN \"" + start_fen + "\"]\n";
  if (rules != Ruleset::JANGGI) out += std::string("[규칙 \"") + ruleset_name(rules) + "\"]\n";
  out += "[총수 \"" + std::to_string(moves.size()) + "\"]\n";
  std::string result;
  if (winner == Winner::DRAW)
    result = "무승부";
  else if (winner == Winner::CHO || winner == Winner::HAN) {
    result = winner == Winner::CHO ? "초 " : "한 ";
    result += ending == Ending::TIME                                   ? "시간승"
              : ending == Ending::NONE || ending == Ending::LENGTH_CAP ? "판정승"
                                                                       : "완승";
  }
  if (!result.empty()) out += "[대국결과 \"" + result + "\"]\n";
  out += "\n";
  for (size_t i = 0; i < moves.size(); ++i) {
    Move m = moves[i];
    if (!is_legal(pos, m)) {
      if (error) *error = "illegal move " + move_to_uci(m) + " at ply " + std::to_string(i);
      return false;
    }
    std::string tok = std::to_string(i + 1) + ". ";
    if (m.is_pass())
      tok += "한수쉼";
    else {
      tok += move_to_korean(pos, m);
      if (pos.piece_on(m.to()) != NO_PIECE) tok += piece_name_hangul(pos.piece_on(m.to()));
    }
    pos.do_move(m);
    if (!m.is_pass() && pos.in_check()) tok += "장군";
    out += tok;
    out += (i % 6 == 5 || i + 1 == moves.size()) ? "\n" : " ";
  }
  return true;
}

}  // namespace jz
