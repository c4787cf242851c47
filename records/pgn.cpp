#include "records/pgn.h"

#include <cctype>

#include "core/movegen.h"
#include "core/rules.h"
#include "core/notation.h"
#include "core/position.h"

namespace jz {

namespace {

// SAN names pieces in capitals only (a lower-case letter is a file).
PieceType san_piece(char c) {
  return std::isupper(static_cast<unsigned char>(c)) ? piece_type_from_letter(c) : NO_PIECE_TYPE;
}

bool is_uci_shape(const std::string& s) {
  Move m;
  return !s.empty() && s[0] >= 'a' && s[0] <= 'i' && parse_uci_move(s, m);
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower((unsigned char)c));
  return s;
}

}  // namespace

bool parse_pgn_move(const Position& pos, const std::string& token, Move& out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  std::string t = token;
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?')) t.pop_back();
  Square k = pos.king_square(pos.side_to_move());
  if (t == "pass" || t == "@@@@" || t == "--" || t == "0000" || t == "Kpass") {
    if (!is_legal(pos, Move(k, k))) return fail("illegal pass '" + token + "'");
    out = Move(k, k);
    return true;
  }
  if (is_uci_shape(t)) return parse_legal_uci_move(pos, t, out, error);
  // SAN: [piece] [file][rank] [x|-] square
  PieceType piece = SOLDIER;
  size_t at = 0;
  if (!t.empty() && std::isupper((unsigned char)t[0])) {
    piece = san_piece(t[0]);
    if (piece == NO_PIECE_TYPE) return fail("malformed move '" + token + "'");
    at = 1;
  }
  std::string rest;
  for (size_t i = at; i < t.size(); ++i)
    if (t[i] != 'x' && t[i] != '-' && t[i] != ':') rest += t[i];
  // The destination is the last letter-digits group.
  size_t d = rest.size();
  while (d > 0 && std::isdigit((unsigned char)rest[d - 1])) --d;
  if (d == 0 || d == rest.size()) return fail("malformed move '" + token + "'");
  Square to;
  if (!parse_square(rest.substr(d - 1), to)) return fail("malformed move '" + token + "'");
  std::string dis = rest.substr(0, d - 1);
  int dis_file = -1, dis_rank = -1;
  size_t q = 0;
  if (q < dis.size() && dis[q] >= 'a' && dis[q] <= 'i') dis_file = dis[q++] - 'a';
  if (q < dis.size()) {
    std::string r = dis.substr(q);
    if (r.size() > 2 || r.find_first_not_of("0123456789") != std::string::npos)
      return fail("malformed move '" + token + "'");
    dis_rank = std::stoi(r) - 1;
    if (dis_rank < 0 || dis_rank > 9) return fail("malformed move '" + token + "'");
  }
  MoveList legal;
  generate_legal(pos, legal);
  Move found = Move::none();
  int matches = 0;
  for (Move m : legal) {
    if (m.is_pass() || m.to() != to || type_of(pos.piece_on(m.from())) != piece) continue;
    if (dis_file >= 0 && file_of(m.from()) != dis_file) continue;
    if (dis_rank >= 0 && rank_of(m.from()) != dis_rank) continue;
    found = m;
    ++matches;
  }
  if (matches == 0) return fail("illegal move '" + token + "' in position " + pos.fen());
  if (matches > 1) return fail("ambiguous move '" + token + "'");
  out = found;
  return true;
}

namespace {

struct RawPgn {
  std::vector<std::pair<std::string, std::string>> headers;
  std::string bad_header;
  std::string movetext;
};

// Movetext tokens without comments, variations, NAGs, move numbers and the result.
std::vector<std::string> move_tokens(const std::string& text, std::string& result_token) {
  std::vector<std::string> out;
  int depth = 0;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '{') {
      size_t e = text.find('}', i);
      i = e == std::string::npos ? text.size() : e + 1;
      continue;
    }
    if (c == ';') {
      size_t e = text.find('\n', i);
      i = e == std::string::npos ? text.size() : e + 1;
      continue;
    }
    if (c == '(') {
      ++depth;
      ++i;
      continue;
    }
    if (c == ')') {
      if (depth > 0) --depth;
      ++i;
      continue;
    }
    if (std::isspace((unsigned char)c)) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && !std::isspace((unsigned char)text[j]) && text[j] != '{' && text[j] != '(' &&
           text[j] != ')' && text[j] != ';')
      ++j;
    std::string tok = text.substr(i, j - i);
    i = j;
    if (depth > 0 || tok[0] == '$') continue;
    if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") {
      result_token = tok;
      continue;
    }
    // "12." / "12..." / "12.e2e3"
    size_t k = 0;
    while (k < tok.size() && std::isdigit((unsigned char)tok[k])) ++k;
    if (k > 0 && k < tok.size() && tok[k] == '.') {
      while (k < tok.size() && tok[k] == '.') ++k;
      tok = tok.substr(k);
      if (tok.empty()) continue;
    }
    out.push_back(tok);
  }
  return out;
}

