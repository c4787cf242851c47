// Gumbel root details (issue 15): rescaled completed Q, never a proven loss, the opening pass ban,
// the score utility.
#include <cmath>

#include "mcts/gumbel.h"
#include "tests/mcts/helpers.h"

namespace jz::test {
namespace {

// A root with k uniform-prior edges, the first `visited` of them visited `n` times with Q alternating
// q0 + dq / 2 and q0 - dq / 2 (root's side to move's view). Owns its children.
struct HandRoot {
  mcts::Node root;
  std::vector<mcts::Edge> edges;
  std::vector<mcts::Node> kids;
  HandRoot(int k, int visited, uint32_t n, double q0, double dq) : edges(size_t(k)), kids(size_t(visited)) {
    for (auto& e : edges) e.prior = 1.0f / float(k);
    root.edges = edges.data();
    root.num_edges = uint16_t(k);
    root.raw_v = float(q0);
    root.state = mcts::NodeState::EXPANDED;
    mcts::Node** link = &root.child;
    for (int i = 0; i < visited; ++i) {
      mcts::Node& c = kids[size_t(i)];
      c.index = uint16_t(i);
      c.n = n;
      c.q = q0 + (i % 2 ? -dq / 2 : dq / 2);
      c.parent = &root;
      *link = &c;
      link = &c.sibling;
      root.n += n;
    }
  }
  ~HandRoot() { root.edges = nullptr, root.child = nullptr; }
};

double kl_from_prior(const std::vector<float>& target, const mcts::Node& root) {
  double kl = 0;
  for (int i = 0; i < root.num_edges; ++i)
    if (target[size_t(i)] > 0) kl += target[size_t(i)] * std::log(target[size_t(i)] / root.edges[i].prior);
  return kl;
}

TEST(MctsGumbel, RescaledCompletedQGivesSharpTargets) {
  // 30 moves, 16 simulations over 8 candidates; the visited children differ by 0.1 in Q.
  HandRoot h(30, 8, 2, 0.0, 0.1);
  mcts::QTransform plain, rescaled;
  rescaled.rescale = true;
  std::vector<float> a, b;
  mcts::improved_policy(&h.root, plain, a);
  mcts::improved_policy(&h.root, rescaled, b);
  double kl_plain = kl_from_prior(a, h.root), kl_rescaled = kl_from_prior(b, h.root);
  EXPECT_LT(kl_plain, 0.05);
  EXPECT_GE(kl_rescaled, 0.3);
  // Rescaled completed Q spans [0, 1]: the best visited child at 1, the worst at 0.
  std::vector<float> q;
  mcts::completed_q(&h.root, rescaled, q);
  EXPECT_FLOAT_EQ(*std::max_element(q.begin(), q.end()), 1.0f);
  EXPECT_FLOAT_EQ(*std::min_element(q.begin(), q.end()), 0.0f);
  EXPECT_FLOAT_EQ(q[0], 1.0f);
  EXPECT_FLOAT_EQ(q[1], 0.0f);
  // Equal values: no preference, the target is the prior.
  HandRoot flat(30, 8, 2, 0.2, 0.0);
  mcts::improved_policy(&flat.root, rescaled, b);
  EXPECT_LT(kl_from_prior(b, flat.root), 1e-6);
}

TEST(MctsGumbel, ScoreUtilityIsBoundedOddAndMonotone) {
  EXPECT_DOUBLE_EQ(mcts::score_utility(0, 0.3f, 10), 0.0);
  EXPECT_NEAR(mcts::score_utility(10, 0.3f, 10), 0.3 * 0.5, 1e-6);  // atan(1) * 2 / pi = 1/2
  EXPECT_NEAR(mcts::score_utility(-10, 0.3f, 10), -0.15, 1e-6);
  EXPECT_LT(mcts::score_utility(1000, 0.3f, 10), 0.3);
  EXPECT_GT(mcts::score_utility(13, 0.3f, 10), mcts::score_utility(5, 0.3f, 10));
  // It orders children of equal value by margin.
  HandRoot h(4, 2, 4, 0.0, 0.0);
  h.kids[0].m = -5, h.kids[1].m = 13;  // mover's view: the second child wins a chariot
  mcts::QTransform t;
  t.rescale = true;
  t.score_weight = 0.2f;
  std::vector<float> q;
  mcts::completed_q(&h.root, t, q);
  EXPECT_GT(q[1], q[0]);
}

// Puts `pass_prior` on the pass and shares the rest; value: a certain draw.
class PassLover : public Evaluator {
 public:
  explicit PassLover(float pass_prior) : pass_(pass_prior) {}
  void evaluate(const EvalInput* in, int n, Evaluation* out) override {
    for (int i = 0; i < n; ++i) {
      const MoveList& ml = *in[i].moves;
      out[i] = Evaluation();
      out[i].policy.assign(size_t(ml.size), ml.size > 1 ? (1 - pass_) / float(ml.size - 1) : 1.0f);
      for (int j = 0; j < ml.size; ++j)
        if (ml[j].is_pass() && ml.size > 1) out[i].policy[size_t(j)] = pass_;
    }
  }
  std::string id() const override { return "pass-lover"; }

