// UCI and Korean numeric notation.
#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/notation.h"

using namespace jz;

TEST(Notation, SquaresAndUciMoves) {
  EXPECT_EQ(square_name(make_square(0, 9)), "a10");
  EXPECT_EQ(square_name(make_square(4, 1)), "e2");
  Square s;
  EXPECT_TRUE(parse_square("i10", s));
  EXPECT_EQ(s, make_square(8, 9));
  EXPECT_FALSE(parse_square("j1", s));
  EXPECT_FALSE(parse_square("a11", s));
  EXPECT_FALSE(parse_square("a0", s));
  EXPECT_FALSE(parse_square("a01", s));
  Move m;
  EXPECT_TRUE(parse_uci_move("a10a9", m));
  EXPECT_EQ(move_to_uci(m), "a10a9");
  EXPECT_TRUE(parse_uci_move("e2e2", m));
  EXPECT_TRUE(m.is_pass());
  EXPECT_FALSE(parse_uci_move("0000", m));
  EXPECT_FALSE(parse_uci_move("e2", m));
  EXPECT_FALSE(parse_uci_move("e2e2e2", m));
}

TEST(Notation, LegalityOfParsedMoves) {
  Position p;
  Move m;
  std::string err;
  EXPECT_TRUE(parse_legal_uci_move(p, "b1c3", m, &err)) << err;
  EXPECT_FALSE(parse_legal_uci_move(p, "b1b3", m, &err));
  EXPECT_NE(err.find("illegal move 'b1b3'"), std::string::npos);
  EXPECT_FALSE(parse_legal_uci_move(p, "e9e9", m, &err));  // Han's general cannot pass for Cho
  EXPECT_FALSE(parse_legal_uci_move(p, "zz", m, &err));
  EXPECT_NE(err.find("malformed"), std::string::npos);
}

TEST(Notation, KoreanNumeric) {
  Position p;
  EXPECT_EQ(korean_square(p.king_square(CHO)), "95");
  EXPECT_EQ(korean_square(p.king_square(HAN)), "25");
  Move m(make_square(8, 3), make_square(7, 3));  // i4-h4
  EXPECT_EQ(move_to_korean(p, m), "79졸78");
  EXPECT_EQ(move_to_korean(p, m, true), "79卒78");
  Move parsed;
  std::string err;
  ASSERT_TRUE(parse_korean_move(p, "79졸78", parsed, &err)) << err;
  EXPECT_EQ(parsed, m);
  ASSERT_TRUE(parse_korean_move(p, "79兵78", parsed, &err)) << err;
  EXPECT_EQ(parsed, m);
  ASSERT_TRUE(parse_any_move(p, "7978", parsed, &err)) << err;
  EXPECT_EQ(parsed, m);
  ASSERT_TRUE(parse_any_move(p, "한수쉼", parsed, &err)) << err;
  EXPECT_TRUE(parsed.is_pass());
  EXPECT_FALSE(parse_korean_move(p, "79졸77", parsed, &err));  // not a legal soldier step
  EXPECT_FALSE(parse_korean_move(p, "졸", parsed, &err));
  // Every legal move round-trips through Korean notation.
  MoveList list;
  generate_legal(p, list);
  for (Move mv : list) {
    ASSERT_TRUE(parse_korean_move(p, move_to_korean(p, mv), parsed, &err)) << err;
    EXPECT_EQ(parsed, mv);
  }
}
