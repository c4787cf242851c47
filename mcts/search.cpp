#include "mcts/search.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "core/rules.h"
#include "mcts/gumbel.h"
#include "mcts/node.h"
#include "mcts/terminal.h"
#include "util/clock.h"

namespace jz {

using mcts::Edge;
using mcts::find_child;
using mcts::shortest_win;
using mcts::winning_move;
using mcts::Node;
using mcts::NodeState;
using mcts::terminal_value;

namespace {

// Every move of node loses (it is proven lost for its side to move): the one that loses last, the most
// visited among those. -1 if node is not such a node.
int longest_defence(const Node* node) {
  if (node->proven <= 0) return -1;
  const Node* best = nullptr;
  for (const Node* c = node->child; c; c = c->sibling)
    if (!best || c->proof_plies > best->proof_plies || (c->proof_plies == best->proof_plies && c->n > best->n)) best = c;
  return best ? best->index : -1;
}

}  // namespace

Tree::Tree(const SearchParams& params) : params_(params), next_params_(params), rng_(params.seed) {
  root_ = new Node;
  nodes_ = 1;
  start_time_ = now_seconds();
}

Tree::~Tree() { free_subtree(root_); }

void Tree::free_subtree(Node* node) {
  if (!node) return;
  for (Node* c = node->child; c;) {
    Node* next = c->sibling;
    free_subtree(c);
    c = next;
  }
  if (node->edges) {
    edges_ -= node->num_edges;
    delete[] node->edges;
  }
  --nodes_;
  delete node;
}

size_t Tree::memory_bytes() const { return nodes_ * sizeof(Node) + edges_ * sizeof(Edge); }

void Tree::set_params(const SearchParams& params) { next_params_ = params; }

void Tree::reset(const Position& pos) {
  if (in_flight_) throw std::logic_error("Tree::reset with leaves in flight");
  free_subtree(root_);
  root_ = new Node;
  nodes_ = 1;
  root_pos_ = pos;
  work_ = pos;
  rooted_ = true;
  rng_.seed(next_params_.seed);
  root_noised_ = false;
  new_search();
}

bool Tree::advance(Move m) {
  if (in_flight_) throw std::logic_error("Tree::advance with leaves in flight");
  if (!is_legal(root_pos_, m)) return false;
  Node* keep = nullptr;
  if (root_->state == NodeState::EXPANDED) {
    for (int i = 0; i < root_->num_edges; ++i)
      if (root_->edges[i].move == m) keep = child_at(root_, i, false);
  }
  if (keep) {  // unlink it from the old root so that freeing the rest spares it
    Node** link = &root_->child;
    while (*link != keep) link = &(*link)->sibling;
    *link = keep->sibling;
    keep->sibling = nullptr;
    keep->parent = nullptr;
    keep->index = 0;
  } else {
    keep = new Node;
    ++nodes_;
  }
  free_subtree(root_);
  root_ = keep;
  root_pos_.do_move(m);
  work_ = root_pos_;
  root_noised_ = false;
  new_search();
  return true;
}

bool Tree::reach(const Position& pos, int max_plies) {
  int diff = pos.history_size() - root_pos_.history_size();
  if (rooted_ && diff >= 0 && diff <= max_plies && pos.ruleset() == root_pos_.ruleset() &&
      pos.state(diff).key == root_pos_.key()) {
    bool ok = true;
    for (int i = diff - 1; i >= 0 && ok; --i) ok = advance(pos.state(i).move);
    if (ok && root_pos_.key() == pos.key()) return true;
  }
  reset(pos);
  return false;
}

void Tree::new_search() {
  if (in_flight_) throw std::logic_error("Tree::new_search with leaves in flight");
  params_ = next_params_;
  if (root_noised_) {  // searching the same root again: start from the network's own priors
    for (int i = 0; i < root_->num_edges; ++i) root_->edges[i].prior = root_raw_prior_[i];
    root_noised_ = false;
  }
  root_prepared_ = false;
  root_banned_ = -1;
  playouts_ = 0;
  depth_sum_ = 0;
  max_depth_ = 0;
  start_time_ = now_seconds();
  if (root_->state == NodeState::EXPANDED) prepare_root();
}

// Root noise and the Gumbel candidates, once the root has priors.
void Tree::prepare_root() {
  root_prepared_ = true;
  guard_root();
  int k = root_->num_edges;
  root_raw_prior_.resize(k);
  for (int i = 0; i < k; ++i) root_raw_prior_[i] = root_->edges[i].prior;
  root_banned_ = -1;
  if (!params_.root_pass && k > 1 && !root_pos_.in_bikjang())
    for (int i = 0; i < k; ++i)
      if (root_->edges[i].move.is_pass()) root_banned_ = i;
  bool noise = params_.root_noise && params_.full_search;
  if (params_.gumbel) {
    gumbel_g_.assign(k, 0.0f);
    if (noise) {
      std::uniform_real_distribution<double> uni(0.0, 1.0);
      for (float& g : gumbel_g_) {
        double u = std::clamp(uni(rng_), 1e-12, 1.0 - 1e-12);
        g = float(-std::log(-std::log(u)));
      }
    }
    std::vector<float> score(k);
    for (int i = 0; i < k; ++i) score[i] = gumbel_g_[i] + std::log(std::max(root_raw_prior_[i], 1e-12f));
    gumbel_cands_.resize(k);
    std::iota(gumbel_cands_.begin(), gumbel_cands_.end(), 0);
    std::stable_sort(gumbel_cands_.begin(), gumbel_cands_.end(), [&](int a, int b) { return score[a] > score[b]; });
    if (root_banned_ >= 0) gumbel_cands_.erase(std::find(gumbel_cands_.begin(), gumbel_cands_.end(), root_banned_));
    gumbel_cands_.resize(std::min(k, std::max(1, params_.gumbel_m)));
    gumbel_seq_ = mcts::considered_visit_sequence(int(gumbel_cands_.size()), params_.simulations);
  } else if (noise && params_.dirichlet_weight > 0 && k > 1) {
    double alpha = params_.dirichlet_alpha > 0 ? params_.dirichlet_alpha : params_.dirichlet_total / k;
    std::gamma_distribution<double> gamma(alpha, 1.0);
    std::vector<double> eta(k);
    double sum = 0;
    for (double& e : eta) sum += (e = gamma(rng_));
    if (sum > 0) {
      float w = params_.dirichlet_weight;
      for (int i = 0; i < k; ++i) root_->edges[i].prior = (1 - w) * root_raw_prior_[i] + w * float(eta[i] / sum);
      root_noised_ = true;
    }
  }
}

Node* Tree::child_at(Node* node, int index, bool create) {
  Node** link = &node->child;
  while (*link && (*link)->index < index) link = &(*link)->sibling;
  if (*link && (*link)->index == index) return *link;
  if (!create) return nullptr;
  Node* c = new Node;
  c->parent = node;
  c->index = uint16_t(index);
  c->sibling = *link;
  *link = c;
  ++nodes_;
  return c;
}

bool Tree::budget_spent() const {
  if (root_->state == NodeState::TERMINAL) return true;
  if (root_->state == NodeState::UNEXPANDED) return false;
  if (params_.time_limit > 0) {
    // A timed search (play) has nothing left to learn once the root is proven won: the move is that win.
    // Fixed-budget searches keep going, so self-play's visit targets do not depend on the solver.
    if (root_->proven < 0) return true;
    if (now_seconds() - start_time_ >= params_.time_limit) return true;
  }
  long used = long(root_->n) - 1 + root_->in_flight;
  return used >= params_.simulations;
}

bool Tree::finished() const { return in_flight_ == 0 && budget_spent(); }

int Tree::gather(int max_leaves, std::vector<LeafRequest>& out) {
  std::vector<Node*> collided;  // leaves of descents that collided, their paths' in-flight counts kept
  int added = gather_leaves(max_leaves, out, collided);
  for (Node* leaf : collided)
    for (Node* x = leaf; x; x = x->parent) --x->in_flight;
  return added;
}

int Tree::gather_leaves(int max_leaves, std::vector<LeafRequest>& out, std::vector<Node*>& collided) {
  int added = 0;
  bool is_gumbel = params_.gumbel;
  bool forced = params_.forced_playouts && params_.full_search && !is_gumbel;
  bool improved_interior = is_gumbel && params_.gumbel_interior;
  // Terminal re-visits make progress without an evaluation; bound them so a call stays short.
  for (int attempts = 0; added < max_leaves && attempts < 4 * max_leaves + 16; ++attempts) {
    if (budget_spent()) break;
    if (root_->state == NodeState::UNEXPANDED && root_->in_flight) break;
    Node* node = root_;
    int depth = 0;
    while (node->state == NodeState::EXPANDED) {
      ++node->in_flight;
      int idx = -1;
      if (depth == 0) {
        if (is_gumbel)
          idx = select_root_gumbel();
        else if (forced)
          idx = select_forced(node);
      } else if (improved_interior) {
        idx = select_improved(node);
      }
      if (idx < 0) idx = select_puct(node, depth == 0);
      work_.do_move(node->edges[idx].move);
      node = child_at(node, idx, true);
      ++depth;
    }
    auto unwind = [&] {
      for (int k = 0; k < depth; ++k) work_.undo_move();
    };
    if (node->state == NodeState::UNEXPANDED && node->in_flight) {  // collision
      if (int(collided.size()) < params_.max_collisions) {
        ++node->in_flight;
        collided.push_back(node);
        unwind();
        continue;
      }
      for (Node* x = node->parent; x; x = x->parent) --x->in_flight;  // undo and stop here
      unwind();
      break;
    }
    ++node->in_flight;
    if (node->state == NodeState::TERMINAL) {
      backup(node, node->q, node->d, node->m, depth);
      unwind();
      continue;
    }
    MoveList moves;
    generate_legal(work_, moves);
    GameResult r = game_result(work_, moves.size);
    if (r.over()) {
      double v;
      float d, m;
      terminal_value(work_, r, v, d, m);
      node->state = NodeState::TERMINAL;
      node->proven = int8_t(v > 0 ? 1 : v < 0 ? -1 : 0);
      if (node == root_) {  // a finished game: nothing to search
        --node->in_flight;
        node->add(v, d, m);
        unwind();
        break;
      }
      backup(node, v, d, m, depth);
      unwind();
      continue;
    }
    LeafRequest req{work_, moves, node, this, depth};
    if (params_.mate_in_one) req.mate_edge = winning_move(work_, moves, req.mate_margin);
    out.push_back(std::move(req));
    ++in_flight_;
    ++added;
    unwind();
  }
  return added;
}

// Backs up one playout and propagates proofs (MCTS-solver): a node with a child that wins for its side
// to move is lost for its mover; a node whose every child loses is won for its mover.
void Tree::backup(Node* leaf, double v, float d, float m, int depth) {
  for (Node* x = leaf; x; x = x->parent) {
    x->add(v, d, m);
    --x->in_flight;
    v = -v;
    m = -m;
    Node* p = x->parent;
    if (!p || !x->proven) continue;
    int len = std::min(255, x->proof_plies + 1);
    if (x->proven > 0) {  // the shortest known win counts
      if (p->proven == 0 || (p->proven < 0 && len < p->proof_plies)) p->proven = -1, p->proof_plies = uint8_t(len);
    } else if (p->proven == 0) {  // the loser takes the longest way
      int lost = 0, longest = 0;
      for (const Node* c = p->child; c; c = c->sibling)
        if (c->proven < 0) ++lost, longest = std::max(longest, c->proof_plies + 1);
      if (lost == p->num_edges) p->proven = 1, p->proof_plies = uint8_t(std::min(255, longest));
    }
  }
  if (leaf != root_) {
    ++playouts_;
    depth_sum_ += depth;
    max_depth_ = std::max(max_depth_, depth);
  }
}

void Tree::apply(const LeafRequest* reqs, const Evaluation* evals, int n) {
  // Checked before anything changes, so that a refused batch can still be abandoned.
  for (int i = 0; i < n; ++i) {
    if (reqs[i].owner != this) throw std::logic_error("Tree::apply: leaf from another tree");
    if (int(evals[i].policy.size()) != reqs[i].moves.size)
      throw std::runtime_error("evaluator returned a policy of the wrong size");
  }
  for (int i = 0; i < n; ++i) {
    const LeafRequest& req = reqs[i];
    const Evaluation& e = evals[i];
    Node* node = req.node;
    int k = req.moves.size;
    node->edges = new Edge[k];
    node->num_edges = uint16_t(k);
    edges_ += k;
    const float inv_temp = 1.0f / params_.policy_temperature;
    double sum = 0;
    for (int j = 0; j < k; ++j) {
      float w = std::max(e.policy[j], 0.0f);
      if (inv_temp != 1.0f) w = std::pow(w, inv_temp);
      node->edges[j].move = req.moves[j];
      node->edges[j].prior = w;
      sum += w;
    }
    for (int j = 0; j < k; ++j)
      node->edges[j].prior = sum > 0 ? float(node->edges[j].prior / sum) : 1.0f / k;
    node->raw_v = e.value();
    node->raw_d = e.wdl[1];
    node->state = NodeState::EXPANDED;
    --in_flight_;
    if (req.mate_edge >= 0) {  // the node is lost for its mover: back up the proof, not the network's opinion
      Node* c = child_at(node, req.mate_edge, true);
      c->state = NodeState::TERMINAL;
      c->proven = 1;  // an unvisited win: the next visit to node takes it (shortest_win)
      c->q = 1, c->m = req.mate_margin;
      node->proven = -1, node->proof_plies = 1;
      backup(node, -1.0, 0.0f, -req.mate_margin, req.depth);
    } else {
      backup(node, -double(e.value()), e.wdl[1], -e.margin, req.depth);
    }
    if (node == root_) prepare_root();
  }
}

void Tree::abandon(const LeafRequest* reqs, int n) {
  for (int i = 0; i < n; ++i) {
    if (reqs[i].owner != this) throw std::logic_error("Tree::abandon: leaf from another tree");
    for (Node* x = reqs[i].node; x; x = x->parent) --x->in_flight;
    --in_flight_;
  }
}

std::vector<float> Tree::root_visits_vector(bool pruned) const {
  int k = root_->num_edges;
  std::vector<float> v(k, 0.0f);
  int best = -1;
  for (const Node* c = root_->child; c; c = c->sibling) {
    if (!root_eligible(c->index)) continue;  // visits a reused subtree gave a banned move
    v[c->index] = float(c->n);
    if (best < 0 || c->n > v[best] || (c->n == v[best] && c->value() > find_child(root_, best)->value()))
      best = c->index;
  }
  if (!pruned || best < 0) return v;
  // KataGo policy target pruning: take away up to the forced playouts from every child but the best
  // while its PUCT score would still stay below the best child's.
  double total = 0;
  for (float x : v) total += x;
  double sq = std::sqrt(total), cp = cpuct_at(total);
  const Node* b = find_child(root_, best);
  double best_puct = b->value() + cp * root_->edges[best].prior * sq / (1.0 + b->n);
  for (const Node* c = root_->child; c; c = c->sibling) {
    if (c->index == best || v[c->index] == 0) continue;
    double p = root_->edges[c->index].prior;
    double forced = std::sqrt(params_.forced_k * p * total);
    double keep = c->n, q = c->value();
    if (best_puct > q) keep = std::ceil(cp * p * sq / (best_puct - q) - 1.0);
    keep = std::clamp(keep, double(c->n) - forced, double(c->n));
    v[c->index] = keep <= 1.0 ? 0.0f : float(keep);
  }
  return v;
}

SearchResult Tree::summary() const {
  SearchResult r;
  r.playouts = playouts_;
  r.seconds = now_seconds() - start_time_;
  r.nps = r.seconds > 0 ? playouts_ / r.seconds : 0;
  r.max_depth = max_depth_;
  r.avg_depth = playouts_ ? float(double(depth_sum_) / playouts_) : 0.0f;
  r.is_policy_target = params_.full_search;
  auto set_wdl = [](float* wdl, double q, double d) {
    wdl[0] = float((1 - d + q) / 2), wdl[1] = float(d), wdl[2] = float((1 - d - q) / 2);
  };
  r.proven = -root_->proven;
  r.proof_plies = root_->proof_plies;
  if (root_->n > 0) {
    double q = -root_->value(), d = root_->proven ? 0.0 : root_->d;
    set_wdl(r.wdl, q, d);
    r.q = float(q);
    r.margin = -root_->m;
  }
  if (root_->state == NodeState::TERMINAL) {
    r.terminal = true;
    std::copy(r.wdl, r.wdl + 3, r.raw_wdl);
    return r;
  }
  if (root_->state != NodeState::EXPANDED) return r;
  set_wdl(r.raw_wdl, root_->raw_v, root_->raw_d);
  int k = root_->num_edges;
  r.moves.resize(k);
  r.visits.assign(k, 0);
  r.prior = root_prepared_ ? root_raw_prior_ : std::vector<float>(k);
  for (int i = 0; i < k; ++i) {
    r.moves[i] = root_->edges[i].move;
    if (!root_prepared_) r.prior[i] = root_->edges[i].prior;
  }
  for (const Node* c = root_->child; c; c = c->sibling) {
    r.visits[c->index] = int(c->n);
    r.root_visits += int(c->n);
  }
  bool forced = params_.forced_playouts && params_.full_search && !params_.gumbel;
  std::vector<float> target;
  if (params_.gumbel) {
    mcts::improved_policy(root_, qtransform(), target);
    double rest = 1.0;  // a banned pass is no target either
    for (int i = 0; i < k; ++i)
      if (!root_eligible(i)) rest -= target[i], target[i] = 0;
    if (rest > 0 && rest < 1)
      for (float& t : target) t = float(t / rest);
  } else {
    target = root_visits_vector(forced);
    double sum = std::accumulate(target.begin(), target.end(), 0.0);
    if (sum <= 0)
      target = r.prior;
    else
      for (float& t : target) t = float(t / sum);
  }
  r.policy_target = target;
  int choice = shortest_win(root_);  // a proven win beats any visit count
  if (choice < 0) choice = longest_defence(root_);  // as a proven loss the longest way does
  if (choice >= 0) {
  } else if (params_.gumbel && root_prepared_) {
    choice = gumbel_choice();
  } else {
    std::vector<float> v = root_visits_vector(forced);
    for (const Node* c = root_->child; c; c = c->sibling)  // proven losses only if nothing else is left
      if (c->proven < 0 && root_->proven == 0) v[c->index] = -1;
    for (int i = 0; i < k; ++i)
      if (!root_eligible(i)) v[i] = -2;
    choice = root_eligible(0) ? 0 : 1;
    for (int i = 1; i < k; ++i)
      if (v[i] > v[choice] || (v[i] == v[choice] && v[i] <= 0 && r.prior[i] > r.prior[choice])) choice = i;
  }
  r.move = root_->edges[choice].move;
  r.pv = principal_line(choice);
  return r;
}

SearchResult Tree::result() {
  verify_choice();
  SearchResult r = summary();
  if (r.moves.empty() || params_.gumbel || params_.temperature <= 0 || shortest_win(root_) >= 0) return r;
  bool forced = params_.forced_playouts && params_.full_search;
  std::vector<float> v = root_visits_vector(forced);
  for (const Node* c = root_->child; c; c = c->sibling)  // never gamble on a proven loss
    if (c->proven < 0 && root_->proven == 0) v[c->index] = 0;
  double hi = *std::max_element(v.begin(), v.end());
  if (hi <= 0) return r;
  std::vector<double> w(v.size());
  for (size_t i = 0; i < v.size(); ++i) w[i] = v[i] > 0 ? std::pow(v[i] / hi, 1.0 / params_.temperature) : 0.0;
  std::discrete_distribution<int> pick(w.begin(), w.end());
  int choice = pick(rng_);
  if (root_->edges[choice].move != r.move) {
    r.move = root_->edges[choice].move;
    r.pv.assign(1, r.move);
  }
  return r;
}

SearchResult run_search(Tree& tree, Evaluator& eval, int batch) {
  if (batch <= 0) batch = std::max(1, eval.preferred_batch());
  std::vector<LeafRequest> reqs;
  std::vector<EvalInput> inputs;
  std::vector<Evaluation> evals;
  while (!tree.finished()) {
    reqs.clear();
    int n = tree.gather(batch, reqs);
    if (n == 0) continue;  // only terminal playouts this round: progress was made
    inputs.resize(n);
    evals.resize(n);
    for (int i = 0; i < n; ++i) inputs[i] = reqs[i].input();
    eval.evaluate(inputs.data(), n, evals.data());
    tree.apply(reqs.data(), evals.data(), n);
  }
  return tree.result();
}

}  // namespace jz
