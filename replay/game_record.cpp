#include "replay/game_record.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/rules.h"
#include "core/setups.h"

namespace jz {

bool replay_game(const GameRecord& g, Position& pos, int plies, std::string* error) {
  std::string why;
  if (!pos.set_fen(g.start_fen, g.ruleset, &why)) {
    if (error) *error = "bad start FEN: " + why;
    return false;
  }
  int n = plies < 0 || plies > g.num_plies() ? g.num_plies() : plies;
  for (int i = 0; i < n; ++i) {
    Move m = g.plies[i].move;
    if (!is_legal(pos, m)) {
      if (error) *error = "illegal move " + move_to_uci(m) + " at ply " + std::to_string(i);
      return false;
    }
    pos.do_move(m);
  }
  return true;
}

bool validate_game(const GameRecord& g, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  Position pos;
  std::string why;
  if (!pos.set_fen(g.start_fen, g.ruleset, &why)) return fail("bad start FEN: " + why);
  MoveList legal;
  for (int i = 0; i < g.num_plies(); ++i) {
    const PlyRecord& p = g.plies[i];
    generate_legal(pos, legal);
    if (game_result(pos, legal.size).over())
      return fail("move at ply " + std::to_string(i) + " played after the game ended");
    if (!legal.contains(p.move)) return fail("illegal move " + move_to_uci(p.move) + " at ply " + std::to_string(i));
    if (p.full_search && p.policy_size == 0)
      return fail("full search without a policy target at ply " + std::to_string(i));
    uint32_t sum = 0;
    for (int k = 0; k < p.policy_size; ++k) {
      const PolicyEntry& e = g.policy[p.policy_begin + k];
      if (!legal.contains(e.move)) return fail("policy target over an illegal move at ply " + std::to_string(i));
      sum += e.prob;
    }
    // Each entry rounds by at most half a step.
    if (p.policy_size > 0 && (sum + p.policy_size < 65535 || sum > 65535u + p.policy_size))
      return fail("policy target does not sum to 1 at ply " + std::to_string(i));
    pos.do_move(p.move);
  }
  if (g.final_margin != material_margin(pos)) return fail("stored margin differs from the final position");
  GameResult actual = game_result(pos);
  GameResult stored = g.result();
  if (rules_ending(g.ending)) {
    if (actual.winner != stored.winner || actual.ending != stored.ending || actual.by_counting != stored.by_counting)
      return fail("stored result " + stored.str() + " but the rules give " + actual.str());
    return true;
  }
  if (actual.over()) return fail("game continued past its end (" + actual.str() + ")");
  if (g.ending == Ending::RESIGNATION) {
    if (g.winner != Winner::CHO && g.winner != Winner::HAN) return fail("resignation without a winner");
    return true;
  }
  // Imported games also end on time, or by agreement / an arbiter (ending none) with any result.
  if (g.source != GameSource::SELFPLAY && g.ending == Ending::TIME) {
    if (g.winner != Winner::CHO && g.winner != Winner::HAN) return fail("time loss without a winner");
    return true;
  }
  if (g.source != GameSource::SELFPLAY && g.ending == Ending::NONE) {
    if (g.winner == Winner::NONE) return fail("imported game without a result");
    return true;
  }
  if (g.ending == Ending::LENGTH_CAP) {
    GameResult r = decide(pos, Ending::LENGTH_CAP);
    if (r.winner != stored.winner || r.by_counting != stored.by_counting)
      return fail("length-cap adjudication " + stored.str() + " but counting gives " + r.str());
    return true;
  }
  return fail(std::string("unexpected ending '") + ending_name(g.ending) + "'");
}

std::string game_to_uci(const GameRecord& g) {
  std::string s = "position fen " + g.start_fen;
  if (!g.plies.empty()) s += " moves";
  for (const PlyRecord& p : g.plies) s += " " + move_to_uci(p.move);
  return s;
}

std::string game_to_json(const GameRecord& g) {
  nlohmann::json j;
  j["fen"] = g.start_fen;
  j["rules"] = ruleset_name(g.ruleset);
  j["setup"] = setup_name(g.ruleset, g.setup);
  std::vector<std::string> moves;
  for (const PlyRecord& p : g.plies) moves.push_back(move_to_uci(p.move));
  j["moves"] = moves;
  j["plies"] = g.num_plies();
  j["result"] = g.result().str().substr(0, g.result().str().find(' '));
  j["winner"] = winner_name(g.winner);
  j["ending"] = ending_name(g.ending);
  j["by_counting"] = g.by_counting();
  j["margin"] = g.final_margin;
  j["network"] = g.network_id;
  j["seed"] = g.seed;
  if (g.source != GameSource::SELFPLAY) j["source"] = game_source_name(g.source);
  if (!g.origin.empty()) j["origin"] = g.origin;
  if (g.flags & GAME_FLAG_NO_RESIGN) j["no_resign"] = true;
  if (g.flags & GAME_FLAG_WOULD_RESIGN) j["would_resign"] = color_name(g.would_resign);
  // The network id comes from the chunk file as it is: invalid UTF-8 must not make dump() throw.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool game_from_json(const std::string& line, GameRecord& g, int* bad_ply, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  if (bad_ply) *bad_ply = -1;
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
  auto str = [&](const char* key, std::string& out) {
    auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_string()) return false;
    out = it->get<std::string>();
    return true;
  };
  g = GameRecord();
  std::string rules = "janggi", winner, ending = "none", setup;
  if (!str("fen", g.start_fen) || g.start_fen.empty()) return fail("missing or bad \"fen\"");
  if (!str("rules", rules) || !parse_ruleset(rules, g.ruleset)) return fail("bad \"rules\" '" + rules + "'");
  if (!str("winner", winner) || !str("ending", ending) || !str("network", g.network_id))
    return fail("\"winner\", \"ending\" and \"network\" must be strings");
  if (winner == "cho")
    g.winner = Winner::CHO;
  else if (winner == "han")
    g.winner = Winner::HAN;
  else if (winner == "draw")
    g.winner = Winner::DRAW;
  else
    return fail("bad \"winner\" '" + winner + "'");
  if (!parse_ending(ending, g.ending)) return fail("bad \"ending\" '" + ending + "'");
  if (j.contains("by_counting")) {
    if (!j["by_counting"].is_boolean()) return fail("\"by_counting\" must be true or false");
    if (j["by_counting"].get<bool>()) g.flags |= GAME_FLAG_BY_COUNTING;
  }
  auto moves = j.find("moves");
  if (moves == j.end() || !moves->is_array()) return fail("missing \"moves\" list");
  Position pos;
  std::string why;
  if (!pos.set_fen(g.start_fen, g.ruleset, &why)) return fail("bad start FEN: " + why);
  for (int s = 0; s < setup_count(g.ruleset); ++s)
    if (setup_fen(g.ruleset, s) == g.start_fen) g.setup = uint8_t(s);
  const float draw[3] = {0, 1, 0};
  for (size_t i = 0; i < moves->size(); ++i) {
    const auto& m = (*moves)[i];
    Move mv;
    if (!m.is_string() || !parse_legal_uci_move(pos, m.get<std::string>(), mv, &why)) {
      if (bad_ply) *bad_ply = int(i);
      return fail(m.is_string() ? why : "move is not a string");
    }
    g.add_ply(mv, false, draw, {});
    pos.do_move(mv);
  }
  g.final_margin = int16_t(material_margin(pos));
  return true;
}

