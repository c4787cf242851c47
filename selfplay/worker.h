// Self-play worker: N threads, each driving many concurrent games (one search tree per game). A thread
// gathers leaves from all its trees into one batch per round and hands it to the (shared, batching)
// evaluator, so the network sees large batches while each search stays sequential.
//
// The evaluator can be replaced at any time (a newer network): games pick it up at their next move,
// and every game records the newest network that played one of its moves.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/rules.h"
#include "nn/evaluator.h"
#include "replay/chunk_writer.h"
#include "selfplay/selfplay_config.h"

namespace jz {

// Counters over the worker's life (all threads). Snapshots are consistent enough for progress lines.
struct SelfPlayStats {
  uint64_t games = 0, positions = 0, full_positions = 0;  // of finished games
  uint64_t moves = 0;                                     // searched moves played, unfinished games included
  uint64_t leaf_evals = 0, eval_calls = 0;                // leaves evaluated, evaluate() calls made
  double eval_seconds = 0;                                // thread time blocked in evaluate()
  double thread_seconds = 0;                              // thread time in the play loop
  uint64_t winners[4] = {0, 0, 0, 0};                     // by Winner
  uint64_t endings[ENDING_NB] = {};                       // by Ending
  uint64_t probe_games = 0, probe_would_resign = 0, false_resigns = 0;  // resignation-off games
  uint64_t concurrent_games = 0;
  double avg_game_plies() const { return games ? double(positions) / games : 0; }
  double avg_batch() const { return eval_calls ? double(leaf_evals) / eval_calls : 0; }
  double eval_share() const { return thread_seconds > 0 ? eval_seconds / thread_seconds : 0; }
};

class SelfPlayWorker {
 public:
  SelfPlayWorker(const SelfPlayOptions& opts, std::shared_ptr<Evaluator> eval, ChunkWriter& writer);
  ~SelfPlayWorker();  // stops and joins

  // Starts `threads` play threads. max_games > 0: no game starts once that many have started
  // (the worker finishes when they are all done).
  void start(int threads, uint64_t max_games = 0);
  // Asks the threads to stop: games in progress are dropped, finished games are already written.
  void stop();
  void join();
  bool done() const { return running_threads_.load() == 0; }

  // Games switch to this network at their next move.
  void set_evaluator(std::shared_ptr<Evaluator> eval);
  std::shared_ptr<Evaluator> evaluator() const;
  SelfPlayStats stats() const;
  // Writer errors (e.g. disk full) stop the worker; this says why.
  std::string error() const;
  // One counter per play thread (index = thread), bumped on every evaluated batch and every move
  // played, so a watchdog can tell a slow thread from a stuck one (`janggi-zero soak`). Empty before start().
  std::vector<uint64_t> thread_progress() const;

 private:
  struct Game;
  void thread_main(int index);
  bool start_game(Game& g);
  void make_move(Game& g);
  void finish_game(Game& g, const GameResult& r);
  void configure_search(Game& g);

  SelfPlayOptions opts_;
  ChunkWriter& writer_;
  mutable std::mutex eval_mutex_;
  std::shared_ptr<Evaluator> eval_;
  std::vector<std::thread> threads_;
  std::unique_ptr<std::atomic<uint64_t>[]> progress_;  // per thread; sized in start()
  int num_threads_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> running_threads_{0};
  std::atomic<uint64_t> games_started_{0};
  std::atomic<int64_t> active_games_{0};
  std::atomic<uint64_t> moves_{0};
  uint64_t max_games_ = 0;
  uint64_t seed_ = 0;
  mutable std::mutex stats_mutex_;
  SelfPlayStats stats_;
  std::string error_;
};

}  // namespace jz
