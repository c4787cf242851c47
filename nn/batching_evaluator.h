// Gathers positions that many threads submit into batches for a backend evaluator (one forward
// pass per batch on a server thread), with an optional cache in front.
#pragma once
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nn/eval_cache.h"
#include "nn/evaluator.h"

namespace jz {

struct BatchingOptions {
  int max_batch = 32;        // positions per backend call
  int max_wait_us = 1000;    // how long a server waits for a batch to fill after its first position
  int server_threads = 1;    // backend calls in flight at once
  size_t cache_entries = 0;  // 0 = no cache
  int clients = 0;           // threads that submit; when all of them wait, a batch goes at once
                             // without waiting for max_wait_us (0 = unknown: always wait)
};

struct EvalStats {
  uint64_t requests = 0;  // positions submitted
  uint64_t cache_hits = 0;
  uint64_t evaluated = 0;   // positions sent to the backend
  uint64_t batches = 0;     // backend calls
  double wait_seconds = 0;  // summed over positions: submit -> result
  double backend_seconds = 0;
  double avg_batch() const { return batches ? double(evaluated) / batches : 0; }
  double avg_wait_us() const { return evaluated ? wait_seconds / evaluated * 1e6 : 0; }
  double hit_rate() const { return requests ? double(cache_hits) / requests : 0; }
  std::string str() const;
};

class BatchingEvaluator : public Evaluator {
 public:
  BatchingEvaluator(std::shared_ptr<Evaluator> backend, const BatchingOptions& opts);
  ~BatchingEvaluator() override;

  void evaluate(const EvalInput* in, int n, Evaluation* out) override;
  std::string id() const override { return backend_->id(); }
  RuleOptions rule_options() const override { return backend_->rule_options(); }
  GameKind game() const override { return backend_->game(); }
  int preferred_batch() const override { return opts_.max_batch; }

  EvalStats stats() const;
  void reset_stats();
  EvalCache* cache() { return cache_.get(); }

 private:
  struct Ticket;
  struct Request {
    EvalInput in;
    Evaluation* out;
    uint64_t key;
    Ticket* ticket;
    double t_submit;
  };
  void serve();

  std::shared_ptr<Evaluator> backend_;
  BatchingOptions opts_;
  std::unique_ptr<EvalCache> cache_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Request> queue_;
  bool stop_ = false;
  int blocked_callers_ = 0;  // callers waiting for queued or running positions
  std::vector<std::thread> servers_;
  EvalStats stats_;  // guarded by mu_
};

}  // namespace jz
