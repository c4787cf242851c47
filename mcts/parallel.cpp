#include "mcts/parallel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "util/clock.h"

namespace jz {

SearchInfo search_info(Tree& tree) {
  SearchResult r = tree.summary();
  SearchInfo info;
  info.depth = int(std::ceil(r.avg_depth));
  info.seldepth = r.max_depth;
  info.visits = r.root_visits;
  info.playouts = r.playouts;
  std::copy(r.wdl, r.wdl + 3, info.wdl);
  info.q = r.q;
  info.seconds = r.seconds;
  info.nps = r.nps;
  info.pv = r.pv;
  info.proven = r.proven;
  info.proof_plies = r.proof_plies;
  return info;
}

// One lock guards the tree: gathering and applying are cheap next to evaluation, which runs unlocked.
// A failure in any thread (an evaluator error) ends the search: its leaves are abandoned, the other
// threads stop, and the first exception reaches the caller with the tree still consistent.
SearchResult search_parallel(Tree& tree, Evaluator& eval, const ParallelOptions& opt) {
  int batch = opt.batch > 0 ? opt.batch : std::max(1, eval.preferred_batch());
  int threads = std::max(1, opt.threads);
  std::mutex mu;
  std::condition_variable cv;
  std::exception_ptr failure;
  double next_info = now_seconds() + opt.info_interval;
  auto stopped = [&] { return failure || (opt.stop && opt.stop->load(std::memory_order_relaxed)); };

  auto worker = [&](int id) {
    std::vector<LeafRequest> reqs;
    std::vector<EvalInput> inputs;
    std::vector<Evaluation> evals;
    std::unique_lock<std::mutex> lk(mu);
    auto fail = [&](int in_flight) {  // under the lock
      if (in_flight > 0) tree.abandon(reqs.data(), in_flight);
      if (!failure) failure = std::current_exception();
      cv.notify_all();
    };
    for (;;) {
      // This thread has nothing in flight here, so it may leave; others finish their own leaves.
      if (stopped() || tree.budget_spent()) break;
      reqs.clear();
      int n = tree.gather(batch, reqs);
      if (n == 0) {
        if (tree.in_flight() > 0) cv.wait_for(lk, std::chrono::milliseconds(1));
        continue;
      }
      lk.unlock();
      inputs.resize(n);
      evals.resize(n);
      for (int i = 0; i < n; ++i) inputs[i] = reqs[i].input();
      try {
        eval.evaluate(inputs.data(), n, evals.data());
        lk.lock();
        tree.apply(reqs.data(), evals.data(), n);
      } catch (...) {
        if (!lk.owns_lock()) lk.lock();
        return fail(n);
      }
      cv.notify_all();
      if (id == 0 && opt.on_info && opt.info_interval > 0 && now_seconds() >= next_info) {
        next_info = now_seconds() + opt.info_interval;
        SearchInfo info = search_info(tree);
        lk.unlock();
        try {
          opt.on_info(info);
        } catch (...) {
          lk.lock();
          return fail(0);
        }
        lk.lock();
      }
    }
  };
  auto guarded = [&](int id) {  // nothing may escape a thread: std::terminate would end the process
    try {
      worker(id);
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
  guarded(0);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  if (opt.on_info) opt.on_info(search_info(tree));
  return tree.result();
}

}  // namespace jz