void finish_pgn(const RawPgn& raw, ParsedGame& g) {
  auto fail = [&](const std::string& why, int ply) {
    g.error = why;
    g.error_ply = ply;
  };
  if (!raw.bad_header.empty()) return fail("bad header line '" + raw.bad_header + "'", -1);
  std::string variant, fen, result, termination;
  for (auto& [k, v] : raw.headers) {
    if (k == "Variant")
      variant = v;
    else if (k == "FEN")
      fen = v;
    else if (k == "Result")
      result = v;
    else if (k == "Termination")
      termination = lower(v);
  }
  std::string var = lower(variant);
  if (var.empty()) return fail("no [Variant] header (not a Janggi or Xiangqi PGN)", -1);
  if (!parse_ruleset(var, g.ruleset))
    return fail("variant '" + variant + "' is neither a Janggi rule set nor Xiangqi", -1);
  if (fen.empty()) fen = Position::start_fen(g.ruleset);
  Position pos;
  std::string why;
  if (!pos.set_fen(fen, g.ruleset, &why)) return fail("bad [FEN]: " + why, -1);
  g.start_fen = fen;
  std::string result_token;
  std::vector<std::string> toks = move_tokens(raw.movetext, result_token);
  if (result.empty() || result == "?") result = result_token;
  if (result == "1-0")
    g.winner = Winner::CHO;
  else if (result == "0-1")
    g.winner = Winner::HAN;
  else if (result == "1/2-1/2")
    g.winner = Winner::DRAW;
  else if (!result.empty() && result != "*")
    return fail("bad [Result] '" + result + "'", -1);
  bool decisive = g.winner == Winner::CHO || g.winner == Winner::HAN;
  g.ending =
      decisive ? (termination.find("time") != std::string::npos ? Ending::TIME : Ending::RESIGNATION) : Ending::NONE;
  for (const std::string& tok : toks) {
    Move m;
    if (!parse_pgn_move(pos, tok, m, &why)) return fail(why, int(g.moves.size()));
    pos.do_move(m);
    g.moves.push_back(m);
  }
}

}  // namespace

std::vector<ParsedGame> read_pgn(const std::string& text) {
  std::vector<RawPgn> raws(1);
  bool in_moves = false;
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(at, nl - at);
    at = nl + 1;
    size_t a = line.find_first_not_of(" \t");
    if (a == std::string::npos) continue;
    line = line.substr(a);
    if (line[0] == '[') {
      if (in_moves) {
        raws.emplace_back();
        in_moves = false;
      }
      size_t sp = line.find(' '), q1 = line.find('"'), q2 = line.rfind('"');
      size_t close = line.find_last_not_of(" \t");
      if (sp == std::string::npos || q1 == std::string::npos || q1 == q2 || line[close] != ']' || q2 + 1 != close) {
        if (raws.back().bad_header.empty()) raws.back().bad_header = line;
      } else {
        raws.back().headers.push_back({line.substr(1, sp - 1), line.substr(q1 + 1, q2 - q1 - 1)});
      }
    } else {
      in_moves = true;
      raws.back().movetext += line + "\n";
    }
  }
  std::vector<ParsedGame> out;
  for (const RawPgn& r : raws) {
    if (r.headers.empty() && r.movetext.empty() && r.bad_header.empty()) continue;
    ParsedGame g;
    g.index = int(out.size());
    finish_pgn(r, g);
    out.push_back(std::move(g));
  }
  return out;
}

bool write_pgn(const std::string& start_fen, Ruleset rules, const std::vector<Move>& moves, Winner winner,
               Ending ending, std::string& out, std::string* error) {
  Position pos;
  std::string why;
  if (!pos.set_fen(start_fen, rules, &why)) {
    if (error) *error = "bad start FEN: " + why;
    return false;
  }
  const char* result = score_text(winner);
  out = std::string("[Variant \"") + (rules == Ruleset::JANGGI    ? "Janggi"
                                                     : rules == Ruleset::XIANGQI ? "Xiangqi"
                                                                                 : ruleset_name(rules)) + "\"]\n";
  out += "[FEN \"" + start_fen + "\"]\n[SetUp \"1\"]\n";
  out += std::string("[Result \"") + result + "\"]\n";
  if (ending == Ending::TIME) out += "[Termination \"time forfeit\"]\n";
  out += "\n";
  int col = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (!is_legal(pos, moves[i])) {
      if (error) *error = "illegal move " + move_to_uci(moves[i]) + " at ply " + std::to_string(i);
      return false;
    }
    std::string tok = (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : "") + move_to_uci(moves[i]);
    if (col > 0 && col + tok.size() > 79) {
      out += "\n";
      col = 0;
    } else if (col > 0) {
      out += " ";
      ++col;
    }
    out += tok;
    col += int(tok.size());
    pos.do_move(moves[i]);
  }
  out += std::string(col > 0 ? " " : "") + result + "\n";
  return true;
}

}  // namespace jz
