// Transposition table: 4-entry buckets of 16 bytes, replaced by depth and age.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace jz::ab {

enum Bound : uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTEntry {
  uint64_t key = 0;
  int16_t score = 0, eval = 0;
  uint16_t move = 0xFFFF;
  uint8_t depth = 0;
  uint8_t gen_bound = 0;  // generation << 2 | bound
  Bound bound() const { return Bound(gen_bound & 3); }
};

class TT {
 public:
  void resize(size_t mb);
  void clear();
  void new_search() { gen_ = uint8_t((gen_ + 1) & 63); }
  // Entry for key, or nullptr.
  const TTEntry* probe(uint64_t key) const;
  void store(uint64_t key, int score, int eval, Move m, int depth, Bound b);
  int hashfull() const;  // per mille of sampled entries from this generation

 private:
  static constexpr int WAYS = 4;
  struct Bucket {
    TTEntry e[WAYS];
  };
  std::vector<Bucket> buckets_;
  size_t mask_ = 0;
  uint8_t gen_ = 0;
};

}  // namespace jz::ab
