#include "mcts/gumbel.h"

#include <algorithm>
#include <cmath>

namespace jz::mcts {

std::vector<int> considered_visit_sequence(int m, int n) {
  std::vector<int> seq;
  if (n <= 0) return seq;
  seq.reserve(n);
  if (m <= 1) {
    for (int i = 0; i < n; ++i) seq.push_back(i);
    return seq;
  }
  int log2max = int(std::ceil(std::log2(double(m))));
  std::vector<int> visits(m, 0);
  int considered = m;
  while (int(seq.size()) < n) {
    int extra = std::max(1, int(double(n) / (double(log2max) * considered)));
    for (int k = 0; k < extra; ++k) {
      seq.insert(seq.end(), visits.begin(), visits.begin() + considered);
      for (int i = 0; i < considered; ++i) ++visits[i];
    }
    considered = std::max(2, considered / 2);
  }
  seq.resize(n);
  return seq;
}

uint32_t completed_q(const Node* node, std::vector<float>& out) {
  int k = node->num_edges;
  out.assign(k, 0.0f);
  double sum_n = 0, sum_p = 0, sum_pq = 0;
  uint32_t max_n = 0;
  std::vector<char> visited(k, 0);
  for (const Node* c = node->child; c; c = c->sibling) {
    if (c->n == 0) continue;
    double p = node->edges[c->index].prior;
    sum_n += c->n;
    sum_p += p;
    sum_pq += p * c->value();
    max_n = std::max(max_n, c->n);
    out[c->index] = float(c->value());
    visited[c->index] = 1;
  }
  double mix = node->raw_v;
  if (sum_p > 0) mix = (node->raw_v + sum_n * sum_pq / sum_p) / (1.0 + sum_n);
  for (int i = 0; i < k; ++i) {
    double q = visited[i] ? out[i] : mix;
    out[i] = float(std::clamp((q + 1.0) / 2.0, 0.0, 1.0));
  }
  return max_n;
}

void improved_policy(const Node* node, float c_visit, float c_scale, std::vector<float>& out) {
  std::vector<float> q;
  uint32_t max_n = completed_q(node, q);
  int k = node->num_edges;
  out.resize(k);
  float scale = (c_visit + float(max_n)) * c_scale;
  float hi = -1e30f;
  for (int i = 0; i < k; ++i) {
    out[i] = std::log(std::max(node->edges[i].prior, 1e-12f)) + scale * q[i];
    hi = std::max(hi, out[i]);
  }
  double sum = 0;
  for (int i = 0; i < k; ++i) sum += (out[i] = std::exp(out[i] - hi));
  for (int i = 0; i < k; ++i) out[i] = float(out[i] / sum);
}

}  // namespace jz::mcts
