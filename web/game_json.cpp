#include "web/game_json.h"

#include "core/movegen.h"
#include "core/notation.h"
#include "core/notation_xiangqi.h"

namespace jz {

using json = nlohmann::json;

namespace {

const char* LETTERS = ".KABNRCP";

json pieces_json(const Position& pos) {
  json pieces = json::array();
  for (int s = 0; s < SQUARE_NB; ++s) {
    Piece p = pos.piece_on(Square(s));
    if (!p) continue;
    json e = {{"sq", square_name(Square(s))},
              {"file", file_of(Square(s))},
              {"rank", rank_of(Square(s))},
              {"color", color_name(color_of(p))},
              {"type", std::string(1, LETTERS[type_of(p)])}};
    if (pos.xiangqi()) {
      e["label"] = e["chinese"] = piece_name_chinese(p);
    } else {
      e["label"] = e["hanja"] = piece_name_hanja(p);
      e["hangul"] = piece_name_hangul(p);
    }
    pieces.push_back(e);
  }
  return pieces;
}

// The moves a person may make: targets by square, soldier promotions apart (the page asks which),
// and the pass (Janggi) as its UCI text.
void legal_json(const Position& pos, json& j) {
  json legal = json::object(), promotions = json::object();
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) {
    if (m.is_pass())
      j["pass"] = move_to_uci(m);
    else if (m.promotion() != NO_PIECE_TYPE)
      promotions[square_name(m.from()) + square_name(m.to())].push_back(move_to_uci(m));
    else
      legal[square_name(m.from())].push_back(square_name(m.to()));
  }
  j["legal"] = legal;
  j["promotions"] = promotions;
}

}  // namespace

json move_json(const Position& pos, Move m) {
  json j = {{"uci", move_to_uci(m)}};
  if (pos.xiangqi()) {
    j["chinese"] = j["notation"] = move_to_chinese(pos, m);
    j["wxf"] = move_to_wxf(pos, m);
  } else {
    j["korean"] = j["notation"] = move_to_korean(pos, m);
    j["hanja"] = move_to_korean(pos, m, true);
  }
  return j;
}

json moves_json(const Game& game) {
  json moves = json::array();
  Position pos;
  std::string err;
  if (!pos.set_fen(game.start_fen(), game.rules(), game.options(), &err)) return moves;
  for (Move m : game.moves()) {
    moves.push_back(move_json(pos, m));
    pos.do_move(m);
  }
  return moves;
}

json line_json(const Position& from, const std::vector<Move>& line, json* uci) {
  json out = json::array();
  Position p = from;
  for (Move x : line) {
    if (!is_legal(p, x)) break;
    if (uci) uci->push_back(move_to_uci(x));
    out.push_back(move_to_game_notation(p, x));
    p.do_move(x);
  }
  return out;
}

json shown_eval(const GameStore::WebGame& g) {
  if (!g.eval.is_object() || !g.rank.ranked || g.game.over()) return g.eval;
  json out = {{"hidden", true}};
  for (const char* k : {"by", "side", "network", "think_ms", "limit_ms"})
    if (g.eval.contains(k)) out[k] = g.eval[k];
  return out;
}

json state_json(const GameStore::WebGame& g) {
  const Position& pos = g.game.pos();
  json j;
  j["id"] = g.id;
  j["game"] = game_name(pos.game());
  j["rules"] = ruleset_name(g.game.rules());
  j["rule_options"] = rule_options_str(g.game.options());
  j["setup"] = g.game.setup();
  j["start_fen"] = g.game.start_fen();
  j["fen"] = pos.fen();
  j["turn"] = color_name(pos.side_to_move());
  j["ply"] = g.game.ply();
  j["human"] = g.human;
  j["level"] = g.level;
  j["in_check"] = pos.in_check();
  j["bikjang"] = pos.in_bikjang();
  j["pieces"] = pieces_json(pos);
  j["moves"] = moves_json(g.game);
  GameResult r = g.game.result();
  j["result"] = {{"over", r.over()},
                 {"text", r.str()},
                 {"winner", winner_word(r.winner)},
                 {"ending", r.over() ? ending_name(r.ending) : ""},
                 {"by_counting", r.by_counting}};
  if (r.by_counting)  // the count as the rules make it: Han gets 1.5 points for moving second
    j["result"]["count"] = {{"cho", pos.material(CHO)}, {"han", pos.material(HAN) + 1.5}};
  j["pass"] = nullptr;
  j["legal"] = json::object();
  j["promotions"] = json::object();
  if (!r.over()) legal_json(pos, j);
  j["last_move"] = g.game.ply() ? json(move_to_uci(g.game.moves().back())) : json(nullptr);
  j["eval"] = shown_eval(g);
  j["rank"] = rank_json(g.rank);
  return j;
}

}  // namespace jz
