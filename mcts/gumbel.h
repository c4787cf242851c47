// Gumbel MuZero pieces (Danihelka et al. 2022, as in DeepMind's mctx): the sequential-halving visit
// schedule, completed Q values with the mixed value, and the improved policy.
#pragma once
#include <vector>

#include "mcts/node.h"

namespace jz::mcts {

// Visit count the next simulation's action must have, for simulation 0..n-1 with m considered actions.
std::vector<int> considered_visit_sequence(int m, int n);
// Per edge of an expanded node: Q from the node's side to move's view mapped to [0, 1]; unvisited edges
// get the mixed value of the network value and the policy-weighted Q of the visited ones.
// Returns the largest child visit count.
uint32_t completed_q(const Node* node, std::vector<float>& out);
// softmax(log prior + sigma(completed Q)), sigma(q) = (c_visit + max N) * c_scale * q.
void improved_policy(const Node* node, float c_visit, float c_scale, std::vector<float>& out);

}  // namespace jz::mcts
