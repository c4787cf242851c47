// Legal move generation (pass included in Janggi).
#pragma once
#include "position.h"

namespace jz {

struct MoveList {
  static constexpr int CAPACITY = 256;
  Move moves[CAPACITY];
  int size = 0;
  Move* begin() { return moves; }
  Move* end() { return moves + size; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  Move operator[](int i) const { return moves[i]; }
  bool contains(Move m) const;
};

// All legal moves of the side to move, pass included where legal. Does not look at game endings
// (pass_ended, repetition, ...): see rules.h for those.
void generate_legal(const Position& pos, MoveList& out);
// Number of legal moves (same as generate_legal().size, a little faster).
int count_legal(const Position& pos);
bool is_legal(const Position& pos, Move m);
// Xiangqi's generator (movegen_xiangqi.cpp), which generate_legal and count_legal call for its rule set:
// writes the legal moves to `out` and returns their count.
int generate_legal_xiangqi(const Position& pos, Move* out);

}  // namespace jz
