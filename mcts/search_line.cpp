// The line a search reports: the most visited child at each node, but along a proof the winner's quickest
// win and the loser's longest defence, drawn on by the mate search where the tree stops short of the
// proven end (a root move the guard proved has no subtree).
#include <algorithm>

#include "mcts/mate_search.h"
#include "mcts/node.h"
#include "mcts/search.h"

namespace jz {

using mcts::Node;
using mcts::NodeState;

namespace {

// The child along node's proof (the winner's quickest win, the loser's longest defence), or nullptr.
const Node* proof_child(const Node* node) {
  const Node* best = nullptr;
  for (const Node* c = node->child; c; c = c->sibling) {
    if (node->proven < 0 && c->proven > 0 && (!best || c->proof_plies < best->proof_plies)) best = c;
    if (node->proven > 0 && c->proven < 0 && (!best || c->proof_plies > best->proof_plies)) best = c;
  }
  if (node->proven > 0)  // a loss is proven once every reply is: the tree holds the proof only then
    for (int i = 0; best && i < node->num_edges; ++i)
      if (const Node* c = mcts::find_child(node, i); !c || c->proven >= 0) best = nullptr;
  return best;
}

const Node* most_visited(const Node* node) {
  const Node* best = nullptr;
  for (const Node* c = node->child; c; c = c->sibling)
    if (!best || c->n > best->n) best = c;
  return best && best->n > 0 ? best : nullptr;
}

}  // namespace

std::vector<Move> Tree::principal_line(int choice) const {
  std::vector<Move> line{root_->edges[choice].move};
  const Node* node = mcts::find_child(root_, choice);
  while (node && node->state == NodeState::EXPANDED) {
    const Node* next = proof_child(node);
    if (!next && node->proven) break;  // proven outside the tree (the guard): the mate search draws it
    if (!next) next = most_visited(node);
    if (!next) break;
    line.push_back(node->edges[next->index].move);
    node = next;
  }
  const int moves = params_.mate_guard, checks = params_.mate_guard_checks;
  if (!node || !node->proven || node->state == NodeState::TERMINAL || node->proof_plies > 2 * std::max(moves, checks))
    return line;
  // Only a line that ends at a proof outside the tree needs its position (every self-play move reports a line).
  Position pos = root_pos_;
  for (Move m : line) pos.do_move(m);
  for (Move m : mcts::proof_line(pos, node->proof_plies, moves, params_.mate_guard_quiet, checks)) line.push_back(m);
  return line;
}

std::vector<Move> moves_by_preference(const SearchResult& r) {
  std::vector<int> order;
  for (int i = 0; i < int(r.moves.size()); ++i)
    if (r.moves[i] != r.move && r.visits[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return r.visits[a] > r.visits[b]; });
  std::vector<Move> out;
  if (!r.move.is_none()) out.push_back(r.move);
  for (int i : order) out.push_back(r.moves[i]);
  return out;
}

}  // namespace jz
