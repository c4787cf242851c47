// Selection: which child a descent takes (PUCT with virtual loss or virtual visits, the Gumbel interior rule,
// KataGo's forced playouts at the root).
#include <cmath>
#include <vector>

#include "mcts/gumbel.h"
#include "mcts/node.h"
#include "mcts/search.h"

namespace jz {

using mcts::Node;
using mcts::find_child;
using mcts::shortest_win;

namespace {

// Mean value of a child from its parent's side to move's view, in-flight leaves counted as losses.
inline double q_with_virtual_loss(const Node* c, int vl) {
  if (c->proven) return c->proven;
  double vn = double(vl) * c->in_flight;
  return (c->q * c->n - vn) / (c->n + vn);
}

inline double score_term(float margin, float weight, float scale) {
  return weight != 0 ? mcts::score_utility(margin, weight, scale) : 0.0;
}

}  // namespace

float Tree::cpuct_at(double n) const {
  if (params_.cpuct_growth == 0) return params_.cpuct;
  return params_.cpuct + params_.cpuct_growth * std::log((n + params_.cpuct_base) / params_.cpuct_base);
}

int Tree::select_puct(const Node* node, bool is_root) const {
  int vl = params_.virtual_loss;
  double visited_mass = 0, child_n = 0;
  for (const Node* c = node->child; c; c = c->sibling) {
    if (c->n + c->in_flight == 0) continue;
    visited_mass += node->edges[c->index].prior;
    child_n += c->n + double(vl) * c->in_flight;
  }
  float reduction = params_.fpu_reduction;
  if (is_root) reduction = (params_.root_noise && params_.full_search) ? 0.0f : params_.fpu_reduction_root;
  const float sw = params_.score_utility_weight, ss = params_.score_utility_scale;
  // The parent's own utility, its side to move's view (q and m are stored from its mover's view).
  double fpu = -node->q - score_term(node->m, sw, ss) - reduction * std::sqrt(visited_mass);
  double u_scale = cpuct_at(child_n) * std::sqrt(std::max(child_n, 1.0));
  int win = shortest_win(node);
  // A win on the spot ends the question; a longer proven win still leaves room to find a shorter one
  // (its Q of 1 draws most visits anyway).
  if (win >= 0 && find_child(node, win)->proof_plies == 0) return win;
  int best = 0;
  double best_score = -1e300;
  const Node* c = node->child;
  for (int i = 0; i < node->num_edges; ++i) {
    double q = fpu, n = 0;
    if (c && c->index == i) {
      if (c->n + c->in_flight > 0) {
        n = c->n + double(vl) * c->in_flight;
        if (!params_.virtual_visit)
          q = q_with_virtual_loss(c, vl) + score_term(c->m, sw, ss);
        else if (c->n > 0 || c->proven)  // only in flight: still unvisited, it keeps the FPU
          q = c->value() + score_term(c->m, sw, ss);
      }
      c = c->sibling;
    }
    if (is_root && !root_eligible(i)) continue;
    double score = q + u_scale * node->edges[i].prior / (1.0 + n);
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

// Deterministic Gumbel interior rule: argmax improved policy minus visited share.
int Tree::select_improved(const Node* node) const {
  std::vector<float> pi;
  mcts::improved_policy(node, qtransform(), pi);
  std::vector<double> n(node->num_edges, 0.0);
  double total = 0;
  for (const Node* c = node->child; c; c = c->sibling) total += (n[c->index] = c->n + double(c->in_flight));
  int best = 0;
  double best_score = -1e300;
  for (int i = 0; i < node->num_edges; ++i) {
    double s = pi[i] - n[i] / (1.0 + total);
    if (s > best_score) best_score = s, best = i;
  }
  return best;
}

// KataGo forced playouts: a root child that has been visited but has fewer than sqrt(k P N) visits
// goes first. Returns -1 when none is short.
int Tree::select_forced(const Node* node) const {
  double total = 0;
  for (const Node* c = node->child; c; c = c->sibling) total += c->n + double(c->in_flight);
  int best = -1;
  double best_deficit = 0;
  for (const Node* c = node->child; c; c = c->sibling) {
    double have = c->n + double(c->in_flight);
    if (have == 0 || !root_eligible(c->index)) continue;
    double deficit = std::sqrt(params_.forced_k * node->edges[c->index].prior * total) - have;
    if (deficit > best_deficit) best_deficit = deficit, best = c->index;
  }
  return best;
}

}  // namespace jz
