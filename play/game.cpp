#include "play/game.h"

#include <nlohmann/json.hpp>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/notation_xiangqi.h"
#include "core/setups.h"
#include "util/fileio.h"

namespace jz {

using json = nlohmann::json;

const char* winner_word(Winner w) { return winner_name(w, ""); }

Game::Game() {
  std::string err;
  start(Position::start_fen(Ruleset::JANGGI), Ruleset::JANGGI, &err);
}

bool Game::start(const std::string& fen, Ruleset rules, std::string* error) {
  return start(fen, rules, RuleOptions{}, error);
}

bool Game::start(const std::string& fen, Ruleset rules, RuleOptions options, std::string* error) {
  Position p;
  if (!p.set_fen(fen, rules, options, error)) return false;
  pos_ = p;
  start_fen_ = fen;
  setup_.clear();
  moves_.clear();
  resigned_ = GameResult();
  return true;
}

bool Game::start_setup(const std::string& setup, Ruleset rules, std::string* error) {
  return start_setup(setup, rules, RuleOptions{}, error);
}

bool Game::start_setup(const std::string& setup, Ruleset rules, RuleOptions options, std::string* error) {
  WingSetup cho, han;
  if (!parse_setup_sides(setup, cho, han)) {
    if (error) *error = "unknown setup '" + setup + "' (e.g. inner-outer, 안상-바깥상, or 0..15)";
    return false;
  }
  if (game_of(rules) == GameKind::XIANGQI) {
    if (cho == WingSetup::INNER && han == WingSetup::INNER)
      return start(Position::start_fen(rules), rules, options, error);
    if (error) *error = "setup '" + setup + "' is Janggi's: xiangqi has one start position";
    return false;
  }
  if ((cho == WingSetup::ELEPHANT_CHARIOT || han == WingSetup::ELEPHANT_CHARIOT) &&
      !options.has(RuleOptions::ELEPHANT_CHARIOT)) {
    if (error) *error = "setup '" + setup + "' needs the rule option elephant-chariot";
    return false;
  }
  if (!start(setup_fen(cho, han), rules, options, error)) return false;
  setup_ = setup_name(cho, han);
  return true;
}

GameResult Game::result() const { return resigned_.over() ? resigned_ : game_result(pos_); }

bool Game::play(Move m, std::string* error) {
  GameResult r = result();
  if (r.over()) {
    if (error) *error = "the game is over: " + r.str();
    return false;
  }
  if (!is_legal(pos_, m)) {
    if (error) *error = "illegal move '" + move_to_uci(m) + "'";
    return false;
  }
  pos_.do_move(m);
  moves_.push_back(m);
  return true;
}

bool Game::play_text(const std::string& text, Move* played, std::string* error) {
  GameResult r = result();
  if (r.over()) {
    if (error) *error = "the game is over: " + r.str();
    return false;
  }
  Move m;
  if (!parse_any_move(pos_, text, m, error)) return false;
  if (!play(m, error)) return false;
  if (played) *played = m;
  return true;
}

int Game::undo(int n) {
  int done = 0;
  if (resigned_.over()) resigned_ = GameResult();
  while (done < n && !moves_.empty()) {
    pos_.undo_move();
    moves_.pop_back();
    ++done;
  }
  return done;
}

void Game::resign(Color loser) {
  if (over()) return;
  resigned_.winner = winner_of(~loser);
  resigned_.ending = Ending::RESIGNATION;
}

Position Game::position_before(int i) const {
  Position p;
  std::string err;
  p.set_fen(start_fen_, rules(), options(), &err);
  for (int k = 0; k < i; ++k) p.do_move(moves_[k]);
  return p;
}

std::vector<std::string> Game::write_moves(const std::function<std::string(const Position&, Move)>& write) const {
  std::vector<std::string> out;
  Position p = position_before(0);
  for (Move m : moves_) {
    out.push_back(write(p, m));
    p.do_move(m);
  }
  return out;
}

std::string Game::korean(int i, bool hanja) const { return move_to_korean(position_before(i), moves_[i], hanja); }

std::vector<std::string> Game::korean_moves(bool hanja) const {
  return write_moves([hanja](const Position& p, Move m) { return move_to_korean(p, m, hanja); });
}

std::string Game::notation(int i) const { return move_to_game_notation(position_before(i), moves_[i]); }

std::vector<std::string> Game::notation_moves() const { return write_moves(move_to_game_notation); }

std::string Game::to_json() const {
  json j;
  j["format"] = "janggi-zero-game";
  j["rules"] = ruleset_name(rules());
  if (options().any()) j["rule_options"] = rule_options_str(options());
  if (!setup_.empty()) j["setup"] = setup_;
  j["start_fen"] = start_fen_;
  json mv = json::array();
  for (Move m : moves_) mv.push_back(move_to_uci(m));
  j["moves"] = mv;
  j["korean"] = korean_moves();
  if (pos_.xiangqi()) j["chinese"] = notation_moves();
  GameResult r = result();
  j["result"] = r.str();
  j["winner"] = winner_word(r.winner);
  j["ending"] = r.over() ? ending_name(r.ending) : "";
  // The start FEN is kept as the user gave it: invalid UTF-8 must not make dump() throw.
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool Game::from_json(const std::string& text, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "bad game record: " + why;
    return false;
  };
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
  if (!j.contains("start_fen") || !j["start_fen"].is_string()) return fail("missing start_fen");
  if (!j.contains("moves") || !j["moves"].is_array()) return fail("missing moves");
  Ruleset rules = Ruleset::JANGGI;
  if (j.contains("rules") && !(j["rules"].is_string() && parse_ruleset(j["rules"].get<std::string>(), rules)))
    return fail("unknown rules");
  RuleOptions options;
  std::string err;
  if (j.contains("rule_options") &&
      !(j["rule_options"].is_string() && parse_rule_options(j["rule_options"].get<std::string>(), options, &err)))
    return fail(err.empty() ? "rule_options must be a string" : err);
  Game g;
  if (!g.start(j["start_fen"].get<std::string>(), rules, options, &err)) return fail(err);
  if (j.contains("setup") && j["setup"].is_string()) g.setup_ = j["setup"].get<std::string>();
  for (const json& m : j["moves"]) {
    if (!m.is_string()) return fail("moves must be strings");
    Move mv;
    if (!parse_legal_uci_move(g.pos_, m.get<std::string>(), mv, &err) || !g.play(mv, &err))
      return fail("move " + std::to_string(g.ply() + 1) + ": " + err);
  }
  // A resignation is the only ending the rules cannot see again from the moves.
  if (j.contains("ending") && j["ending"] == "resignation" && j.contains("winner") && !g.over()) {
    std::string w = j["winner"].is_string() ? j["winner"].get<std::string>() : "";
    if (w == "cho")
      g.resign(HAN);
    else if (w == "han")
      g.resign(CHO);
  }
  *this = g;
  return true;
}

bool Game::save(const std::string& path, std::string* error) const {
  return write_file_atomic(path, to_json() + "\n", error);
}

bool Game::load(const std::string& path, std::string* error) {
  std::string text;
  if (!read_file(path, text, error)) return false;
  return from_json(text, error);
}

}  // namespace jz
