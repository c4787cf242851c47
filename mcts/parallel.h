// Multi-threaded search of one tree (play): N threads gather leaves with virtual loss under the tree's
// lock, evaluate outside it, and apply under it; a visit/time budget (SearchParams), a stop flag and a
// periodic info callback.
#pragma once
#include <atomic>
#include <functional>
#include <vector>

#include "mcts/search.h"

namespace jz {

struct SearchInfo {
  int depth = 0;             // average leaf depth of this search (rounded up)
  int seldepth = 0;          // deepest leaf
  int visits = 0;            // root children visits (reused included)
  int playouts = 0;          // this search
  float wdl[3] = {0, 1, 0};  // root, side to move's view
  float q = 0;
  double seconds = 0;
  double nps = 0;
  std::vector<Move> pv;
  int proven = 0;       // +1 side to move wins by force, -1 loses, 0 unknown
  int proof_plies = 0;  // plies to the end when proven (mate distance)
};

struct ParallelOptions {
  int threads = 1;
  int batch = 0;                                   // leaves per thread per gather; 0 = evaluator's preferred
  const std::atomic<bool>* stop = nullptr;         // set by the caller to end the search early
  double info_interval = 1.0;                      // seconds between info callbacks (0 = none)
  std::function<void(const SearchInfo&)> on_info;  // called from one search thread
};

SearchInfo search_info(Tree& tree);
SearchResult search_parallel(Tree& tree, Evaluator& eval, const ParallelOptions& opt);

}  // namespace jz
