// Perft: leaf-node counts for verifying move generation against the reference.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "position.h"

namespace jz {

// Leaf nodes at depth; positions ended by passes (or by the same-piece-check draw, when that rule
// option is on) count as terminal (0 moves). Bulk-counts the last ply.
uint64_t perft(Position& pos, int depth);
// Per-root-move counts (in generation order), computed in parallel with OpenMP when threads > 1.
std::vector<std::pair<Move, uint64_t>> perft_divide(const Position& pos, int depth, int threads = 1);

}  // namespace jz
