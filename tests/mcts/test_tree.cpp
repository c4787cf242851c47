// Tree mechanics: legality, budgets, determinism, tree reuse, batching across trees, threads.
#include <atomic>
#include <cmath>
#include <random>

#include "core/notation.h"
#include "mcts/parallel.h"
#include "tests/support/tsv.h"
#include "tests/mcts/helpers.h"

namespace jz::test {
namespace {

// Positions from the reference vectors, each walked a few random plies further.
std::vector<Position> sample_positions(int extra_plies, uint64_t seed) {
  std::vector<Position> out;
  std::mt19937_64 rng(seed);
  for (auto& row : read_tsv("legal_moves_public.tsv")) {
    Position pos = make_pos(row[0]);
    for (int k = 0; k < extra_plies && !game_result(pos).over(); ++k) {
      MoveList ml;
      generate_legal(pos, ml);
      pos.do_move(ml[int(rng() % ml.size)]);
    }
    if (!game_result(pos).over()) out.push_back(pos);
  }
  return out;
}

TEST(MctsTree, NeverReturnsAnIllegalMove) {
  MaterialEvaluator eval(1.0f);
  std::vector<Position> positions = sample_positions(12, 7);
  ASSERT_GT(positions.size(), 30u);
  int i = 0;
  for (const Position& pos : positions) {
    SearchParams p;
    p.simulations = 40;
    p.seed = ++i;
    p.root_noise = i % 2;
    p.gumbel = i % 3 == 0;
    p.forced_playouts = i % 3 == 1;
    p.temperature = i % 4 == 0 ? 1.0f : 0.0f;
    SearchResult r = search(pos, eval, p, 1 + i % 8);
    ASSERT_FALSE(r.move.is_none());
    EXPECT_TRUE(is_legal(pos, r.move)) << pos.fen() << " " << move_to_uci(r.move);
    Position line = pos;
    for (Move m : r.pv) {  // the whole best line is legal
      ASSERT_TRUE(is_legal(line, m)) << pos.fen();
      line.do_move(m);
    }
  }
}

TEST(MctsTree, VisitsSumToTheSimulations) {
  MaterialEvaluator eval;
  Position pos;
  for (int sims : {1, 7, 100, 513}) {
    for (int batch : {1, 5, 64}) {
      for (bool gumbel : {false, true}) {
        SearchParams p;
        p.simulations = sims;
        p.gumbel = gumbel;
        SearchResult r = search(pos, eval, p, batch);
        EXPECT_EQ(sum(r.visits), sims) << sims << " " << batch << " " << gumbel;
        EXPECT_EQ(r.root_visits, sims);
        EXPECT_EQ(r.playouts, sims);
      }
    }
  }
}

TEST(MctsTree, TerminalRootHasNoMove) {
  // Cho is checkmated (the mate-in-1 position after its mating move).
  Position pos = make_pos("4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1");
  pos.do_move(Move(make_square(0, 0), make_square(0, 9)));
  ASSERT_TRUE(game_result(pos).over());
  MaterialEvaluator eval;
  SearchResult r = search(pos, eval, SearchParams());
  EXPECT_TRUE(r.terminal);
  EXPECT_TRUE(r.move.is_none());
  EXPECT_FLOAT_EQ(r.wdl[2], 1.0f);  // Han, to move, has lost
}

TEST(MctsTree, DeterministicGivenASeed) {
  MaterialEvaluator eval(1.0f);
  Position pos;
  for (bool gumbel : {false, true}) {
    SearchParams p;
    p.simulations = 300;
    p.root_noise = true;
    p.temperature = 1.0f;
    p.gumbel = gumbel;
    p.forced_playouts = !gumbel;
    p.seed = 42;
    SearchResult a = search(pos, eval, p, 8), b = search(pos, eval, p, 8);
    EXPECT_EQ(a.move, b.move);
    EXPECT_EQ(a.visits, b.visits);
    EXPECT_EQ(a.policy_target, b.policy_target);
    EXPECT_EQ(a.q, b.q);
    // Another seed changes the noise, hence (almost surely) the visit distribution.
    p.seed = 43;
    SearchResult c = search(pos, eval, p, 8);
    EXPECT_NE(a.visits, c.visits);
  }
}

TEST(MctsTree, TreeReuseKeepsTheSubtree) {
  MaterialEvaluator eval(1.0f);
  SearchParams p;
  p.simulations = 2000;
  Tree tree(p);
  Position pos;
  tree.reset(pos);
  SearchResult r = run_search(tree, eval, 8);
  // The reply the tree explored most, two plies down.
  ASSERT_GE(r.pv.size(), 2u);
  auto it = std::find(r.moves.begin(), r.moves.end(), r.move);
  int child_visits = r.visits[it - r.moves.begin()];
  ASSERT_GT(child_visits, 10);
  size_t nodes_before = tree.node_count();
  ASSERT_TRUE(tree.advance(r.move));
  EXPECT_LT(tree.node_count(), nodes_before);
  EXPECT_GE(tree.node_count(), size_t(child_visits));
  // A budget the kept subtree already covers: no playouts needed.
  SearchParams q = p;
  q.simulations = child_visits - 1;
  tree.set_params(q);
  tree.new_search();
  EXPECT_TRUE(tree.finished());
  SearchResult kept = tree.result();
  EXPECT_EQ(kept.root_visits, child_visits - 1);
  EXPECT_EQ(kept.playouts, 0);
  EXPECT_EQ(kept.move, r.pv[1]);
  // Growing it adds exactly the missing playouts.
  q.simulations = child_visits + 100;
  tree.set_params(q);
  tree.new_search();
  SearchResult grown = run_search(tree, eval, 8);
  EXPECT_EQ(grown.root_visits, child_visits + 100);
  EXPECT_EQ(grown.playouts, 101);
  // Illegal moves are refused and leave the tree alone.
  size_t n = tree.node_count();
  EXPECT_FALSE(tree.advance(Move(make_square(0, 0), make_square(8, 9))));
  EXPECT_EQ(tree.node_count(), n);
}

// reach(): the next position of the same game keeps the subtree two plies down; another game resets.
TEST(MctsTree, ReachFollowsTheGameAndResetsOtherwise) {
  MaterialEvaluator eval(1.0f);
  SearchParams p;
  p.simulations = 2000;
  Tree tree(p);
  Position start;
  EXPECT_FALSE(tree.reach(start));  // no position yet: reset
  SearchResult r = run_search(tree, eval, 8);
  ASSERT_GE(r.pv.size(), 2u);
  Position two = start;
  two.do_move(r.pv[0]);
  two.do_move(r.pv[1]);
  size_t nodes_before = tree.node_count();
  EXPECT_TRUE(tree.reach(two));
  EXPECT_EQ(tree.root_position().key(), two.key());
  EXPECT_LT(tree.node_count(), nodes_before);
  EXPECT_GT(tree.node_count(), 1u);  // the grandchild's subtree came along
  EXPECT_TRUE(tree.reach(two));      // the same position again: kept
  // The start position is no continuation of the root: a fresh tree.
  EXPECT_FALSE(tree.reach(start));
  EXPECT_EQ(tree.node_count(), 1u);
  EXPECT_EQ(tree.root_position().key(), start.key());
  // Nor is a position more than max_plies ahead.
  Position far = start;
  for (int i = 0; i < 3; ++i) {
    MoveList ml;
    generate_legal(far, ml);
    far.do_move(ml[0]);
  }
  EXPECT_FALSE(tree.reach(far, 2));
  EXPECT_EQ(tree.root_position().key(), far.key());
}

// One thread drives many trees and fills one evaluator batch: same results as one tree at a time.
TEST(MctsTree, ManyTreesInOneBatchMatchOneAtATime) {
  MaterialEvaluator eval(1.0f);
  std::vector<Position> positions = sample_positions(6, 11);
  positions.resize(12);
  auto params_for = [](int i) {
    SearchParams p;
    p.simulations = 150;
    p.seed = 100 + i;
    p.root_noise = true;
    p.gumbel = i % 2;
    p.temperature = 1.0f;
    return p;
  };
  const int per_tree = 4;
  std::vector<SearchResult> alone;
  for (size_t i = 0; i < positions.size(); ++i) alone.push_back(search(positions[i], eval, params_for(i), per_tree));

  std::vector<std::unique_ptr<Tree>> trees;
  for (size_t i = 0; i < positions.size(); ++i) {
    trees.push_back(std::make_unique<Tree>(params_for(i)));
    trees.back()->reset(positions[i]);
  }
  std::vector<LeafRequest> reqs;
  std::vector<EvalInput> in;
  std::vector<Evaluation> out;
  int max_batch = 0;
  for (bool busy = true; busy;) {
    busy = false;
    reqs.clear();
    std::vector<int> start(trees.size() + 1, 0);
    for (size_t t = 0; t < trees.size(); ++t) {
      start[t] = int(reqs.size());
      if (!trees[t]->finished()) trees[t]->gather(per_tree, reqs), busy = true;
    }
    start[trees.size()] = int(reqs.size());
    int n = int(reqs.size());
    max_batch = std::max(max_batch, n);
    if (!n) continue;
    in.resize(n);
    out.resize(n);
    for (int i = 0; i < n; ++i) in[i] = reqs[i].input();
    eval.evaluate(in.data(), n, out.data());
    for (size_t t = 0; t < trees.size(); ++t)
      trees[t]->apply(reqs.data() + start[t], out.data() + start[t], start[t + 1] - start[t]);
  }
  EXPECT_GT(max_batch, per_tree * 4);
  for (size_t t = 0; t < trees.size(); ++t) {
    SearchResult r = trees[t]->result();
    EXPECT_EQ(r.move, alone[t].move) << t;
    EXPECT_EQ(r.visits, alone[t].visits) << t;
    EXPECT_EQ(r.policy_target, alone[t].policy_target) << t;
  }
}

TEST(MctsTree, ForcedPlayoutsPruneThePolicyTarget) {
  MaterialEvaluator eval;
  SearchParams p;
  p.simulations = 800;
  p.forced_playouts = true;
  p.root_noise = true;
  p.seed = 5;
  // One clearly best move (take the hanging chariot): the others' forced playouts get pruned.
  Position pos = make_pos("9/3k5/9/9/r8/9/9/9/4K4/R8 w - - 0 1");
  SearchResult r = search(pos, eval, p, 4);
  EXPECT_EQ(sum(r.visits), 800);
  float s = 0;
  int pruned = 0;
  size_t best = std::max_element(r.visits.begin(), r.visits.end()) - r.visits.begin();
  EXPECT_EQ(r.moves[best], r.move);
  double best_share = r.policy_target[best] / r.visits[best];
  for (size_t i = 0; i < r.moves.size(); ++i) {
    s += r.policy_target[i];
    if (r.visits[i])
      EXPECT_LE(r.policy_target[i] / r.visits[i], best_share * (1 + 1e-5)) << i;  // only removes
    else
      EXPECT_EQ(r.policy_target[i], 0.0f);
    pruned += r.visits[i] > 0 && r.policy_target[i] == 0;
  }
  EXPECT_NEAR(s, 1.0f, 1e-4);
  EXPECT_GT(pruned, 0);
  // Cheap searches are not policy targets.
  p.full_search = false;
  p.simulations = 50;
  EXPECT_FALSE(search(pos, eval, p).is_policy_target);
}

TEST(MctsTree, MultiThreadedSearchOfOneTree) {
  MaterialEvaluator eval;
  SearchParams p;
  p.simulations = 3000;
  Position pos = make_pos("9/3C1k3/9/9/9/9/4R4/4K4/8R/9 w - - 0 1");
  Tree tree(p);
  tree.reset(pos);
  ParallelOptions opt;
  opt.threads = 3;
  opt.batch = 4;
  int infos = 0;
  SearchInfo last;
  opt.info_interval = 1e-9;
  opt.on_info = [&](const SearchInfo& info) {
    ++infos;
    last = info;
    EXPECT_FALSE(info.pv.empty());
  };
  SearchResult r = search_parallel(tree, eval, opt);
  EXPECT_EQ(sum(r.visits), 3000);
  EXPECT_EQ(tree.in_flight(), 0);
  EXPECT_TRUE(mates(pos, r.move));
  EXPECT_EQ(last.visits, 3000) << "the last report is the finished search";
  // One thread applies every batch itself, so with an interval this short it reports after each one,
  // besides the final report (with three, another thread may happen to apply them all).
  opt.threads = 1;
  infos = 0;
  tree.reset(pos);
  search_parallel(tree, eval, opt);
  EXPECT_GT(infos, 1) << "periodic reports besides the final one";
  opt.threads = 3;
  // A stop flag already set: the search ends at once with whatever it has.
  std::atomic<bool> stop{true};
  opt.stop = &stop;
  p.simulations = 1000000;
  tree.set_params(p);
  tree.new_search();
  r = search_parallel(tree, eval, opt);
  EXPECT_EQ(r.playouts, 0);
  // A time limit ends an unbounded search (from the start position: a timed search of the mate above
  // would end at once, its root proven won).
  p.time_limit = 0.05;
  tree.set_params(p);
  tree.reset(Position());
  opt.stop = nullptr;
  r = search_parallel(tree, eval, opt);
  EXPECT_GT(r.playouts, 0);
  EXPECT_LT(r.seconds, 5.0);
}

// An evaluator that fails (a LibTorch error in play) after some batches.
class FailingEvaluator : public Evaluator {
 public:
  explicit FailingEvaluator(int good_calls) : left_(good_calls) {}
  void evaluate(const EvalInput* in, int n, Evaluation* out) override {
    if (left_.fetch_sub(1) <= 0) throw std::runtime_error("device lost");
    inner_.evaluate(in, n, out);
  }
  std::string id() const override { return "failing"; }