std::string game_to_text(const GameRecord& g) {
  std::ostringstream os;
  GameResult r = g.result();
  os << "[Rules \"" << ruleset_name(g.ruleset) << "\"]\n";
  os << "[Setup \"" << setup_name(g.ruleset, g.setup) << "\"]\n";
  os << "[FEN \"" << g.start_fen << "\"]\n";
  os << "[Network \"" << g.network_id << "\"]\n";
  os << "[Seed \"" << g.seed << "\"]\n";
  os << "[Result \"" << r.str().substr(0, r.str().find(' ')) << "\"]\n";
  os << "[Ending \"" << ending_name(g.ending) << (g.by_counting() ? ", counting" : "") << "\"]\n";
  os << "[Margin \"" << g.final_margin << "\"]\n";
  os << "[Plies \"" << g.num_plies() << "\"]\n\n";
  int col = 0;
  for (int i = 0; i < g.num_plies(); ++i) {
    std::string tok;
    if (i % 2 == 0) tok = std::to_string(i / 2 + 1) + ". ";
    tok += move_to_uci(g.plies[i].move);
    if (col + tok.size() > 80) {
      os << "\n";
      col = 0;
    } else if (col > 0) {
      os << " ";
      ++col;
    }
    os << tok;
    col += int(tok.size());
  }
  os << (col > 0 ? " " : "") << r.str().substr(0, r.str().find(' ')) << "\n";
  return os.str();
}

}  // namespace jz
