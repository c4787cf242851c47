// A bounded cache of evaluations keyed by encoding_key (exact: equal keys, equal network input).
// Fixed-size direct-mapped table split into shards, each with its own lock.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "nn/evaluator.h"

namespace jz {

class EvalCache {
 public:
  explicit EvalCache(size_t entries);
  // Copies the cached evaluation into out; false on a miss (or a stored entry with another move count).
  bool lookup(uint64_t key, int num_moves, Evaluation& out);
  void insert(uint64_t key, const Evaluation& e);
  void clear();
  size_t capacity() const { return slots_.size(); }
  uint64_t lookups() const { return lookups_.load(std::memory_order_relaxed); }
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  double hit_rate() const { return lookups() ? double(hits()) / lookups() : 0.0; }
  void reset_stats() {
    lookups_ = 0;
    hits_ = 0;
  }

 private:
  static constexpr int SHARDS = 64;
  struct Slot {
    uint64_t key = 0;
    bool used = false;
    Evaluation eval;
  };
  std::vector<Slot> slots_;
  std::unique_ptr<std::mutex[]> locks_;
  std::atomic<uint64_t> lookups_{0}, hits_{0};
};

}  // namespace jz
