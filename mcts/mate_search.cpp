#include "mcts/mate_search.h"

#include "core/movegen.h"
#include "core/rules.h"

namespace jz::mcts {

bool forced_win(Position& pos, int moves, int quiet) {
  if (moves <= 0) return false;
  MoveList list;
  generate_legal(pos, list);
  GameResult r = game_result(pos, list.size);
  if (r.over()) return r.winner == winner_of(pos.side_to_move());
  for (Move a : list) {
    if (a.is_pass()) continue;
    pos.do_move(a);
    // A quiet move cannot end the game at once, and is allowed only while quiet moves are left and
    // the attacker has a move after it.
    bool win = (pos.in_check() || (quiet > 0 && moves > 1)) && defender_lost(pos, moves - 1, quiet - 1);
    pos.undo_move();
    if (win) return true;
  }
  return false;
}

bool defender_lost(Position& pos, int moves, int quiet) {
  MoveList list;
  generate_legal(pos, list);
  GameResult r = game_result(pos, list.size);
  if (r.over()) return r.winner == winner_of(~pos.side_to_move());
  if (moves <= 0) return false;
  for (Move d : list) {
    pos.do_move(d);
    bool lost = forced_win(pos, moves, quiet);
    pos.undo_move();
    if (!lost) return false;
  }
  return true;
}

int guard_verdict(Position& pos, Move m, int moves, int quiet, int checks, int& plies) {
  pos.do_move(m);
  int v = 0;
  plies = 0;
  if (defender_lost(pos, 0, 0))  // the game ends here in the mover's favour
    v = 1;
  else if (moves > 1 && defender_lost(pos, moves - 1, quiet - 1))
    v = 1, plies = 2 * (moves - 1);
  else if (checks > 1 && pos.in_check() && defender_lost(pos, checks - 1, 0))
    v = 1, plies = 2 * (checks - 1);
  else if (forced_win(pos, moves, quiet))
    v = -1, plies = 2 * moves - 1;
  else if (forced_win(pos, checks, 0))
    v = -1, plies = 2 * checks - 1;
  pos.undo_move();
  return v;
}

}  // namespace jz::mcts
