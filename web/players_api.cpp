#include "web/players_api.h"

#include <nlohmann/json.hpp>

#include "core/notation.h"
#include "records/gib.h"

namespace jz {

using json = nlohmann::json;

namespace {

WebResponse reply(int status, const json& j) { return json_response(status, j); }
WebResponse error(int status, const std::string& msg) { return json_error(status, msg); }

// A positive integer parameter up to `max`, `def` when absent; false on anything else.
bool int_param(const WebRequest& req, const std::string& key, int def, int max, int* out) {
  std::string v = param(req, key);
  if (v.empty()) return *out = def, true;
  if (v.size() > 7 || v.find_first_not_of("0123456789") != std::string::npos) return false;
  int n = std::stoi(v);
  if (n < 1 || n > max) return false;
  return *out = n, true;
}

json stats_json(const PlayerStats& p) {
  json levels = json::object();
  for (const LevelStats& l : p.levels)
    levels[l.level] = {{"points", l.points}, {"wins", l.wins}, {"losses", l.losses}, {"draws", l.draws}};
  return {{"name", p.name},   {"created_at", p.created_at}, {"game", p.game},   {"points", p.points},
          {"wins", p.wins},   {"losses", p.losses},         {"draws", p.draws}, {"games", p.games},
          {"levels", levels}};
}

json game_json(const FinishedGame& g) {
  return {{"id", g.id},
          {"game_id", g.game_id},
          {"player", g.player},
          {"level", g.level},
          {"human", g.human},
          {"rules", g.rules},
          {"setup", g.setup},
          {"start_fen", g.start_fen},
          {"moves", g.moves},
          {"winner", g.winner},
          {"ending", g.ending},
          {"by_counting", g.by_counting},
          {"result", g.player_result},
          {"ranked", g.ranked},
          {"points", g.points},
          {"finished_at", g.finished_at}};
}

}  // namespace

bool replay_finished_game(const FinishedGame& g, Ruleset& rules, std::vector<Move>& moves) {
  Position pos;
  std::string err, tok;
  if (!parse_ruleset(g.rules, rules) || !pos.set_fen(g.start_fen, rules, &err)) return false;
  moves.clear();
  for (size_t i = 0; i <= g.moves.size(); ++i) {
    if (i < g.moves.size() && g.moves[i] != ' ') {
      tok += g.moves[i];
      continue;
    }
    if (tok.empty()) continue;
    Move m;
    if (!parse_legal_uci_move(pos, tok, m, &err)) return false;
    pos.do_move(m);
    moves.push_back(m);
    tok.clear();
  }
  return true;
}

bool export_games(const std::vector<FinishedGame>& games, const std::string& format, std::string* out,
                  std::string* error) {
  if (format != "jsonl" && format != "gib") {
    if (error) *error = "format must be jsonl or gib";
    return false;
  }
  out->clear();
  for (const FinishedGame& g : games) {
    Ruleset rules;
    std::vector<Move> moves;
    Ending ending;
    if (!replay_finished_game(g, rules, moves) || !parse_ending(g.ending, ending)) continue;
    if (format == "jsonl") {
      json j = {{"fen", g.start_fen},
                {"rules", g.rules},
                {"setup", g.setup.empty() ? "custom" : g.setup},
                {"moves", json::array()},
                {"plies", moves.size()},
                {"winner", g.winner},
                {"ending", g.ending},
                {"by_counting", g.by_counting},
                {"origin", "janggi-zero serve game " + g.game_id},
                {"level", g.level},
                {"human", g.human},
                {"player", g.player},
                {"ranked", g.ranked},
                {"points", g.points},
                {"finished_at", g.finished_at}};
      for (Move m : moves) j["moves"].push_back(move_to_uci(m));
      *out += j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    } else {
      Winner w = g.winner == "cho" ? Winner::CHO : g.winner == "han" ? Winner::HAN : Winner::DRAW;
      std::string text, err;
      if (!write_gib(g.start_fen, rules, moves, w, ending, text, &err)) continue;
      *out += text + "\n";
    }
  }
  return true;
}

bool handle_player_request(PlayerDb* db, const WebRequest& req, WebResponse* out) {
  const std::string& p = req.path;
  if (p != "/api/player" && p != "/api/leaderboard" && p != "/api/games" && p != "/api/export") return false;
  bool get = req.method == "GET" || req.method == "HEAD";
  if (!get) return false;  // the router's 404 (players are made by registering: web/accounts_api.h)
  if (!db) return *out = error(404, "this server keeps no players (start it with --data-dir DIR)"), true;
  std::string err, game = param(req, "game");  // the ladder: each game ranks on its own
  if (game.empty()) game = "janggi";
  if (game != "janggi" && game != "xiangqi") return *out = error(400, "game must be janggi or xiangqi"), true;
  if (p == "/api/player") {
    PlayerStats s;
    std::string name = param(req, "name");
    if (!PlayerDb::valid_name(name, &err)) return *out = error(400, err), true;
    if (!db->player(name, &s, &err, game)) return *out = error(404, err), true;
    return *out = reply(200, stats_json(s)), true;
  }
  int limit = 0;
  if (p == "/api/leaderboard") {
    if (!int_param(req, "limit", 100, 1000, &limit)) return *out = error(400, "limit must be 1..1000"), true;
    json list = json::array();
    std::vector<PlayerStats> players = db->leaderboard(limit, &err, game);
    if (!err.empty()) return *out = error(503, err), true;
    int rank = 0;
    for (const PlayerStats& s : players) {
      json e = stats_json(s);
      e["rank"] = ++rank;
      list.push_back(e);
    }
    return *out = reply(200, {{"game", game}, {"players", list}}), true;
  }
  std::string player = param(req, "player");
  if (!player.empty() && !PlayerDb::valid_name(player, &err)) return *out = error(400, err), true;
  std::vector<FinishedGame> games;
  if (p == "/api/games") {
    if (!int_param(req, "limit", 100, 10000, &limit)) return *out = error(400, "limit must be 1..10000"), true;
    std::string order = param(req, "order");
    if (order != "" && order != "oldest" && order != "newest") return *out = error(400, "order must be oldest or newest"), true;
    if (!db->games(player, limit, &games, &err, order == "newest")) return *out = error(503, err), true;
    json list = json::array();
    for (const FinishedGame& g : games) list.push_back(game_json(g));
    return *out = reply(200, {{"games", list}}), true;
  }
  std::string format = param(req, "format"), text;
  if (format.empty()) format = "jsonl";
  if (format != "jsonl" && format != "gib") return *out = error(400, "format must be jsonl or gib"), true;
  if (!db->games(player, 1000000, &games, &err)) return *out = error(503, err), true;
  export_games(games, format, &text, &err);
  std::string name = "janggi-zero-games" + (player.empty() ? "" : "-" + player) + "." + format;
  *out = {200, "text/plain; charset=utf-8", text, {{"Content-Disposition", "attachment; filename=\"" + name + "\""}}};
  return true;
}

}  // namespace jz
