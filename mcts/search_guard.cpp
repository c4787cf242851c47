// The root's mate guard (SearchParams::mate_guard): root moves proven won or lost by the mate search of
// mcts/mate_search.h before the search spends visits on them.
#include <algorithm>
#include <numeric>
#include <vector>

#include "mcts/mate_search.h"
#include "mcts/node.h"
#include "mcts/search.h"
#include "util/clock.h"

namespace jz {

using mcts::Node;

// Proves root moves with the mate search (SearchParams::mate_guard); the solver's backup rules then
// keep the search away from proven losses and take a proven win. Likely moves first: a timed search
// stops guarding after a quarter of its time (a handful of positions need 100+ ms for all moves).
void Tree::guard_root() {
  const int n = params_.mate_guard, quiet = params_.mate_guard_quiet, checks = params_.mate_guard_checks;
  const int k = root_->num_edges;
  if ((n <= 0 && checks <= 0) || root_->proven) return;
  std::vector<int> order(k);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return root_->edges[a].prior > root_->edges[b].prior; });
  Position pos = root_pos_;
  int lost = 0, longest = 0;
  for (int i : order) {
    if (params_.time_limit > 0 && now_seconds() - start_time_ > params_.time_limit / 4) return;
    Node* c = child_at(root_, i, false);
    if (c && c->proven) {
      if (c->proven < 0) ++lost, longest = std::max(longest, c->proof_plies + 1);
      continue;
    }
    int plies = 0;
    int proven = mcts::guard_verdict(pos, root_->edges[i].move, n, quiet, checks, plies);
    if (!proven) continue;
    c = child_at(root_, i, true);
    c->proven = int8_t(proven);
    c->proof_plies = uint8_t(plies);
    if (proven > 0 && (root_->proven == 0 || plies + 1 < root_->proof_plies))
      root_->proven = -1, root_->proof_plies = uint8_t(plies + 1);
    if (proven < 0) ++lost, longest = std::max(longest, plies + 1);
  }
  if (root_->proven == 0 && lost == k) root_->proven = 1, root_->proof_plies = uint8_t(longest);
}

}  // namespace jz
