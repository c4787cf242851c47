// Input encoding: side-to-move view, history and rule-state planes, batch encoding, encoding key.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/notation.h"
#include "nn/encoding.h"
#include "positions.h"

using namespace jz;

namespace {

std::vector<float> encode(const Position& p) {
  std::vector<float> v(INPUT_SIZE);
  encode_position(p, v.data());
  return v;
}

float at(const std::vector<float>& v, int plane, int sq = 0) { return v[plane * BOARD_SIZE + sq]; }

// The same position seen from the other side: board rotated 180 degrees, colors swapped.
std::string rotate_fen(const std::string& fen) {
  size_t sp = fen.find(' ');
  std::string board(fen.rbegin() + (fen.size() - sp), fen.rend());
  for (char& c : board) c = std::isupper(c) ? std::tolower(c) : std::toupper(c);
  std::string rest = fen.substr(sp);
  rest[1] = rest[1] == 'w' ? 'b' : 'w';
  return board + rest;
}

Position from_fen(const std::string& fen, Ruleset r = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, r, &err)) << fen << ": " << err;
  return p;
}

void play(Position& p, const char* uci) {
  Move m;
  std::string err;
  ASSERT_TRUE(parse_legal_uci_move(p, uci, m, &err)) << uci << ": " << err;
  p.do_move(m);
}

}  // namespace

TEST(Encoding, PiecePlanesAreInTheSideToMovesView) {
  Position p = from_fen(Position::START_FEN);
  auto v = encode(p);
  EXPECT_EQ(at(v, PLANE_OWN_PIECES + GENERAL - 1, p.king_square(CHO)), 1.0f);
  EXPECT_EQ(at(v, PLANE_OPP_PIECES + GENERAL - 1, p.king_square(HAN)), 1.0f);
  int pieces = 0;
  for (int i = 0; i < 14 * BOARD_SIZE; ++i) pieces += v[i] != 0;
  EXPECT_EQ(pieces, 32);
  play(p, "b1c3");
  v = encode(p);
  EXPECT_EQ(at(v, PLANE_OWN_PIECES + GENERAL - 1, flip_square(p.king_square(HAN))), 1.0f);
  EXPECT_EQ(at(v, PLANE_OPP_PIECES + HORSE - 1, flip_square(make_square(2, 2))), 1.0f);
  EXPECT_EQ(at(v, PLANE_STM_HAN), 1.0f);
}

TEST(Encoding, RotatedColorSwappedPositionEncodesAlike) {
  for (const Position& rp : test::random_positions(150, 21)) {
    Position a = from_fen(rp.fen(), rp.ruleset()), b = from_fen(rotate_fen(rp.fen()), rp.ruleset());
    auto va = encode(a), vb = encode(b);
    for (int plane = 0; plane < NUM_PLANES; ++plane) {
      if (plane == PLANE_STM_HAN || plane == PLANE_MATERIAL || plane == PLANE_BIKJANG) continue;
      for (int s = 0; s < BOARD_SIZE; ++s)
        ASSERT_EQ(at(va, plane, s), at(vb, plane, s)) << rp.fen() << " plane " << plane;
    }
    EXPECT_NE(at(va, PLANE_STM_HAN), at(vb, PLANE_STM_HAN));
    // Han's 1.5 counting bonus: the same board is worth 3 points more to Han.
    float diff = (a.side_to_move() == HAN ? 1 : -1) * (at(va, PLANE_MATERIAL) - at(vb, PLANE_MATERIAL));
    EXPECT_NEAR(diff, 3.0f / MATERIAL_PLANE_SCALE, 1e-6);
  }
}

