#include "mcts/mate_search.h"

#include "core/movegen.h"
#include "core/rules.h"

#include <algorithm>

namespace jz::mcts {

bool forced_win(Position& pos, int moves, int quiet, MateBudget* budget) {
  if (moves <= 0 || (budget && !budget->spend())) return false;
  MoveList list;
  generate_legal(pos, list);
  GameResult r = game_result(pos, list.size);
  if (r.over()) return r.winner == winner_of(pos.side_to_move());
  const bool bikjang = pos.in_bikjang();
  for (Move a : list) {
    if (a.is_pass() && !bikjang) continue;  // only the pass that answers bikjang ends the game
    pos.do_move(a);
    // A quiet move cannot end the game at once, and is allowed only while quiet moves are left and
    // the attacker has a move after it.
    bool win = (a.is_pass() || pos.in_check() || (quiet > 0 && moves > 1)) &&
               defender_lost(pos, moves - 1, quiet - 1, budget);
    pos.undo_move();
    if (win) return true;
  }
  return false;
}

bool defender_lost(Position& pos, int moves, int quiet, MateBudget* budget) {
  if (budget && !budget->spend()) return false;
  MoveList list;
  generate_legal(pos, list);
  GameResult r = game_result(pos, list.size);
  if (r.over()) return r.winner == winner_of(~pos.side_to_move());
  if (moves <= 0) return false;
  for (Move d : list) {
    pos.do_move(d);
    bool lost = forced_win(pos, moves, quiet, budget);
    pos.undo_move();
    if (!lost) return false;
  }
  return true;
}

int guard_verdict(Position& pos, Move m, int moves, int quiet, int checks, int& plies, MateBudget* budget) {
  pos.do_move(m);
  int v = 0;
  plies = 0;
  bool check = pos.in_check();
  // The guard's families after m: the mover wins within d more moves (its first quiet-1 may be quiet, or
  // all give check), or the opponent wins within d moves. The longest search decides whether a proof
  // exists; only a proven move pays for the shorter ones that find its length (reported as mate N).
  auto mover_wins = [&](int d) {
    return (moves > 1 && defender_lost(pos, std::min(d, moves - 1), quiet - 1, budget)) ||
           (checks > 1 && check && defender_lost(pos, std::min(d, checks - 1), 0, budget));
  };
  auto opponent_wins = [&](int d) {
    return forced_win(pos, std::min(d, moves), quiet, budget) || forced_win(pos, std::min(d, checks), 0, budget);
  };
  int most = std::max(moves, checks);
  if (defender_lost(pos, 0, 0))  // the game ends here in the mover's favour
    v = 1;
  else if (mover_wins(most - 1))
    v = 1, plies = 2 * (most - 1);
  else if (opponent_wins(most))
    v = -1, plies = 2 * most - 1;
  for (int d = 1; v > 0 && 2 * d < plies; ++d)
    if (mover_wins(d)) plies = 2 * d;
  for (int d = 1; v < 0 && 2 * d - 1 < plies; ++d)
    if (opponent_wins(d)) plies = 2 * d - 1;
  pos.undo_move();
  return v;
}

namespace {

// The quickest win of the side to move within the guard's families (up to `moves` moves whose first
// `quiet` may be quiet, or up to `checks` checking moves): its length in moves and its first move, or 0.
int quickest_win(Position& pos, int moves, int quiet, int checks, Move& first) {
  MoveList list;
  generate_legal(pos, list);
  const bool bikjang = pos.in_bikjang();
  for (int d = 1; d <= std::max(moves, checks); ++d)
    for (Move a : list) {
      if (a.is_pass() && !bikjang) continue;  // only the pass that answers bikjang ends the game
      pos.do_move(a);
      bool check = pos.in_check();
      bool win = defender_lost(pos, 0, 0) ||
                 (d <= moves && (check || (quiet > 0 && d > 1)) && defender_lost(pos, d - 1, quiet - 1)) ||
                 (d <= checks && check && defender_lost(pos, d - 1, 0));
      pos.undo_move();
      if (win) return first = a, d;
    }
  return 0;
}

}  // namespace

std::vector<Move> proof_line(Position pos, int plies, int moves, int quiet, int checks) {
  std::vector<Move> line;
  while (plies > 0 && !game_result(pos).over()) {
    Move best = Move::none();
    if (plies % 2) {  // the winner to move: its quickest win
      int found = quickest_win(pos, moves, quiet, checks, best);
      if (!found) break;
      plies = 2 * found - 1;
    } else {  // the loser to move: the reply that the winner needs longest to punish
      int longest = 0;
      MoveList list;
      generate_legal(pos, list);
      for (Move r : list) {
        pos.do_move(r);
        Move m;
        int found = quickest_win(pos, moves, quiet, checks, m);
        pos.undo_move();
        if (!found) return line;  // a reply the families do not refute: the proof came another way
        if (found > longest) longest = found, best = r;
      }
      plies = 2 * longest;
    }
    line.push_back(best);
    pos.do_move(best);
    --plies;
  }
  return line;
}

}  // namespace jz::mcts
