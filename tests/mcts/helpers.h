// Shared helpers of the search tests: positions, a tiny mate solver on the rules core, flipping.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/movegen.h"
#include "core/rules.h"
#include "mcts/search.h"
#include "mcts/stub_evaluator.h"

namespace jz::test {

inline Position make_pos(const std::string& fen, Ruleset rules = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, rules, &err)) << fen << ": " << err;
  return p;
}

// The same position seen from the other side: board rotated 180 degrees, colors swapped.
inline std::string flip_fen(const std::string& fen) {
  std::string board = fen.substr(0, fen.find(' '));
  std::string rest = fen.substr(fen.find(' ') + 1);
  std::reverse(board.begin(), board.end());  // reverses rank order and the order within each rank
  for (char& c : board)
    if (std::isalpha(static_cast<unsigned char>(c)))
      c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
  rest[0] = rest[0] == 'w' ? 'b' : 'w';
  return board + " " + rest;
}

// m ends the game at once in the mover's favour (mate, or e.g. a pass in bikjang when ahead).
inline bool wins_at_once(Position& p, Move m) {
  Color us = p.side_to_move();
  p.do_move(m);
  GameResult r = game_result(p);
  p.undo_move();
  return r.winner == winner_of(us);
}

inline bool mates(Position& p, Move m) {
  Color us = p.side_to_move();
  p.do_move(m);
  GameResult r = game_result(p);
  p.undo_move();
  return r.ending == Ending::CHECKMATE && r.winner == winner_of(us);
}

// After m, every reply leaves a mate in 1 (the game does not end otherwise first).
inline bool forces_mate_in_2(Position& p, Move m) {
  p.do_move(m);
  bool ok = !game_result(p).over();
  MoveList replies;
  generate_legal(p, replies);
  for (int i = 0; ok && i < replies.size; ++i) {
    p.do_move(replies[i]);
    bool found = false;
    if (!game_result(p).over()) {
      MoveList ml;
      generate_legal(p, ml);
      for (Move x : ml) found = found || mates(p, x);
    }
    p.undo_move();
    ok = found;
  }
  p.undo_move();
  return ok;
}

inline bool has_mate_in_1(Position& p) {
  MoveList ml;
  generate_legal(p, ml);
  for (Move m : ml)
    if (mates(p, m)) return true;
  return false;
}

inline SearchResult search(const Position& pos, Evaluator& eval, const SearchParams& params, int batch = 1) {
  Tree tree(params);
  tree.reset(pos);
  return run_search(tree, eval, batch);
}

inline int sum(const std::vector<int>& v) {
  int s = 0;
  for (int x : v) s += x;
  return s;
}

}  // namespace jz::test
