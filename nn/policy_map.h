// Policy space, one per game: every geometrically possible (from, to) pair of any piece on an empty board
// (both colors), in the side to move's view, plus pass where the game has one. Janggi: lines incl. palace
// diagonals, horse, elephant (3,2), soldier and palace steps: 2,450 pairs + pass = 2,451 outputs. Xiangqi:
// orthogonal lines, horse, elephant (2,2) within either half, advisor steps in either palace: 2,238 pairs, no
// pass (from every square: a FEN may put an elephant or advisor on any square of its half or palace).
// Index order: by from square, then to square (view squares); pass is last.
#pragma once
#include <vector>

#include "core/movegen.h"
#include "core/position.h"

namespace jz {

constexpr int POLICY_SIZE = 2451;  // Janggi's outputs (the largest of the games)
constexpr int PASS_INDEX = POLICY_SIZE - 1;
constexpr int XIANGQI_POLICY_SIZE = 2238;
constexpr int MAX_POLICY_SIZE = POLICY_SIZE;

class PolicyMap {
 public:
  explicit PolicyMap(GameKind game);
  GameKind game() const { return game_; }
  int size() const { return size_; }             // network outputs
  int pairs() const { return pairs_; }           // (from, to) pairs: indices [0, pairs)
  int pass_index() const { return pass_index_; }  // -1 where the game has no pass

  // Index of a move made by `stm` (its squares are mapped through flip_square for Han). -1 for a pair
  // that no piece can ever make (and for a pass in a game without one).
  int index(Move m, Color stm) const;
  // Inverse: the move of the side to move of pos for an index (pass = the general's square twice).
  Move move(int index, const Position& pos) const;
  Move move(int index, Color stm, Square general_square) const;
  // Left-right mirror (file a <-> i) of an index; an involution, pass maps to pass.
  int mirror(int index) const;
  // The (from, to) view squares of an index (from == to == NO_SQUARE for pass).
  void squares(int index, Square& from, Square& to) const;

 private:
  GameKind game_;
  int size_ = 0, pairs_ = 0, pass_index_ = -1;
  int16_t index_[SQUARE_NB][SQUARE_NB];
  Square from_[MAX_POLICY_SIZE], to_[MAX_POLICY_SIZE];
  int16_t mirror_[MAX_POLICY_SIZE];
};

// The map of a game (built once).
const PolicyMap& policy_map(GameKind game);

// Softmax of logits[index] over the legal moves only (illegal moves are masked), with pos's game's map;
// out gets one probability per move of `moves`, in order.
void masked_policy(const float* logits, const Position& pos, const MoveList& moves, std::vector<float>& out);

}  // namespace jz
