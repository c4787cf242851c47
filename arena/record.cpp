#include "arena/record.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/rules.h"
#include "util/fileio.h"

namespace jz {

using nlohmann::json;

namespace {

bool parse_score(const std::string& s, Winner& w) {
  if (s == "1-0")
    w = Winner::CHO;
  else if (s == "0-1")
    w = Winner::HAN;
  else if (s == "1/2-1/2")
    w = Winner::DRAW;
  else
    return false;
  return true;
}

}  // namespace

double MatchRecord::player1_points() const {
  if (result.winner == Winner::DRAW) return 0.5;
  bool cho_won = result.winner == Winner::CHO;
  return cho_won == player1_cho ? 1.0 : 0.0;
}

std::string record_to_json(const MatchRecord& r) {
  std::string moves;
  for (Move m : r.moves) moves += (moves.empty() ? "" : " ") + move_to_uci(m);
  json j = {{"game", r.index},
            {"pair", r.pair},
            {"cho", r.cho},
            {"han", r.han},
            {"player1_cho", r.player1_cho},
            {"setup", r.setup},
            {"rules", ruleset_name(r.rules)},
            {"start_fen", r.start_fen},
            {"opening_plies", r.opening_plies},
            {"moves", moves},
            {"result", score_text(r.result.winner)},
            {"ending", ending_name(r.result.ending)},
            {"counting", r.result.by_counting},
            {"reason", r.reason},
            {"plies", r.moves.size()},
            {"seconds", std::round(r.seconds * 1000) / 1000}};
  if (r.options.any()) j["rule_options"] = rule_options_str(r.options);
  if (r.searched_moves[CHO] + r.searched_moves[HAN] > 0)
    j["nodes"] = {{"cho", r.nodes[CHO]},
                  {"han", r.nodes[HAN]},
                  {"cho_moves", r.searched_moves[CHO]},
                  {"han_moves", r.searched_moves[HAN]}};
  return j.dump();
}

bool record_from_json(const std::string& line, MatchRecord& r, std::string* error) {
  try {
    json j = json::parse(line);
    r = MatchRecord();
    r.index = j.at("game").get<int>();
    r.pair = j.at("pair").get<int>();
    r.cho = j.at("cho").get<std::string>();
    r.han = j.at("han").get<std::string>();
    r.player1_cho = j.at("player1_cho").get<bool>();
    r.setup = j.value("setup", "");
    r.start_fen = j.at("start_fen").get<std::string>();
    r.opening_plies = j.value("opening_plies", 0);
    r.reason = j.value("reason", "");
    r.seconds = j.value("seconds", 0.0);
    r.result.by_counting = j.value("counting", false);
    if (j.contains("nodes")) {  // absent in records written before it existed, and when no side reported
      const json& n = j.at("nodes");
      r.nodes[CHO] = n.at("cho").get<int64_t>(), r.nodes[HAN] = n.at("han").get<int64_t>();
      r.searched_moves[CHO] = n.at("cho_moves").get<int>(), r.searched_moves[HAN] = n.at("han_moves").get<int>();
      if (r.nodes[CHO] < 0 || r.nodes[HAN] < 0 || r.searched_moves[CHO] < 0 || r.searched_moves[HAN] < 0)
        throw std::runtime_error("negative node counts");
    }
    std::string rules = j.at("rules").get<std::string>();
    if (!parse_ruleset(rules, r.rules)) {
      *error = "unknown rules '" + rules + "'";
      return false;
    }
    if (!parse_rule_options(j.value("rule_options", ""), r.options, error)) return false;
    std::string score = j.at("result").get<std::string>(), ending = j.at("ending").get<std::string>();
    if (!parse_score(score, r.result.winner)) {
      *error = "bad result '" + score + "'";
      return false;
    }
    if (!parse_ending(ending, r.result.ending)) {
      *error = "bad ending '" + ending + "'";
      return false;
    }
    std::istringstream is(j.at("moves").get<std::string>());
    for (std::string tok; is >> tok;) {
      Move m;
      if (!parse_uci_move(tok, m)) {
        *error = "bad move '" + tok + "'";
        return false;
      }
      r.moves.push_back(m);
    }
  } catch (const std::exception& e) {
    *error = std::string("bad game record: ") + e.what();
    return false;
  }
  return true;
}

bool replay_record(const MatchRecord& r, GameResult& final_result, std::string* error) {
  Position pos;
  if (!pos.set_fen(r.start_fen, r.rules, r.options, error)) return false;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    if (game_result(pos).over()) {
      *error = "game over before move " + std::to_string(i + 1);
      return false;
    }
    if (!is_legal(pos, r.moves[i])) {
      *error = "illegal move " + std::to_string(i + 1) + " '" + move_to_uci(r.moves[i]) + "'";
      return false;
    }
    pos.do_move(r.moves[i]);
  }
  final_result = game_result(pos);
  return true;
}

bool write_records(const std::string& path, const std::vector<MatchRecord>& games, std::string* error) {
  std::string text;
  for (auto& g : games) text += record_to_json(g) + "\n";
  return write_file_atomic(path, text, error);
}

bool read_records(const std::string& path, std::vector<MatchRecord>& out, std::string* error) {
  std::string text;
  if (!read_file(path, text, error)) return false;
  std::istringstream is(text);
  int n = 0;
  for (std::string line; std::getline(is, line);) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    MatchRecord r;
    if (!record_from_json(line, r, error)) {
      *error = path + ":" + std::to_string(n) + ": " + *error;
      return false;
    }
    out.push_back(std::move(r));
  }
  return true;
}

}  // namespace jz
