// How one tree's batch is gathered: virtual loss or virtual visits, and what a collision does.
#include <set>

#include "mcts/node.h"
#include "tests/mcts/helpers.h"
#include "tests/support/tsv.h"

namespace jz::test {
namespace {

// The reference vectors' positions that are not over (openings and middlegames with captures about).
std::vector<Position> positions() {
  std::vector<Position> out;
  for (auto& row : read_tsv("legal_moves_public.tsv")) {
    Position pos = make_pos(row[0]);
    if (!game_result(pos).over()) out.push_back(pos);
  }
  return out;
}

// Gathers one batch, evaluates and applies it; returns how many leaves it held.
int one_batch(Tree& tree, Evaluator& eval, int batch) {
  std::vector<LeafRequest> reqs;
  int n = tree.gather(batch, reqs);
  std::vector<EvalInput> in(n);
  std::vector<Evaluation> out(n);
  for (int i = 0; i < n; ++i) in[i] = reqs[i].input();
  if (n) eval.evaluate(in.data(), n, out.data());
  tree.apply(reqs.data(), out.data(), n);
  return n;
}

// Batches a whole search takes, its budget checked exactly (a leaked in-flight count would end it early).
int batches_of_search(const SearchParams& p, const Position& pos, int batch) {
  MaterialEvaluator eval(1.0f);
  Tree tree(p);
  tree.reset(pos);
  int batches = 0;
  while (!tree.finished()) batches += one_batch(tree, eval, batch) > 0;
  EXPECT_EQ(tree.in_flight(), 0);
  SearchResult r = tree.result();
  int visits = 0;
  for (int v : r.visits) visits += v;
  EXPECT_EQ(visits, p.simulations);
  return batches;
}

// The root moves under the leaves of one batch gathered after a warm-up search of the tree.
std::set<int> root_moves_of_next_batch(SearchParams p, const Position& pos, int batch) {
  MaterialEvaluator eval(1.0f);
  p.simulations = 400;
  Tree tree(p);
  tree.reset(pos);
  while (!tree.finished()) one_batch(tree, eval, 1);
  p.simulations = 800;
  tree.set_params(p);
  tree.new_search();
  std::vector<LeafRequest> reqs;
  tree.gather(batch, reqs);
  std::set<int> moves;
  for (const LeafRequest& r : reqs) {
    const mcts::Node* x = r.node;
    while (x->parent && x->parent->parent) x = x->parent;
    moves.insert(x->index);
  }
  tree.abandon(reqs.data(), int(reqs.size()));
  return moves;
}

// Counted as losses, in-flight leaves push the rest of a batch onto other root moves; counted as visits
// at their own mean (WU-UCT), the batch stays nearer the moves a one-at-a-time search would pick.
TEST(MctsGather, VirtualVisitsSpreadABatchLessThanVirtualLosses) {
  size_t loss = 0, visit = 0;
  for (const Position& pos : positions()) {
    SearchParams p;
    loss += root_moves_of_next_batch(p, pos, 16).size();
    p.virtual_visit = true;
    visit += root_moves_of_next_batch(p, pos, 16).size();
  }
  printf("root moves under 16-leaf batches: virtual loss %zu, virtual visits %zu\n", loss, visit);
  EXPECT_LT(visit, loss);
}

// A collision keeps its path's in-flight counts for the rest of the gather, so later descents go elsewhere
// and batches are fuller: fewer of them for the same budget, which is still spent exactly.
TEST(MctsGather, CollisionsSteerTheRestOfTheBatch) {
  for (bool visit : {false, true}) {
    int ended = 0, steered = 0, searches = 0;
    for (const Position& pos : positions()) {
      SearchParams p;
      p.simulations = 600;
      p.virtual_visit = visit;
      ended += batches_of_search(p, pos, 16);
      p.max_collisions = 16;
      steered += batches_of_search(p, pos, 16);
      ++searches;
    }
    printf("batches of 16 for %d searches (%s): first collision ends %d, collisions steer %d\n", searches,
           visit ? "virtual visits" : "virtual loss", ended, steered);
    EXPECT_LT(steered, ended) << (visit ? "virtual visits" : "virtual loss");
  }
}

// A search with collisions allowed stays correct where the tree funnels into one line: it finds the mate.
TEST(MctsGather, CollisionsKeepAForcedLineCorrect) {
  Position pos = make_pos("9/3C1k3/9/9/9/9/4R4/4K4/8R/9 w - - 0 1");
  SearchParams p;
  p.simulations = 300;
  p.max_collisions = 8;
  for (bool visit : {false, true}) {
    p.virtual_visit = visit;
    batches_of_search(p, pos, 8);
    MaterialEvaluator eval;
    Tree tree(p);
    tree.reset(pos);
    SearchResult r = run_search(tree, eval, 8);
    EXPECT_TRUE(mates(pos, r.move)) << (visit ? "virtual visits" : "virtual loss");
  }
}

}  // namespace
}  // namespace jz::test
