// Gumbel MuZero pieces (Danihelka et al. 2022, as in DeepMind's mctx): the sequential-halving visit
// schedule, completed Q values with the mixed value, and the improved policy.
#pragma once
#include <vector>

#include "mcts/node.h"

namespace jz::mcts {

// How child values become the completed Q that sigma() scales.
struct QTransform {
  float c_visit = 50.0f;
  float c_scale = 0.1f;
  // mctx qtransform_completed_by_mix_value(rescale_values=True): min-max over the completed values, so
  // that small differences between children still move the improved policy away from the prior.
  bool rescale = false;
  float score_weight = 0.0f;  // score utility (KataGo): + weight * (2/pi) * atan(margin / score_scale)
  float score_scale = 10.0f;
};

// Visit count the next simulation's action must have, for simulation 0..n-1 with m considered actions.
std::vector<int> considered_visit_sequence(int m, int n);
// Score utility of a margin (material points, some side's view) under t: in (-weight, weight).
double score_utility(float margin, float weight, float scale);
// Utility of a child for its parent's side to move: value (or proof) plus the score utility.
inline double child_utility(const Node* c, float weight, float scale) {
  return c->value() + (weight != 0 ? score_utility(c->m, weight, scale) : 0.0);
}
// Per edge of an expanded node: completed Q in [0, 1] from the node's side to move's view; unvisited edges
// get the mixed value of the network value and the policy-weighted Q of the visited ones. Without
// rescaling, Q (plus score utility) maps linearly from [-1, 1]; with it, min-max over all edges.
// Returns the largest child visit count.
uint32_t completed_q(const Node* node, const QTransform& t, std::vector<float>& out);
// sigma(q) = (c_visit + max N) * c_scale * q for each edge (completed q). Returns it in out.
void sigma_q(const Node* node, const QTransform& t, std::vector<float>& out);
// softmax(log prior + sigma(completed Q)).
void improved_policy(const Node* node, const QTransform& t, std::vector<float>& out);

}  // namespace jz::mcts
