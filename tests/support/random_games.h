// Random legal games with made-up search data, for replay format and buffer tests.
#pragma once
#include <random>

#include "core/movegen.h"
#include "core/rules.h"
#include "core/setups.h"
#include "replay/replay_format.h"

namespace jz::test {

inline GameRecord random_game(std::mt19937_64& rng, Ruleset rules, int max_plies = 200) {
  GameRecord g;
  g.setup = uint8_t(rng() % SETUP_NB);
  g.start_fen = setup_fen(g.setup);
  if (game_of(rules) == GameKind::XIANGQI) g.setup = 0, g.start_fen = Position::XIANGQI_START_FEN;
  g.ruleset = rules;
  g.seed = rng();
  g.network_id = "net-" + std::to_string(rng() % 1000);
  Position pos;
  std::string err;
  pos.set_fen(g.start_fen, rules, &err);
  MoveList legal;
  GameResult r;
  for (;;) {
    generate_legal(pos, legal);
    r = game_result(pos, legal.size);
    if (r.over() || g.num_plies() >= max_plies) break;
    std::vector<std::pair<Move, float>> target;
    bool full = rng() % 4 != 0;
    if (full) {
      std::vector<float> w(legal.size);
      float sum = 0;
      for (float& x : w) sum += x = float(rng() % 1000 + 1);
      for (int i = 0; i < legal.size; ++i) target.push_back({legal[i], w[i] / sum});
    }
    float wdl[3] = {0.3f, 0.5f, 0.2f};
    // Prefer captures a little so games end inside the cap more often.
    Move m = legal[int(rng() % legal.size)];
    for (int tries = 0; tries < 3 && (m.is_pass() || pos.piece_on(m.to()) == NO_PIECE); ++tries)
      m = legal[int(rng() % legal.size)];
    g.add_ply(m, full, wdl, target);
    pos.do_move(m);
  }
  if (!r.over()) r = decide(pos, Ending::LENGTH_CAP);
  g.winner = r.winner;
  g.ending = r.ending;
  g.flags = r.by_counting ? GAME_FLAG_BY_COUNTING : 0;
  g.final_margin = int16_t(material_margin(pos));
  return g;
}

}  // namespace jz::test
