// The root's mate guard (SearchParams::mate_guard): root moves proven won or lost by the mate search of
// mcts/mate_search.h before the search spends visits on them.
#include <algorithm>
#include <cstdint>
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

// The chosen move, proven again with the deeper family (SearchParams::mate_verify) before it is played:
// a move the network and the cheap guard both missed (a quiet set-up of a mate) is marked lost like the
// guard's, and the search's next choice is checked in turn. Only moves that would be played are searched,
// within one node budget for all of them (a check cut short proves nothing, and the move stands).
void Tree::verify_choice() {
  const int n = params_.mate_verify, quiet = params_.mate_verify_quiet, checks = params_.mate_verify_checks;
  if ((n <= 0 && checks <= 0) || root_->state != mcts::NodeState::EXPANDED || root_->proven) return;
  const int k = root_->num_edges;
  Position pos = root_pos_;
  mcts::MateBudget budget{params_.mate_verify_nodes > 0 ? params_.mate_verify_nodes : INT64_MAX};
  for (int tries = 0; tries < k; ++tries) {
    const Move m = summary().move;
    int i = 0;
    while (i < k && root_->edges[i].move != m) ++i;
    if (i == k) return;
    Node* c = child_at(root_, i, false);
    if (c && c->proven) return;  // a proven win, or a loss with nothing better left
    int plies = 0;
    const int proven = mcts::guard_verdict(pos, m, n, quiet, checks, plies, &budget);
    if (proven >= 0) return;
    c = child_at(root_, i, true);
    c->proven = -1;
    c->proof_plies = uint8_t(plies);
    int lost = 0, longest = 0;
    for (const Node* x = root_->child; x; x = x->sibling)
      if (x->proven < 0) ++lost, longest = std::max(longest, x->proof_plies + 1);
    if (lost == k) root_->proven = 1, root_->proof_plies = uint8_t(longest);
  }
}

}  // namespace jz
