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

double score_utility(float margin, float weight, float scale) {
  constexpr double TWO_OVER_PI = 0.63661977236758134;
  return weight * TWO_OVER_PI * std::atan(double(margin) / std::max(1e-6f, scale));
}

uint32_t completed_q(const Node* node, const QTransform& t, std::vector<float>& out) {
  int k = node->num_edges;
  out.assign(k, 0.0f);
  double sum_n = 0, sum_p = 0, sum_pq = 0;
  uint32_t max_n = 0;
  std::vector<char> visited(k, 0);
  for (const Node* c = node->child; c; c = c->sibling) {
    if (c->n == 0) continue;
    double p = node->edges[c->index].prior;
    double u = child_utility(c, t.score_weight, t.score_scale);
    sum_n += c->n;
    sum_p += p;
    sum_pq += p * u;
    max_n = std::max(max_n, c->n);
    out[c->index] = float(u);
    visited[c->index] = 1;
  }
  // The node's own value, side to move's view; its mean margin is stored from the mover's view.
  double raw = node->raw_v;
  if (t.score_weight != 0) raw += score_utility(-node->m, t.score_weight, t.score_scale);
  double mix = raw;
  if (sum_p > 0) mix = (raw + sum_n * sum_pq / sum_p) / (1.0 + sum_n);
  for (int i = 0; i < k; ++i)
    if (!visited[i]) out[i] = float(mix);
  if (t.rescale) {
    auto [lo, hi] = std::minmax_element(out.begin(), out.end());
    float lo_v = k ? *lo : 0.0f, span = k ? *hi - *lo : 0.0f;
    for (float& q : out) q = span > 1e-8f ? (q - lo_v) / span : 0.0f;
  } else {
    for (float& q : out) q = float(std::clamp((q + 1.0) / 2.0, 0.0, 1.0));
  }
  return max_n;
}

void sigma_q(const Node* node, const QTransform& t, std::vector<float>& out) {
  uint32_t max_n = completed_q(node, t, out);
  float scale = (t.c_visit + float(max_n)) * t.c_scale;
  for (float& q : out) q *= scale;
}

void improved_policy(const Node* node, const QTransform& t, std::vector<float>& out) {
  std::vector<float> s;
  sigma_q(node, t, s);
  int k = node->num_edges;
  out.resize(k);
  float hi = -1e30f;
  for (int i = 0; i < k; ++i) {
    out[i] = std::log(std::max(node->edges[i].prior, 1e-12f)) + s[i];
    hi = std::max(hi, out[i]);
  }
  double sum = 0;
  for (int i = 0; i < k; ++i) sum += (out[i] = std::exp(out[i] - hi));
  for (int i = 0; i < k; ++i) out[i] = float(out[i] / sum);
}

}  // namespace jz::mcts
