#include "nn/eval_cache.h"

#include <algorithm>

namespace jz {

EvalCache::EvalCache(size_t entries) : slots_(std::max<size_t>(entries, SHARDS)), locks_(new std::mutex[SHARDS]) {}

bool EvalCache::lookup(uint64_t key, int num_moves, Evaluation& out) {
  lookups_.fetch_add(1, std::memory_order_relaxed);
  size_t i = key % slots_.size();
  std::lock_guard<std::mutex> g(locks_[i % SHARDS]);
  const Slot& s = slots_[i];
  if (!s.used || s.key != key || int(s.eval.policy.size()) != num_moves) return false;
  out = s.eval;
  hits_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void EvalCache::insert(uint64_t key, const Evaluation& e) {
  size_t i = key % slots_.size();
  std::lock_guard<std::mutex> g(locks_[i % SHARDS]);
  Slot& s = slots_[i];
  s.key = key;
  s.used = true;
  s.eval = e;
}

void EvalCache::clear() {
  for (size_t i = 0; i < slots_.size(); ++i) {
    std::lock_guard<std::mutex> g(locks_[i % SHARDS]);
    slots_[i] = Slot{};
  }
}

}  // namespace jz
