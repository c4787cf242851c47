#include "nn/batching_evaluator.h"

#include <chrono>
#include <exception>

#include "nn/encoding.h"
#include "util/log.h"

namespace jz {

struct BatchingEvaluator::Ticket {
  int remaining = 0;         // positions not yet evaluated; guarded by the evaluator's mu_
  std::exception_ptr error;  // guarded by mu_
  std::mutex m;
  std::condition_variable cv;
  bool done = false;  // guarded by m
};

std::string EvalStats::str() const {
  return format_string(
      "requests %llu, cache hits %llu (%.1f%%), evaluated %llu in %llu batches (avg %.1f), "
      "avg wait %.0f us, backend %.2f s",
      (unsigned long long)requests, (unsigned long long)cache_hits, 100.0 * hit_rate(), (unsigned long long)evaluated,
      (unsigned long long)batches, avg_batch(), avg_wait_us(), backend_seconds);
}

BatchingEvaluator::BatchingEvaluator(std::shared_ptr<Evaluator> backend, const BatchingOptions& opts)
    : backend_(std::move(backend)), opts_(opts) {
  if (opts_.max_batch < 1) opts_.max_batch = 1;
  if (opts_.server_threads < 1) opts_.server_threads = 1;
  if (opts_.max_wait_us < 0) opts_.max_wait_us = 0;
  if (opts_.cache_entries) cache_ = std::make_unique<EvalCache>(opts_.cache_entries);
  for (int i = 0; i < opts_.server_threads; ++i) servers_.emplace_back([this] { serve(); });
}

BatchingEvaluator::~BatchingEvaluator() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : servers_) t.join();
}

void BatchingEvaluator::evaluate(const EvalInput* in, int n, Evaluation* out) {
  if (n <= 0) return;
  Ticket ticket;
  double t0 = now_seconds();
  std::vector<Request> misses;
  misses.reserve(n);
  int hits = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t key = 0;
    if (cache_) {
      key = encoding_key(*in[i].pos);
      if (cache_->lookup(key, in[i].moves->size, out[i])) {
        ++hits;
        continue;
      }
    }
    misses.push_back(Request{in[i], &out[i], key, &ticket, t0});
  }
  {
    std::lock_guard<std::mutex> g(mu_);
    stats_.requests += n;
    stats_.cache_hits += hits;
    ticket.remaining = int(misses.size());
    if (!misses.empty()) ++blocked_callers_;
    for (auto& r : misses) queue_.push_back(r);
  }
  if (misses.empty()) return;
  cv_.notify_all();
  std::unique_lock<std::mutex> lk(ticket.m);
  ticket.cv.wait(lk, [&] { return ticket.done; });
  if (ticket.error) std::rethrow_exception(ticket.error);
}

void BatchingEvaluator::serve() {
  std::vector<Request> batch;
  std::vector<EvalInput> inputs;
  std::vector<Evaluation> results;
  std::vector<Ticket*> finished;
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping
    // Wait for a full batch, or until the oldest position has waited max_wait_us.
    // With a known number of clients, once all of them wait nobody can add to the batch.
    while (!stop_ && !queue_.empty() && int(queue_.size()) < opts_.max_batch &&
           !(opts_.clients > 0 && blocked_callers_ >= opts_.clients)) {
      double left = queue_.front().t_submit + opts_.max_wait_us * 1e-6 - now_seconds();
      if (left <= 0) break;
      cv_.wait_for(lk, std::chrono::duration<double>(left));
    }
    if (queue_.empty()) continue;
    int k = std::min<int>(opts_.max_batch, int(queue_.size()));
    batch.assign(queue_.begin(), queue_.begin() + k);
    queue_.erase(queue_.begin(), queue_.begin() + k);
    bool more = !queue_.empty();
    lk.unlock();
    if (more) cv_.notify_one();  // another server may start on the rest

    inputs.resize(k);
    results.assign(k, Evaluation{});
    for (int i = 0; i < k; ++i) inputs[i] = batch[i].in;
    std::exception_ptr error;
    double t0 = now_seconds();
    try {
      backend_->evaluate(inputs.data(), k, results.data());
    } catch (...) {
      error = std::current_exception();
    }
    double t1 = now_seconds();
    double waited = 0;
    for (int i = 0; i < k; ++i) {
      Request& r = batch[i];
      if (!error) {
        if (cache_) cache_->insert(r.key, results[i]);
        *r.out = std::move(results[i]);
      }
      waited += t1 - r.t_submit;
    }
    lk.lock();  // statistics first, so that they are complete when the callers return
    stats_.evaluated += k;
    stats_.batches += 1;
    stats_.wait_seconds += waited;
    stats_.backend_seconds += t1 - t0;
    finished.clear();
    for (int i = 0; i < k; ++i) {
      Ticket* t = batch[i].ticket;
      if (error) t->error = error;
      if (--t->remaining == 0) {
        finished.push_back(t);
        --blocked_callers_;
      }
    }
    lk.unlock();
    for (Ticket* t : finished) {
      std::lock_guard<std::mutex> g(t->m);
      t->done = true;
      t->cv.notify_one();  // t may be gone once the lock is released
    }
    lk.lock();
  }
}

EvalStats BatchingEvaluator::stats() const {
  std::lock_guard<std::mutex> g(mu_);
  return stats_;
}

void BatchingEvaluator::reset_stats() {
  std::lock_guard<std::mutex> g(mu_);
  stats_ = EvalStats{};
  if (cache_) cache_->reset_stats();
}

}  // namespace jz
