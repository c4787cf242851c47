// Policy index: size, distinctness, round trips for every legal move (both colors), mirror map.
#include <gtest/gtest.h>

#include <set>

#include "nn/policy_map.h"
#include "positions.h"

using namespace jz;

TEST(PolicyIndex, HasExactly2451DistinctEntries) {
  for (Color c : {CHO, HAN}) {
    std::set<uint16_t> moves;
    for (int i = 0; i < POLICY_SIZE; ++i) {
      Move m = policy_move(i, c, make_square(4, 1));
      ASSERT_FALSE(m.is_none()) << i;
      EXPECT_TRUE(moves.insert(m.raw).second) << "duplicate move at index " << i;
      EXPECT_EQ(policy_index(m, c), i);
    }
    EXPECT_EQ(int(moves.size()), POLICY_SIZE);
  }
  EXPECT_EQ(policy_move(POLICY_SIZE, CHO, 4), Move::none());
  EXPECT_EQ(policy_index(Move(0, 80), CHO), -1);  // a1 -> i9: no piece moves like that
}

TEST(PolicyIndex, HanMovesMapThroughTheFlippedBoard) {
  Move cho(make_square(1, 0), make_square(2, 2));  // b1c3
  Move han(flip_square(cho.from()), flip_square(cho.to()));
  EXPECT_EQ(policy_index(cho, CHO), policy_index(han, HAN));
  EXPECT_EQ(policy_index(Move(4, 4), HAN), PASS_INDEX);
}

namespace {

void check_round_trip(const Position& p) {
  MoveList ml;
  generate_legal(p, ml);
  std::set<int> seen;
  for (Move m : ml) {
    int i = policy_index(m, p.side_to_move());
    ASSERT_GE(i, 0) << p.fen() << " " << int(m.from()) << "-" << int(m.to());
    ASSERT_LT(i, POLICY_SIZE);
    EXPECT_EQ(policy_move(i, p), m) << p.fen();
    EXPECT_TRUE(seen.insert(i).second) << "two legal moves share index " << i << " in " << p.fen();
  }
}

}  // namespace

TEST(PolicyIndex, RoundTripsEveryLegalMoveOfTheReferencePositions) {
  int han = 0;
  for (const Position& root : test::reference_positions()) {
    check_round_trip(root);
    // The same positions with the other side to move, via each first reply.
    Position p = root;
    MoveList ml;
    generate_legal(p, ml);
    for (Move m : ml) {
      p.do_move(m);
      check_round_trip(p);
      han += p.side_to_move() == HAN;
      p.undo_move();
    }
  }
  EXPECT_GT(han, 100);
}

TEST(PolicyIndex, RoundTripsAlongRandomGames) {
  for (const Position& p : test::random_positions(400, 7)) check_round_trip(p);
}

TEST(PolicyMirror, IsAnInvolutionAndKeepsPass) {
  int fixed = 0;
  for (int i = 0; i < POLICY_SIZE; ++i) {
    int m = mirror_policy_index(i);
    ASSERT_GE(m, 0);
    ASSERT_LT(m, POLICY_SIZE);
    EXPECT_EQ(mirror_policy_index(m), i);
    fixed += m == i;
  }
  EXPECT_EQ(mirror_policy_index(PASS_INDEX), PASS_INDEX);
  EXPECT_GT(fixed, 1);  // moves along the centre file
  EXPECT_LT(fixed, 300);
}

TEST(PolicyMirror, MapsLegalMovesToLegalMovesOfTheMirroredPosition) {
  std::vector<Position> all = test::reference_positions();
  for (const Position& p : test::random_positions(200, 11)) {
    // Mirror only via FEN: history is not part of the board.
    Position q;
    std::string err;
    ASSERT_TRUE(q.set_fen(p.fen(), p.ruleset(), &err)) << err;
    all.push_back(q);
  }
  for (const Position& p : all) {
    std::string mfen = test::mirror_fen(p.fen());
    Position m;
    std::string err;
    ASSERT_TRUE(m.set_fen(mfen, p.ruleset(), &err)) << mfen << ": " << err;
    EXPECT_EQ(test::mirror_fen(mfen), p.fen());
    MoveList a, b;
    generate_legal(p, a);
    generate_legal(m, b);
    std::set<int> mirrored, expected;
    for (Move mv : a) mirrored.insert(mirror_policy_index(policy_index(mv, p.side_to_move())));
    for (Move mv : b) expected.insert(policy_index(mv, m.side_to_move()));
    EXPECT_EQ(mirrored, expected) << p.fen();
  }
}

TEST(MaskedPolicy, SumsToOneOverLegalMovesOnly) {
  for (const Position& p : test::random_positions(50, 3)) {
    MoveList ml;
    generate_legal(p, ml);
    std::vector<float> logits(POLICY_SIZE);
    std::mt19937 rng(5);
    std::normal_distribution<float> nd(0, 3);
    for (float& x : logits) x = nd(rng);
    // Huge logits on moves that are not legal here must not leak into the result.
    std::vector<float> boosted = logits;
    std::set<int> legal;
    for (Move m : ml) legal.insert(policy_index(m, p.side_to_move()));
    for (int i = 0; i < POLICY_SIZE; ++i)
      if (!legal.count(i)) boosted[i] = 1e4f;
    std::vector<float> pa, pb;
    masked_policy(logits.data(), p, ml, pa);
    masked_policy(boosted.data(), p, ml, pb);
    ASSERT_EQ(int(pa.size()), ml.size);
    double sum = 0;
    for (int i = 0; i < ml.size; ++i) {
      EXPECT_GE(pa[i], 0.0f);
      EXPECT_EQ(pa[i], pb[i]);
      sum += pa[i];
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    // Order follows the move list: a larger logit gives a larger probability.
    for (int i = 1; i < ml.size; ++i) {
      int a = policy_index(ml[i - 1], p.side_to_move()), b = policy_index(ml[i], p.side_to_move());
      EXPECT_EQ(logits[a] < logits[b], pa[i - 1] < pa[i]);
    }
  }
}
