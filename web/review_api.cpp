#include "web/review_api.h"

#include <nlohmann/json.hpp>

#include "core/notation.h"
#include "records/gib.h"
#include "records/pgn.h"
#include "web/game_json.h"

namespace jz {

namespace {

using json = nlohmann::json;

// Every position of the game from its start: FEN and the material count (Han with its 1.5).
json positions_json(const Game& game) {
  json out = json::array();
  Game replay;
  std::string err;
  replay.start(game.start_fen(), game.rules(), game.options(), &err);
  for (int i = 0;; ++i) {
    const Position& pos = replay.pos();
    out.push_back({{"fen", pos.fen()}, {"count", {{"cho", pos.material(CHO)}, {"han", pos.material(HAN) + 1.5}}}});
    if (i == game.ply() || !replay.play(game.moves()[i], &err)) break;
  }
  return out;
}

json review_json(const std::string& id, const GameStore::Finished& f, json analysis) {
  const Game& g = f.game;
  GameResult r = g.result();
  json moves = moves_json(g);
  std::string gib, pgn, err;
  write_gib(g.start_fen(), g.rules(), g.moves(), r.winner, r.ending, gib, &err);
  write_pgn(g.start_fen(), g.rules(), g.moves(), r.winner, r.ending, pgn, &err);
  return {{"id", id},
          {"game", game_name(g.pos().game())},
          {"rules", ruleset_name(g.rules())},
          {"setup", g.setup()},
          {"human", f.human},
          {"level", f.level},
          {"player", f.player},
          {"ranked", f.ranked},
          {"points", f.points},
          {"finished_at", f.finished_at},
          {"result", {{"text", r.str()}, {"winner", winner_word(r.winner)}, {"ending", ending_name(r.ending)},
                      {"by_counting", r.by_counting}}},
          {"moves", moves},
          {"positions", positions_json(g)},
          {"gib", gib},
          {"pgn", pgn},
          {"analysis", std::move(analysis)}};
}

}  // namespace

bool handle_review_request(GameStore& store, const WebRequest& req, WebResponse* out) {
  if (req.path != "/api/review" || (req.method != "GET" && req.method != "HEAD")) return false;
  std::string id = param(req, "id");
  if (id.empty() || id.size() > 64) return *out = json_error(400, "send ?id=GAME"), true;
  GameStore::Finished f;
  ApiReply fail;
  if (!store.finished(id, &f, &fail)) return *out = {fail.status, "application/json; charset=utf-8", fail.body, {}}, true;
  json analysis = store.analyzer().request("game:" + id + ":" + std::to_string(f.game.ply()), f.game);
  *out = json_response(200, review_json(id, f, std::move(analysis)));
  return true;
}

}  // namespace jz