 private:
  float pass_;
};

Move pass_move(const Position& pos) {
  MoveList ml;
  generate_legal(pos, ml);
  for (Move m : ml)
    if (m.is_pass()) return m;
  return Move::none();
}

TEST(MctsGumbel, NeverPlaysAProvenLoss) {
  // Han passed; equal material, so a pass by Cho ends the game and Han wins by counting (1.5).
  for (bool rescale : {false, true}) {
    Position pos = make_pos("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
    pos.do_move(pass_move(pos));
    PassLover eval(0.95f);
    SearchParams p;
    p.gumbel = true;
    p.gumbel_m = 2;
    p.simulations = 2;
    p.gumbel_rescale_q = rescale;
    SearchResult r = search(pos, eval, p);
    Move pass = pass_move(pos);
    auto it = std::find(r.moves.begin(), r.moves.end(), pass);
    ASSERT_NE(it, r.moves.end());
    EXPECT_EQ(r.visits[size_t(it - r.moves.begin())], 1) << "the pass is a candidate and was searched";
    EXPECT_FALSE(r.move.is_pass()) << "rescale=" << rescale << ": the pass loses by counting";
  }
}

TEST(MctsGumbel, OpeningPassBanUnlessBikjang) {
  PassLover eval(0.95f);
  SearchParams p;
  p.gumbel = true;
  p.gumbel_m = 4;
  p.simulations = 8;
  p.root_pass = false;
  Position start;
  SearchResult r = search(start, eval, p);
  Move pass = pass_move(start);
  auto at = [&](const SearchResult& s, Move m) {
    return size_t(std::find(s.moves.begin(), s.moves.end(), m) - s.moves.begin());
  };
  EXPECT_FALSE(r.move.is_pass());
  EXPECT_EQ(r.visits[at(r, pass)], 0);
  EXPECT_EQ(r.policy_target[at(r, pass)], 0.0f);
  p.root_pass = true;
  r = search(start, eval, p);
  EXPECT_GT(r.visits[at(r, pass)], 0);
  // PUCT roots obey it too.
  p.gumbel = false;
  p.root_pass = false;
  r = search(start, eval, p);
  EXPECT_EQ(r.visits[at(r, pass)], 0);
  EXPECT_FALSE(r.move.is_pass());
  // Bikjang: the generals face each other on the e-file; the pass (which ends the game) stays allowed.
  Position bik = make_pos("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
  ASSERT_TRUE(bik.in_bikjang());
  p.gumbel = true;
  r = search(bik, eval, p);
  EXPECT_GT(r.visits[at(r, pass_move(bik))], 0);
}

// The ban holds over a reused subtree: the kept child's pass was searched while it was no root (the
// network loves it), yet at the new root it gets no target, no forced playout and is never played.
TEST(MctsGumbel, PassBanHoldsAfterTreeReuse) {
  for (bool gumbel : {false, true}) {
    PassLover eval(0.95f);
    SearchParams p;
    p.gumbel = gumbel;
    p.gumbel_m = 4;
    p.simulations = 400;
    p.root_pass = false;
    p.forced_playouts = !gumbel;
    p.temperature = 1.0f;
    Tree tree(p);
    Position start;
    tree.reset(start);
    SearchResult first = run_search(tree, eval, 8);
    ASSERT_FALSE(first.move.is_pass());
    ASSERT_TRUE(tree.advance(first.move));
    Position next = start;
    next.do_move(first.move);
    Move pass = pass_move(next);
    tree.new_search();
    SearchResult r = tree.summary();
    size_t at = size_t(std::find(r.moves.begin(), r.moves.end(), pass) - r.moves.begin());
    ASSERT_LT(at, r.moves.size());
    ASSERT_GT(r.visits[at], 0) << "gumbel=" << gumbel << ": the reused subtree searched the pass";
    int passes = 0;
    for (uint64_t seed = 0; seed < 50; ++seed) {
      p.seed = seed;
      tree.set_params(p);
      tree.reset(start);
      run_search(tree, eval, 8);
      tree.advance(first.move);
      tree.new_search();
      r = run_search(tree, eval, 8);
      EXPECT_EQ(r.policy_target[at], 0.0f) << "gumbel=" << gumbel;
      passes += r.move.is_pass();
    }
    EXPECT_EQ(passes, 0) << "gumbel=" << gumbel;
  }
}

TEST(MctsGumbel, BestMoveWithoutSamplingIsDeterministic) {
  MaterialEvaluator eval(4.0f);
  SearchParams p;
  p.gumbel = true;
  p.root_noise = true;
  p.gumbel_m = 64;  // every move is a candidate: the noise only reorders them
  p.simulations = 64;
  p.gumbel_sample_move = false;
  Position pos = make_pos("9/3k5/9/9/r8/9/9/9/4K4/R8 w - - 0 1");
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    p.seed = seed;
    SearchResult r = search(pos, eval, p);
    EXPECT_EQ(pos.piece_on(r.move.to()), pos.piece_on(make_square(0, 5))) << "takes the hanging chariot";
  }
}

}  // namespace
}  // namespace jz::test
