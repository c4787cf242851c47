// The Gumbel root (Danihelka et al. 2022): sequential-halving selection and the final choice.
#include <algorithm>
#include <cmath>

#include "mcts/search.h"

namespace jz {

using mcts::find_child;
using mcts::Node;

// Sequential halving: the next simulation goes to a candidate whose visit count equals the schedule's,
// best g + logit + sigma(q) first; if none matches (reused tree), to the least visited candidate.
int Tree::select_root_gumbel() const {
  std::vector<float> sq;
  mcts::sigma_q(root_, qtransform(), sq);
  std::vector<double> n(root_->num_edges, 0.0);
  double total = 0;
  for (const Node* c = root_->child; c; c = c->sibling) total += (n[c->index] = c->n + double(c->in_flight));
  size_t sim = size_t(total);
  int target = sim < gumbel_seq_.size() ? gumbel_seq_[sim] : -1;
  int best = -1, fallback = -1;
  double best_score = -1e300, fb_n = 1e300, fb_score = -1e300;
  for (int a : gumbel_cands_) {
    double s = gumbel_g_[a] + std::log(std::max(root_->edges[a].prior, 1e-12f)) + sq[a];
    if (n[a] == target && s > best_score) best_score = s, best = a;
    if (n[a] < fb_n || (n[a] == fb_n && s > fb_score)) fb_n = n[a], fb_score = s, fallback = a;
  }
  return best >= 0 ? best : fallback;
}

mcts::QTransform Tree::qtransform() const {
  mcts::QTransform t;
  t.c_visit = params_.gumbel_c_visit;
  t.c_scale = params_.gumbel_c_scale;
  t.rescale = params_.gumbel_rescale_q;
  t.score_weight = params_.score_utility_weight;
  t.score_scale = params_.score_utility_scale;
  return t;
}

// The most visited candidate with the best g + logit + sigma(q) (g left out unless the move is
// sampled). A candidate proven lost is played only when every root move is proven lost.
int Tree::gumbel_choice() const {
  std::vector<float> sq;
  mcts::sigma_q(root_, qtransform(), sq);
  auto lost = [&](int a) {
    const Node* c = find_child(root_, a);
    return c && c->proven < 0;
  };
  std::vector<int> pool;
  for (int a : gumbel_cands_)
    if (!lost(a)) pool.push_back(a);
  if (pool.empty())  // every candidate is lost: any other move that is not, by prior
    for (int i = 0; i < root_->num_edges; ++i)
      if (!lost(i) && root_eligible(i) && (pool.empty() || root_raw_prior_[i] > root_raw_prior_[pool[0]]))
        pool.assign(1, i);
  if (pool.empty()) pool = gumbel_cands_;
  uint32_t most = 0;
  for (int a : pool) {
    const Node* c = find_child(root_, a);
    most = std::max(most, c ? c->n : 0u);
  }
  const bool noise = params_.gumbel_sample_move;
  int best = -1;
  double best_score = -1e300;
  for (int a : pool) {
    const Node* c = find_child(root_, a);
    if ((c ? c->n : 0u) != most) continue;
    double s = (noise ? gumbel_g_[a] : 0.0) + std::log(std::max(root_raw_prior_[a], 1e-12f)) + sq[a];
    if (s > best_score) best_score = s, best = a;
  }
  return best;
}

}  // namespace jz