TEST(Encoding, RuleStatePlanes) {
  for (int r = 0; r < JANGGI_RULESET_NB; ++r) {
    auto v = encode(from_fen(Position::START_FEN, Ruleset(r)));
    for (int k = 0; k < JANGGI_RULESET_NB; ++k) EXPECT_EQ(at(v, PLANE_RULESET + k, 45), k == r ? 1.0f : 0.0f);
    EXPECT_EQ(at(v, PLANE_ONES, 89), 1.0f);
    EXPECT_EQ(at(v, PLANE_RULE50), 0.0f);
    EXPECT_NEAR(at(v, PLANE_MATERIAL), -1.5f / MATERIAL_PLANE_SCALE, 1e-6);
  }
  // History, pass and repetition: horses out and back twice.
  Position p = from_fen(Position::START_FEN);
  play(p, "b1c3");
  auto v = encode(p);
  EXPECT_EQ(at(v, PLANE_HISTORY, flip_square(make_square(1, 0))), 1.0f);
  EXPECT_EQ(at(v, PLANE_HISTORY + 1, flip_square(make_square(2, 2))), 1.0f);
  EXPECT_EQ(at(v, PLANE_OPP_PASSED), 0.0f);
  play(p, "b10c8");
  play(p, "c3b1");
  play(p, "c8b10");
  v = encode(p);
  EXPECT_EQ(at(v, PLANE_REPEAT1), 1.0f);
  EXPECT_EQ(at(v, PLANE_REPEAT2), 0.0f);
  EXPECT_NEAR(at(v, PLANE_RULE50), 4.0f / ruleset_info(Ruleset::JANGGI).move_rule, 1e-6);
  uint64_t key1 = encoding_key(p);
  play(p, "b1c3");
  play(p, "b10c8");
  play(p, "c3b1");
  play(p, "c8b10");
  v = encode(p);
  EXPECT_EQ(at(v, PLANE_REPEAT2), 1.0f);
  EXPECT_NE(encoding_key(p), key1);  // same board and last moves, different repetition count
  EXPECT_EQ(at(v, PLANE_PASS_ENDS), 0.0f);
  play(p, "e2e2");  // pass
  v = encode(p);
  EXPECT_EQ(at(v, PLANE_OPP_PASSED), 1.0f);
  EXPECT_EQ(at(v, PLANE_PASS_ENDS), 1.0f);  // a second pass would end the game
  EXPECT_TRUE(pass_would_end(p));
  EXPECT_EQ(at(v, PLANE_HISTORY, flip_square(make_square(4, 1))), 1.0f);
}

TEST(Encoding, PassEndsPlaneInBikjang) {
  // Generals face each other on the e-file: a pass now ends the game (bikjang), except in rule sets
  // without bikjang.
  const char* fen = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
  EXPECT_EQ(at(encode(from_fen(fen)), PLANE_PASS_ENDS), 1.0f);
  EXPECT_EQ(at(encode(from_fen(fen, Ruleset::CASUAL)), PLANE_PASS_ENDS), 0.0f);
  EXPECT_EQ(at(encode(from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")), PLANE_PASS_ENDS), 0.0f);
}

TEST(Encoding, InCheckPlane) {
  // Cho's chariot checks Han's general along the e-file.
  Position p = from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1");
  play(p, "f1e1");
  EXPECT_TRUE(p.in_check());
  EXPECT_EQ(at(encode(p), PLANE_IN_CHECK), 1.0f);
}

TEST(Encoding, BatchEqualsSingle) {
  auto pos = test::random_positions(100, 5);
  std::vector<const Position*> ptr;
  for (auto& p : pos) ptr.push_back(&p);
  std::vector<float> batch(pos.size() * INPUT_SIZE);
  encode_batch(ptr.data(), int(ptr.size()), batch.data());
  for (size_t i = 0; i < pos.size(); ++i) {
    auto v = encode(pos[i]);
    ASSERT_TRUE(std::equal(v.begin(), v.end(), batch.begin() + i * INPUT_SIZE)) << i;
  }
}

TEST(Encoding, KeyFollowsTheEncoding) {
  auto pos = test::random_positions(300, 9);
  for (size_t i = 0; i < pos.size(); ++i) {
    Position copy = pos[i];
    EXPECT_EQ(encoding_key(copy), encoding_key(pos[i]));
    for (size_t j = i + 1; j < std::min(pos.size(), i + 20); ++j)
      if (encoding_key(pos[i]) == encoding_key(pos[j])) {
        EXPECT_EQ(encode(pos[i]), encode(pos[j]));
      }
  }
  // Same board, different last move: different input, different key.
  Position a = from_fen(Position::START_FEN), b = a;
  play(a, "b1c3");
  play(a, "b10c8");
  play(a, "a1a2");
  play(b, "a1a2");
  play(b, "b10c8");
  play(b, "b1c3");
  EXPECT_EQ(a.key(), b.key());
  EXPECT_NE(encoding_key(a), encoding_key(b));
  EXPECT_NE(encode(a), encode(b));
}
