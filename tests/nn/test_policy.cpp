// Policy maps of both games: size, distinctness, round trips for every legal move (both colors), mirror map,
// masked softmax.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/geometry.h"
#include "nn/policy_map.h"
#include "positions.h"

using namespace jz;

namespace {

class PolicyMapTest : public ::testing::TestWithParam<GameKind> {
 protected:
  GameKind game() const { return GetParam(); }
  const PolicyMap& map() const { return policy_map(GetParam()); }
};

std::string game_param_name(const ::testing::TestParamInfo<GameKind>& i) { return game_name(i.param); }

void check_round_trip(const PolicyMap& map, const Position& p) {
  MoveList ml;
  generate_legal(p, ml);
  std::set<int> seen;
  for (Move m : ml) {
    int i = map.index(m, p.side_to_move());
    ASSERT_GE(i, 0) << p.fen() << " " << int(m.from()) << "-" << int(m.to());
    ASSERT_LT(i, map.size());
    EXPECT_EQ(map.move(i, p), m) << p.fen();
    EXPECT_TRUE(seen.insert(i).second) << "two legal moves share index " << i << " in " << p.fen();
  }
}

}  // namespace

TEST(PolicyMap, SizesOfTheGames) {
  EXPECT_EQ(policy_map(GameKind::JANGGI).size(), 2451);
  EXPECT_EQ(policy_map(GameKind::JANGGI).pass_index(), 2450);
  EXPECT_EQ(policy_map(GameKind::XIANGQI).size(), 2238);  // 1,530 line + 508 horse + 168 elephant + 32 advisor pairs
  EXPECT_EQ(policy_map(GameKind::XIANGQI).pass_index(), -1);
  EXPECT_EQ(policy_map(GameKind::XIANGQI).index(Move(4, 4), CHO), -1);  // no pass in Xiangqi
}

TEST_P(PolicyMapTest, EveryIndexIsADistinctMoveAndRoundTrips) {
  for (Color c : {CHO, HAN}) {
    std::set<uint16_t> moves;
    for (int i = 0; i < map().size(); ++i) {
      Move m = map().move(i, c, make_square(4, 1));
      ASSERT_FALSE(m.is_none()) << i;
      EXPECT_TRUE(moves.insert(m.raw).second) << "duplicate move at index " << i;
      EXPECT_EQ(map().index(m, c), i);
    }
    EXPECT_EQ(int(moves.size()), map().size());
  }
  EXPECT_EQ(map().move(map().size(), CHO, 4), Move::none());
  EXPECT_EQ(map().index(Move(0, 80), CHO), -1);  // a1 -> i9: no piece moves like that
}

TEST_P(PolicyMapTest, HanMovesMapThroughTheFlippedBoard) {
  Move cho(make_square(1, 0), make_square(2, 2));  // b1c3
  Move han(flip_square(cho.from()), flip_square(cho.to()));
  EXPECT_EQ(map().index(cho, CHO), map().index(han, HAN));
  EXPECT_GE(map().index(cho, CHO), 0);
}

TEST_P(PolicyMapTest, RoundTripsEveryLegalMoveOfTheReferencePositions) {
  int han = 0;
  for (const Position& root : test::reference_positions(game())) {
    check_round_trip(map(), root);
    // The same positions with the other side to move, via each first reply.
    Position p = root;
    MoveList ml;
    generate_legal(p, ml);
    for (Move m : ml) {
      p.do_move(m);
      check_round_trip(map(), p);
      han += p.side_to_move() == HAN;
      p.undo_move();
    }
  }
  EXPECT_GT(han, 100);
}

TEST_P(PolicyMapTest, RoundTripsAlongRandomGames) {
  for (const Position& p : test::random_positions(400, 7, game())) check_round_trip(map(), p);
}

TEST_P(PolicyMapTest, MirrorIsAnInvolutionAndKeepsPass) {
  int fixed = 0;
  for (int i = 0; i < map().size(); ++i) {
    int m = map().mirror(i);
    ASSERT_GE(m, 0);
    ASSERT_LT(m, map().size());
    EXPECT_EQ(map().mirror(m), i);
    fixed += m == i;
  }
  if (map().pass_index() >= 0) EXPECT_EQ(map().mirror(map().pass_index()), map().pass_index());
  EXPECT_GT(fixed, 1);  // moves along the centre file
  EXPECT_LT(fixed, 300);
}

TEST_P(PolicyMapTest, MirrorMapsLegalMovesToLegalMovesOfTheMirroredPosition) {
  std::vector<Position> all = test::reference_positions(game());
  for (const Position& p : test::random_positions(200, 11, game())) {
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
    for (Move mv : a) mirrored.insert(map().mirror(map().index(mv, p.side_to_move())));
    for (Move mv : b) expected.insert(map().index(mv, m.side_to_move()));
    EXPECT_EQ(mirrored, expected) << p.fen();
  }
}

TEST_P(PolicyMapTest, MaskedPolicySumsToOneOverLegalMovesOnly) {
  for (const Position& p : test::random_positions(50, 3, game())) {
    MoveList ml;
    generate_legal(p, ml);
    std::vector<float> logits(size_t(map().size()));
    std::mt19937 rng(5);
    std::normal_distribution<float> nd(0, 3);
    for (float& x : logits) x = nd(rng);
    // Huge logits on moves that are not legal here must not leak into the result.
    std::vector<float> boosted = logits;
    std::set<int> legal;
    for (Move m : ml) legal.insert(map().index(m, p.side_to_move()));
    for (int i = 0; i < map().size(); ++i)
      if (!legal.count(i)) boosted[size_t(i)] = 1e4f;
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
      int a = map().index(ml[i - 1], p.side_to_move()), b = map().index(ml[i], p.side_to_move());
      EXPECT_EQ(logits[size_t(a)] < logits[size_t(b)], pa[i - 1] < pa[i]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Games, PolicyMapTest, ::testing::Values(GameKind::JANGGI, GameKind::XIANGQI), game_param_name);
