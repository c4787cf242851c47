#include "web/ranking.h"

#include "core/notation.h"
#include "web/levels.h"

namespace jz {

const char* const RANKED_RULE =
    "A ranked win earns the level's points (easy 10, normal 30, expert 100, network 30) on the game's own ladder "
    "(Janggi and Xiangqi rank apart) when the game starts from a standard setup under the standard rules (janggi or "
    "xiangqi), you play one side against the computer, you use no undo and no engine hint, and it ends by the rules "
    "(checkmate, stalemate, passes, bikjang, perpetual check, repetition, counting) or the computer resigns. "
    "A ranked game you leave before it ends (for a new game, with no move for 15 minutes, or for so long that the "
    "server drops it) counts as a loss.";

bool ranked_start_ok(bool from_fen, Ruleset rules, const std::string& human, std::string* why) {
  std::string w;
  if (from_fen)
    w = "a ranked game starts from a standard setup, not a FEN";
  else if (rules != Ruleset::JANGGI && rules != Ruleset::XIANGQI)
    w = "a ranked game is played under the standard rules (janggi or xiangqi)";
  else if (human != "cho" && human != "han")
    w = "in a ranked game you play one side against the computer";
  if (why) *why = w;
  return w.empty();
}

void unrank(RankInfo& r, const std::string& why) {
  if (!r.ranked) return;
  r.ranked = false;
  r.note = why;
}

int ranked_points(const GameResult& result, const std::string& human, int level_points) {
  if (!result.over() || (human != "cho" && human != "han")) return 0;
  Winner person = human == "cho" ? Winner::CHO : Winner::HAN;
  if (result.winner != person) return 0;
  // A person's win by resignation can only be the computer's; TIME and the rest do not happen here.
  return rules_ending(result.ending) || result.ending == Ending::RESIGNATION ? level_points : 0;
}

void record_if_finished(const Game& game, const std::string& game_id, const std::string& level,
                        const std::string& human, RankInfo& r, PlayerDb* db) {
  GameResult res = game.result();
  if (r.recorded || !res.over()) return;
  r.recorded = true;
  bool person = human == "cho" || human == "han";
  std::string result;
  if (person)
    result = res.winner == Winner::DRAW ? "draw" : (res.winner == Winner::CHO) == (human == "cho") ? "win" : "loss";
  const WebLevel* l = find_web_level(level, true);
  FinishedGame f;
  f.game_id = game_id;
  f.player = r.player;
  f.level = level;
  f.human = human;
  f.rules = ruleset_name(game.rules());
  f.setup = game.setup();
  f.start_fen = game.start_fen();
  for (Move m : game.moves()) f.moves += (f.moves.empty() ? "" : " ") + move_to_uci(m);
  f.winner = winner_word(res.winner);
  f.ending = ending_name(res.ending);
  f.by_counting = res.by_counting;
  f.player_result = result;
  f.ranked = r.ranked && !r.player.empty();
  f.points = f.ranked && l ? ranked_points(res, human, l->points) : 0;
  r.result = result;
  if (!db) return;
  std::string err;
  if (db->record_game(f, &err))
    r.points = f.points;
  else
    r.record_error = err;
}

nlohmann::json rank_json(const RankInfo& r) {
  nlohmann::json j = {{"player", r.player}, {"ranked", r.ranked}, {"note", r.note}, {"recorded", r.recorded}};
  if (r.recorded) j["points"] = r.points, j["result"] = r.result;
  if (!r.record_error.empty()) j["record_error"] = r.record_error;
  return j;
}

}  // namespace jz