 private:
  std::atomic<int> left_;
  MaterialEvaluator inner_;
};

// The failure reaches the caller as an exception (not std::terminate) from any of the threads, and the
// tree stays usable: nothing left in flight, the next search runs.
TEST(MctsTree, EvaluatorFailureReachesTheCaller) {
  for (int threads : {1, 4}) {
    FailingEvaluator bad(5);
    SearchParams p;
    p.simulations = 2000;
    Tree tree(p);
    tree.reset(Position());
    ParallelOptions opt;
    opt.threads = threads;
    opt.batch = 4;
    EXPECT_THROW(search_parallel(tree, bad, opt), std::runtime_error) << threads << " threads";
    EXPECT_EQ(tree.in_flight(), 0);
    MaterialEvaluator good;
    tree.new_search();
    SearchResult r = search_parallel(tree, good, opt);
    EXPECT_EQ(sum(r.visits), 2000);
    tree.reset(Position());
    EXPECT_EQ(sum(search_parallel(tree, good, opt).visits), 2000);
  }
}

// policy_temperature T: the root's priors are the network's to the power 1/T, renormalised (T = 2:
// square roots), so a sharp prior is flattened and the move order is kept.
TEST(MctsTree, PolicyTemperatureFlattensThePriors) {
  MaterialEvaluator eval(4.0f);  // captures get larger priors
  SearchParams p;
  p.simulations = 1;
  int checked = 0;
  for (const Position& pos : sample_positions(6, 11)) {
    SearchResult base = search(pos, eval, p);
    SearchParams warm = p;
    warm.policy_temperature = 2.0f;
    SearchResult flat = search(pos, eval, warm);
    ASSERT_EQ(base.prior.size(), flat.prior.size());
    double norm = 0;
    for (float x : base.prior) norm += std::sqrt(x);
    float top_base = 0, top_flat = 0;
    for (size_t i = 0; i < base.prior.size(); ++i) {
      EXPECT_NEAR(flat.prior[i], std::sqrt(base.prior[i]) / norm, 1e-5) << pos.fen();
      top_base = std::max(top_base, base.prior[i]);
      top_flat = std::max(top_flat, flat.prior[i]);
    }
    const bool sharp = top_base * base.prior.size() > 1.01f;
    if (sharp) {
      EXPECT_LT(top_flat, top_base) << pos.fen();
    }
    checked += sharp;
  }
  EXPECT_GE(checked, 5);
}

TEST(MctsTree, MemoryPerNodeIsCompact) {
  MaterialEvaluator eval;
  SearchParams p;
  p.simulations = 5000;
  Tree tree(p);
  tree.reset(Position());
  run_search(tree, eval, 16);
  double per_node = double(tree.memory_bytes()) / tree.node_count();
  EXPECT_GE(tree.node_count(), 5000u);
  EXPECT_LT(per_node, 700.0);  // a million-node tree stays well under 1 GiB
  tree.reset(Position());
  EXPECT_EQ(tree.node_count(), 1u);
}

}  // namespace
}  // namespace jz::test
