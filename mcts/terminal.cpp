#include "mcts/terminal.h"

#include "core/rules.h"

namespace jz::mcts {

namespace {
// Material margin of the player who moved into pos.
float mover_margin(const Position& pos) {
  Color stm = pos.side_to_move();
  return float(pos.material(~stm) - pos.material(stm));
}
}  // namespace

void terminal_value(const Position& pos, const GameResult& r, double& v, float& d, float& m) {
  Color stm = pos.side_to_move();
  m = mover_margin(pos);
  if (r.winner == Winner::DRAW) {
    v = 0, d = 1;
    return;
  }
  d = 0;
  v = r.winner == winner_of(stm) ? -1.0 : 1.0;
}

// Checks are few: a handful of make/unmakes per leaf, far less than a network call.
int winning_move(Position& pos, const MoveList& moves, float& margin) {
  MoveList replies;
  const bool bikjang = pos.in_bikjang();  // then a pass ends the game (a count, or a draw)
  for (int i = 0; i < moves.size; ++i) {
    const bool pass = moves[i].is_pass();
    if (pass && !bikjang) continue;
    pos.do_move(moves[i]);
    bool won = false;
    if (pass || pos.in_check()) {
      generate_legal(pos, replies);
      GameResult r = game_result(pos, replies.size);
      if ((won = r.over() && r.winner == winner_of(~pos.side_to_move())))
        margin = mover_margin(pos);
    }
    pos.undo_move();
    if (won) return i;
  }
  return -1;
}

}  // namespace jz::mcts
