// alphabeta:level=easy|normal|expert | depth=D | nodes=N | movetime=MS [,blunder=PCT,margin=CP,seed=S,hash=MB]
//   [,scores=D]: also score every root move D plies deep (soft policy targets of teacher games).
//   [,version=1]: the pinned engine (classic evaluation and search); [,features=MASK]: search additions.
// Our alpha-beta baseline engine (arena/alphabeta), one engine per player instance.
#include "alphabeta/engine.h"
#include "arena/player.h"
#include "core/notation.h"

namespace jz {

namespace {

class AlphaBetaPlayer : public Player {
 public:
  AlphaBetaPlayer(const AbLimits& limits, size_t hash_mb, int score_depth)
      : engine_(hash_mb), limits_(limits), score_depth_(score_depth) {}
  bool new_game(Ruleset, std::string*) override {
    engine_.new_game();
    return true;
  }
  PlayerReply play(const Position& pos, const std::string&, const std::vector<Move>&) override {
    PlayerReply r;
    r.move = engine_.search(pos, limits_);
    limits_.seed = limits_.seed * 6364136223846793005ULL + 1442695040888963407ULL;  // vary blunders per move
    if (r.move.is_none()) r.error = "engine found no move";
    const AbInfo& i = engine_.last_info();
    r.has_score = i.depth > 0;
    r.score_cp = i.score_cp;
    r.mate = i.mate;
    if (score_depth_ > 0 && !r.move.is_none()) r.root_scores = engine_.score_root_moves(score_depth_);
    r.info = "depth " + std::to_string(i.depth) + " score " +
             (i.mate ? "mate " + std::to_string(i.mate) : "cp " + std::to_string(i.score_cp)) + " nodes " +
             std::to_string(i.nodes);
    r.nodes = int64_t(i.nodes);
    return r;
  }

 private:
  AlphaBetaEngine engine_;
  AbLimits limits_;
  int score_depth_;
};

}  // namespace

bool make_alphabeta_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error) {
  if (!s.arg.empty()) {
    *error = "player spec '" + s.text + "': expected alphabeta:level=easy|normal|expert or depth=/nodes=/movetime=";
    return false;
  }
  if (!spec_keys(
          s,
          {"level", "depth", "nodes", "movetime", "blunder", "margin", "seed", "hash", "scores", "version", "features"},
          error))
    return false;
  int64_t hash = 16, scores = 0;
  if (!spec_int(s, "hash", 1, 65536, hash, error)) return false;
  if (!spec_int(s, "scores", 0, 8, scores, error)) return false;
  // The engine's level syntax: a named level, then overrides.
  std::string level;
  if (const std::string* l = s.find("level")) level = *l;
  for (auto& [k, v] : s.options) {
    if (k == "level" || k == "name" || k == "hash" || k == "scores") continue;
    level += (level.empty() ? "" : ",") + k + "=" + v;
  }
  if (level.empty()) {
    *error = "player spec '" + s.text + "': give level=easy|normal|expert, depth=D, nodes=N or movetime=MS";
    return false;
  }
  AbLimits limits;
  std::string err;
  if (!AlphaBetaEngine::parse_level(level, limits, &err)) {
    *error = "player spec '" + s.text + "': " + err;
    return false;
  }
  if (!s.find("seed")) limits.seed = seed | 1;
  if (out) out->reset(new AlphaBetaPlayer(limits, size_t(hash), int(scores)));
  return true;
}

}  // namespace jz
