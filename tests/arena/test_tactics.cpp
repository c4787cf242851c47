// The tactics check (alphabeta/tactics.h): a network search's choice that loses material to a short
// combination gives way to its next move that does not.
#include <gtest/gtest.h>

#include "alphabeta/tactics.h"
#include "core/movegen.h"
#include "core/notation.h"

namespace jz {
namespace {

Position from_fen(const std::string& fen) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, Ruleset::JANGGI, &err)) << err;
  return p;
}

std::vector<Move> moves(const Position& p, std::initializer_list<const char*> uci) {
  std::vector<Move> out;
  for (const char* s : uci) {
    Move m;
    EXPECT_TRUE(parse_uci_move(s, m) && is_legal(p, m)) << s;
    out.push_back(m);
  }
  return out;
}

// Cho to move; Cho's chariot a1 and Han's a5 face each other on an open file: a1a5 wins a chariot, any
// other move loses one.
const char* CHARIOTS = "4k4/4a4/9/p3p4/9/r8/4P3P/9/4A4/R2K5 w - - 0 1";

TEST(Tactics, ABlunderGivesWayToTheNextMoveThatHolds) {
  Position p = from_fen(CHARIOTS);
  AlphaBetaEngine ab(4);
  TacticsVerdict v = check_tactics(ab, p, moves(p, {"i4i5", "a1a5", "e4e5"}), TacticsCheck{});
  EXPECT_EQ(move_to_uci(v.move), "a1a5");
  EXPECT_TRUE(v.vetoed && v.complete);
  EXPECT_LT(v.first_cp, v.best_cp - TacticsCheck{}.margin_cp);
  EXPECT_GT(v.nodes, 0u);
}

TEST(Tactics, AMoveThatHoldsIsPlayed) {
  Position p = from_fen(CHARIOTS);
  AlphaBetaEngine ab(4);
  TacticsVerdict v = check_tactics(ab, p, moves(p, {"a1a5", "i4i5"}), TacticsCheck{});
  EXPECT_EQ(move_to_uci(v.move), "a1a5");
  EXPECT_FALSE(v.vetoed);
  EXPECT_TRUE(v.complete);
  // A quiet opening move is no blunder: it stands though alpha-beta prefers another.
  Position start;
  std::string err;
  ASSERT_TRUE(start.set_fen(Position::START_FEN, Ruleset::JANGGI, &err)) << err;
  v = check_tactics(ab, start, moves(start, {"c4d4"}), TacticsCheck{});
  EXPECT_EQ(move_to_uci(v.move), "c4d4");
  EXPECT_FALSE(v.vetoed);
  EXPECT_GE(v.first_cp, v.best_cp - TacticsCheck{}.margin_cp);
}

TEST(Tactics, WhenNoCandidateHoldsTheAlphaBetaMoveIsPlayed) {
  Position p = from_fen(CHARIOTS);
  AlphaBetaEngine ab(4);
  TacticsCheck two;
  two.candidates = 2;  // a1a5, third in the search's order, is past the candidates tried
  TacticsVerdict v = check_tactics(ab, p, moves(p, {"i4i5", "e4e5", "a1a5"}), two);
  EXPECT_EQ(move_to_uci(v.move), "a1a5");
  EXPECT_TRUE(v.vetoed && v.complete);
  two.margin_cp = 100000;  // nothing is a blunder at this margin: the search's choice stands
  v = check_tactics(ab, p, moves(p, {"i4i5", "e4e5"}), two);
  EXPECT_EQ(move_to_uci(v.move), "i4i5");
  EXPECT_FALSE(v.vetoed);
}

// Decisive lines are alike: a move that mates in 2 is no blunder beside one that alpha-beta scores as a quicker
// or a counted win, and when every move loses the search's choice stands.
TEST(Tactics, AWinIsNeverABlunder) {
  Position p = from_fen("4k4/9/R8/9/9/9/9/9/3K5/1R7 w - - 0 1");  // Cho mates in 2
  AlphaBetaEngine ab(4);
  TacticsVerdict v = check_tactics(ab, p, moves(p, {"a8a9"}), TacticsCheck{});
  EXPECT_EQ(move_to_uci(v.move), "a8a9");
  EXPECT_FALSE(v.vetoed);
  p.do_move(v.move);  // Han is mated in 1 whatever it does
  v = check_tactics(ab, p, moves(p, {"e10f10"}), TacticsCheck{});
  EXPECT_EQ(move_to_uci(v.move), "e10f10");
  EXPECT_FALSE(v.vetoed);
}

}  // namespace
}  // namespace jz
