// The review's background analysis: every position of a finished game searched by the alpha-beta
// engine at a fixed budget (nodes per position, so a result does not depend on the machine's load),
// one game at a time in one worker thread, so reviews never take more than a core from play. The
// most recent analyses are kept in memory; the page polls until one is done.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "play/game.h"

namespace jz {

struct AnalysisOptions {
  uint64_t nodes = 100000;  // alpha-beta nodes per position (the expert level's evaluation)
  int keep = 64;            // analyses kept in memory (the oldest finished ones go first)
  int max_plies = 1000;     // longer games are refused
};

// A position's evaluation, from Cho's side.
struct PositionEval {
  double score = 0.5;  // Cho's expected score, 0..1 (logistic in centipawns, 1 or 0 for a mate)
  int cp = 0;
  int mate = 0;      // + Cho mates in N moves, - Han does
  std::string best;  // the side to move's best move (UCI), "" at the end
};

// A move that lost much of its mover's expected score, and the move the engine preferred.
struct Mistake {
  int ply = 0;       // the move's index (0 = Cho's first)
  double drop = 0;   // the mover's expected score lost, 0..1
  std::string kind;  // inaccuracy (>= 0.10), mistake (>= 0.20), blunder (>= 0.30), as lichess counts
  std::string played, best;
};

// Mistakes of a game from its positions' evaluations (evals.size() == moves + 1).
std::vector<Mistake> find_mistakes(const Game& game, const std::vector<PositionEval>& evals);

class Analyzer {
 public:
  explicit Analyzer(const AnalysisOptions& o = {});
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // The analysis of `game` under `key` so far, queuing it when new: {"status": queued|running|done,
  // "done", "total", "nodes", "evals": [{score, cp, mate, best}], "mistakes": [...], "seconds"}.
  nlohmann::json request(const std::string& key, const Game& game);
  const AnalysisOptions& options() const { return opts_; }

 private:
  struct Job;
  void work();
  void evict();

  AnalysisOptions opts_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::deque<std::shared_ptr<Job>> queue_;
  uint64_t clock_ = 0;
  bool stop_ = false;
  std::thread worker_;  // started with the first request
};

}  // namespace jz
