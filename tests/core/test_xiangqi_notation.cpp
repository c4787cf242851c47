// Xiangqi notation (core/notation_xiangqi.h): Chinese four-character and WXF, written and read. Fixed
// examples checked by hand, doubled pieces (前/中/後, + and -), and a round trip over every legal move of
// the reference positions and of random games.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/notation_xiangqi.h"
#include "tests/support/tsv.h"
#include "tests/support/fen.h"

using namespace jz;

namespace {

Position xq(const std::string& fen) { return test::position_of(fen, Ruleset::XIANGQI); }

Move uci(const Position& p, const std::string& text) {
  Move m;
  std::string err;
  EXPECT_TRUE(parse_legal_uci_move(p, text, m, &err)) << err;
  return m;
}

// The UCI move a text reads as, or "error: reason".
std::string chinese(const Position& p, const std::string& text) {
  Move m;
  std::string err;
  return parse_chinese_move(p, text, m, &err) ? move_to_uci(m) : "error: " + err;
}
std::string wxf(const Position& p, const std::string& text) {
  Move m;
  std::string err;
  return parse_wxf_move(p, text, m, &err) ? move_to_uci(m) : "error: " + err;
}
std::string any(const Position& p, const std::string& text) {
  Move m;
  std::string err;
  return parse_any_move(p, text, m, &err) ? move_to_uci(m) : "error: " + err;
}

// Writes both notations of the move and checks they read back to it.
void expect_written(const Position& p, const std::string& move, const std::string& zh, const std::string& w) {
  Move m = uci(p, move);
  EXPECT_EQ(move_to_chinese(p, m), zh) << move;
  EXPECT_EQ(move_to_wxf(p, m), w) << move;
  EXPECT_EQ(chinese(p, zh), move);
  EXPECT_EQ(wxf(p, w), move);
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// Every legal move's text reads back to it, and no two moves share a text, in both notations.
void expect_round_trip(const Position& p) {
  MoveList list;
  generate_legal(p, list);
  std::map<std::string, Move> zh, w;
  for (Move m : list) {
    std::string a = move_to_chinese(p, m), b = move_to_wxf(p, m);
    EXPECT_TRUE(zh.emplace(a, m).second) << a << " written twice in " << p.fen();
    EXPECT_TRUE(w.emplace(b, m).second) << b << " written twice in " << p.fen();
    EXPECT_EQ(chinese(p, a), move_to_uci(m)) << a << " in " << p.fen();
    EXPECT_EQ(wxf(p, b), move_to_uci(m)) << b << " in " << p.fen();
  }
}

}  // namespace

TEST(XiangqiNotation, OpeningMoves) {
  Position p = xq(Position::start_fen(Ruleset::XIANGQI));
  expect_written(p, "h3e3", "炮二平五", "C2.5");
  expect_written(p, "h1g3", "傌二進三", "H2+3");
  expect_written(p, "h3h10", "炮二進七", "C2+7");  // over the screen onto the horse
  expect_written(p, "g4g5", "兵三進一", "P3+1");
  expect_written(p, "f1e2", "仕四進五", "A4+5");
  expect_written(p, "c1e3", "相七進五", "E7+5");
  expect_written(p, "i1i2", "俥一進一", "R1+1");
  expect_written(p, "e1e2", "帥五進一", "K5+1");
  p.do_move(uci(p, "h3e3"));
  // Black counts from its own right (file a), in ASCII digits; forward is down the board.
  expect_written(p, "h10g8", "馬8進7", "H8+7");
  expect_written(p, "b8e8", "砲2平5", "C2.5");
  expect_written(p, "a10a9", "車1進1", "R1+1");
  expect_written(p, "g10e8", "象7進5", "E7+5");
  p.do_move(uci(p, "h10g8"));
  expect_written(p, "e3e7", "炮五進四", "C5+4");
  expect_written(p, "e3h3", "炮五平二", "C5.2");
}

TEST(XiangqiNotation, TwoLikePiecesOnAFile) {
  // Red chariots b6 (front) and b2 on Red's file 八.
  Position red = xq("5k3/9/9/9/1R7/9/9/9/1R7/3K5 w - - 0 1");
  expect_written(red, "b6b7", "前俥進一", "R++1");
  expect_written(red, "b6e6", "前俥平五", "R+.5");
  expect_written(red, "b2b3", "後俥進一", "R-+1");
  expect_written(red, "b2b1", "後俥退一", "R--1");
  expect_round_trip(red);
  // Black chariots h5 (front: nearer Red) and h9 on Black's file 8.
  Position black = xq("5k3/7r1/9/9/9/7r1/9/9/9/3K5 b - - 0 1");
  expect_written(black, "h5h4", "前車進1", "R++1");
  expect_written(black, "h9h10", "後車退1", "R--1");
  expect_written(black, "h9h8", "後車進1", "R-+1");
  expect_round_trip(black);
  // Advisors d1 and d3 and elephants c1 and c5 share a file but not a direction: no 前/後.
  Position advisors = xq("3k5/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1");
  expect_written(advisors, "d1e2", "仕六進五", "A6+5");
  expect_written(advisors, "d3e2", "仕六退五", "A6-5");
  Position elephants = xq("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1");
  expect_written(elephants, "c1e3", "相七進五", "E7+5");
  expect_written(elephants, "c5e3", "相七退五", "E7-5");
  expect_written(elephants, "c5a3", "相七退九", "E7-9");
  expect_round_trip(advisors);
  expect_round_trip(elephants);
}

TEST(XiangqiNotation, SoldiersThreeFourAndFiveOnAFile) {
  Position three = xq("5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1");  // e8, e7, e6 on file 五
  expect_written(three, "e8d8", "前兵平六", "P+.6");
  expect_written(three, "e7d7", "中兵平六", "P5.6");  // WXF: the middle one keeps its file
  expect_written(three, "e6f6", "後兵平四", "P-.4");
  expect_round_trip(three);
  Position four = xq("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1");  // e9..e6
  expect_written(four, "e9e10", "前兵進一", "+++1");
  expect_written(four, "e9d9", "前兵平六", "++.6");
  expect_written(four, "e8d8", "二兵平六", "P+.6");
  expect_written(four, "e7d7", "三兵平六", "P-.6");
  expect_written(four, "e6d6", "四兵平六", "--.6");
  EXPECT_EQ(chinese(four, "後兵平六"), "e6d6");  // 後 also names the last of four
  expect_round_trip(four);
  Position five = xq("5k3/9/4P4/4P4/4P4/4P4/4P4/9/9/3K5 w - - 0 1");  // e8..e4
  expect_written(five, "e8d8", "前兵平六", "++.6");
  expect_written(five, "e7d7", "二兵平六", "P+.6");
  expect_written(five, "e6d6", "三兵平六", "P5.6");
  EXPECT_EQ(chinese(five, "中兵平六"), "e6d6");
  expect_round_trip(five);
}

TEST(XiangqiNotation, SoldiersDoubledOnTwoFiles) {
  // Three on file 五 (e8, e7, e6) and two on file 七 (c7, c6): the file stands for the piece name.
  Position p = xq("5k3/9/4P4/2P1P4/2P1P4/9/9/9/9/3K5 w - - 0 1");
  expect_written(p, "e8d8", "前五平六", "5+.6");
  expect_written(p, "e7d7", "中五平六", "55.6");
  expect_written(p, "e6d6", "後五平六", "5-.6");
  expect_written(p, "c7b7", "前七平八", "7+.8");
  expect_written(p, "c6d6", "後七平六", "7-.6");
  expect_round_trip(p);
  // 前兵 fits the front soldier of both files: refused, with the way out.
  EXPECT_TRUE(starts_with(chinese(p, "前兵平六"), "error: ambiguous move '前兵平六': 2 soldiers"))
      << chinese(p, "前兵平六");
  EXPECT_TRUE(starts_with(wxf(p, "P+.6"), "error: ambiguous move")) << wxf(p, "P+.6");
  // Black: two soldiers on each of Black's files 3 and 5 (c and e from Red's side).
  Position b = xq("3k5/9/9/9/9/2p1p4/2p1p4/9/9/4K4 b - - 0 1");
  expect_written(b, "c4b4", "前3平2", "3+.2");
  expect_written(b, "e5f5", "後5平6", "5-.6");
  expect_round_trip(b);
}

TEST(XiangqiNotation, ReadsSimplifiedFullWidthAndEitherFigures) {
  Position p = xq(Position::start_fen(Ruleset::XIANGQI));
  EXPECT_EQ(chinese(p, "炮2平5"), "h3e3");          // ASCII figures for Red mean the same
  EXPECT_EQ(chinese(p, "炮２平５"), "h3e3");        // full-width
  EXPECT_EQ(chinese(p, " 炮 二　平 五 "), "h3e3");  // spaces, the ideographic one too
  EXPECT_EQ(chinese(p, "车一进一"), "i1i2");        // Simplified
  EXPECT_EQ(chinese(p, "马二进三"), "h1g3");
  EXPECT_EQ(chinese(p, "帅五进一"), "e1e2");
  EXPECT_EQ(chinese(p, "象三進五"), "g1e3");  // Black's name for the piece, Red's move
  EXPECT_EQ(chinese(p, "士4進5"), "f1e2");
  EXPECT_EQ(chinese(p, "包八平五"), "b3e3");
  EXPECT_EQ(chinese(p, "卒七進一"), "c4c5");
  p.do_move(uci(p, "h3e3"));
  EXPECT_EQ(chinese(p, "馬八進七"), "h10g8");  // Chinese numerals for Black
  EXPECT_EQ(chinese(p, "马８进７"), "h10g8");
  EXPECT_EQ(chinese(p, "炮2平5"), "b8e8");
  Position two = xq("5k3/9/9/9/1R7/9/9/9/1R7/3K5 w - - 0 1");
  EXPECT_EQ(chinese(two, "后车进一"), "b2b3");
  EXPECT_EQ(chinese(two, "俥前平五"), "b6e6");  // the AXF's older order
  EXPECT_EQ(wxf(two, "r-=4"), "b2f2");
}

TEST(XiangqiNotation, WxfLettersAndAnyNotation) {
  Position p = xq(Position::start_fen(Ruleset::XIANGQI));
  EXPECT_EQ(wxf(p, "c2.5"), "h3e3");
  EXPECT_EQ(wxf(p, "C2=5"), "h3e3");
  EXPECT_EQ(wxf(p, "N2+3"), "h1g3");
  EXPECT_EQ(wxf(p, "B3+5"), "g1e3");
  EXPECT_EQ(any(p, "h3e3"), "h3e3");
  EXPECT_EQ(any(p, "炮二平五"), "h3e3");
  EXPECT_EQ(any(p, "C2.5"), "h3e3");
  EXPECT_EQ(any(p, "c2.5"), "h3e3");                                            // a UCI file letter, but not UCI
  EXPECT_TRUE(starts_with(any(p, "79졸78"), "error: malformed Chinese move"));  // Korean stays Janggi's
  EXPECT_TRUE(starts_with(any(p, "e1e1"), "error: illegal move 'e1e1'"));       // no pass in Xiangqi
  Position janggi;                                                              // Janggi reads as before
  Move m;
  std::string err;
  ASSERT_TRUE(parse_any_move(janggi, "79졸78", m, &err)) << err;
  EXPECT_EQ(move_to_uci(m), "i4h4");
  EXPECT_FALSE(parse_any_move(janggi, "C2.5", m, &err));
  EXPECT_EQ(move_to_game_notation(janggi, m), move_to_korean(janggi, m));
}

TEST(XiangqiNotation, BadTextRejectedWithAReason) {
  Position p = xq(Position::start_fen(Ruleset::XIANGQI));
  auto expect_error = [&](const std::string& got, const std::string& part) {
    EXPECT_TRUE(starts_with(got, "error: ")) << got;
    EXPECT_NE(got.find(part), std::string::npos) << got;
    EXPECT_EQ(got.find('\n'), std::string::npos) << got;
  };
  expect_error(chinese(p, ""), "malformed Chinese move ''");
  expect_error(chinese(p, "炮二平"), "malformed");
  expect_error(chinese(p, "炮二平十"), "malformed");
  expect_error(chinese(p, "炮二平五五"), "malformed");
  expect_error(chinese(p, "王二平五"), "malformed");
  expect_error(chinese(p, std::string("炮二平五").substr(0, 11)), "malformed");  // cut inside 五
  expect_error(chinese(p, "炮二平\xb8\xa5"), "malformed");                       // stray bytes
  expect_error(chinese(p, "炮五平四"), "'炮五平四' names no red cannon");
  expect_error(chinese(p, "前炮進一"), "names no red cannon");      // the cannons stand on two files
  expect_error(chinese(p, "炮二進五"), "illegal move '炮二進五'");  // onto Black's cannon without a screen
  expect_error(chinese(p, "傌二平三"), "illegal move");             // horses do not move sideways
  expect_error(chinese(p, "仕四退五"), "illegal move");             // off the board
  expect_error(chinese(p, "相三進四"), "illegal move");             // elephants go two files across
  expect_error(wxf(p, "Z2.5"), "malformed WXF move 'Z2.5'");
  expect_error(wxf(p, "C2*5"), "malformed");
  expect_error(wxf(p, "C2.0"), "malformed");
  expect_error(wxf(p, "C2.55"), "malformed");
  expect_error(wxf(p, "C2+5"), "illegal move 'C2+5'");
  Position three = xq("5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1");
  expect_error(chinese(three, "兵五平六"), "ambiguous move '兵五平六': 3 soldiers can make it");
  EXPECT_EQ(wxf(three, "P5.6"), "e7d7");                             // WXF's plain file names the middle soldier
  expect_error(chinese(three, "四兵平六"), "names no red soldier");  // only three
}

TEST(XiangqiNotation, RoundTripOverReferencePositions) {
  auto rows = test::read_tsv("xiangqi/legal_moves.tsv");
  ASSERT_EQ(rows.size(), 53u);
  int moves = 0;
  for (auto& r : rows) {
    Position p = xq(r[0]);
    expect_round_trip(p);
    moves += count_legal(p);
  }
  EXPECT_GT(moves, 1000);
}

TEST(XiangqiNotation, RoundTripOverRandomGames) {
  std::mt19937_64 rng(20261205);
  for (int game = 0; game < 30; ++game) {
    Position p = xq(Position::start_fen(Ruleset::XIANGQI));
    for (int ply = 0; ply < 160; ++ply) {
      expect_round_trip(p);
      MoveList list;
      generate_legal(p, list);
      if (list.size == 0 || ::testing::Test::HasFailure()) break;
      p.do_move(list[int(rng() % list.size)]);
    }
  }
}
