#include "alphabeta/tt.h"

#include <algorithm>

namespace jz::ab {

void TT::resize(size_t mb) {
  size_t n = std::max<size_t>(1, mb) * 1024 * 1024 / sizeof(Bucket), pow2 = 1;
  while (pow2 * 2 <= n) pow2 *= 2;  // power of two: index by mask
  buckets_.assign(pow2, Bucket{});
  mask_ = pow2 - 1;
  gen_ = 0;
}

void TT::clear() {
  std::fill(buckets_.begin(), buckets_.end(), Bucket{});
  gen_ = 0;
}

const TTEntry* TT::probe(uint64_t key) const {
  const Bucket& b = buckets_[key & mask_];
  for (const TTEntry& e : b.e)
    if (e.key == key && e.bound() != BOUND_NONE) return &e;
  return nullptr;
}

void TT::store(uint64_t key, int score, int eval, Move m, int depth, Bound bound) {
  Bucket& b = buckets_[key & mask_];
  TTEntry* slot = &b.e[0];
  int worst = 1 << 30;
  for (TTEntry& e : b.e) {
    if (e.key == key || e.bound() == BOUND_NONE) {
      slot = &e;
      break;
    }
    // Keep deep entries of this search; old generations go first.
    int age = (gen_ - (e.gen_bound >> 2)) & 63;
    int value = e.depth - 8 * age;
    if (value < worst) {
      worst = value;
      slot = &e;
    }
  }
  // 16 bits per move: a promotion keeps only its plain from/to, itself a legal move there (an ordering
  // hint; probes check the move against the legal list).
  m.raw &= 0xFFFF;
  // Keep the old move when the new store has none for the same position.
  if (m.is_none() && slot->key == key) m.raw = slot->move;
  // Do not let a shallow non-exact result overwrite a deeper one of the same position.
  if (slot->key == key && bound != BOUND_EXACT && depth + 2 < slot->depth && ((slot->gen_bound >> 2) == gen_)) {
    slot->move = m.raw;
    return;
  }
  slot->key = key;
  slot->score = int16_t(score);
  slot->eval = int16_t(eval);
  slot->move = m.raw;
  slot->depth = uint8_t(std::clamp(depth, 0, 255));
  slot->gen_bound = uint8_t(gen_ << 2 | bound);
}

int TT::hashfull() const {
  int used = 0, n = 0;
  for (size_t i = 0; i < std::min<size_t>(250, buckets_.size()); ++i)
    for (const TTEntry& e : buckets_[i].e) {
      ++n;
      used += e.bound() != BOUND_NONE && (e.gen_bound >> 2) == gen_;
    }
  return n ? used * 1000 / n : 0;
}

}  // namespace jz::ab
