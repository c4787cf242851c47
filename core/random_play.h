// Random legal moves: the random openings of matches, teacher games and self-play, and the random
// positions of benchmarks. A move is legal[rng() % n] among the candidates in generation order, so one
// seed gives the same plies wherever they are drawn.
#pragma once
#include <cstdint>
#include <vector>

#include "core/movegen.h"
#include "core/rules.h"

namespace jz {

// A uniformly random legal move, passes left out unless pass_ok; Move::none() when there is none.
template <class Rng>
Move random_legal_move(const Position& pos, Rng& rng, bool pass_ok) {
  MoveList legal, pick;
  generate_legal(pos, legal);
  for (Move m : legal)
    if (pass_ok || !m.is_pass()) pick.moves[pick.size++] = m;
  return pick.size ? pick[int(rng() % uint64_t(pick.size))] : Move::none();
}

// Plays up to `plies` random moves, stopping at a finished position or when no move qualifies; the
// moves go to *played. Returns how many were played.
template <class Rng>
int random_walk(Position& pos, int plies, Rng& rng, bool pass_ok, std::vector<Move>* played = nullptr) {
  for (int k = 0; k < plies; ++k) {
    if (game_result(pos).over()) return k;
    Move m = random_legal_move(pos, rng, pass_ok);
    if (m.is_none()) return k;
    pos.do_move(m);
    if (played) played->push_back(m);
  }
  return plies;
}

}  // namespace jz
