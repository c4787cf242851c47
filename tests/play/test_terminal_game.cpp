// play/terminal_game: the terminal game driven through string streams, as a person types.
#include <gtest/gtest.h>

#include <sstream>

#include "play/terminal_game.h"

namespace jz {
namespace {

struct Session {
  std::string output, error;
  bool ok = false;
};

Session play(TerminalOptions o, const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  TerminalGame g(o, in, out);
  Session s;
  s.ok = g.run(&s.error);
  s.output = out.str();
  return s;
}

TerminalOptions two_people() {
  TerminalOptions o;
  o.side = "both";
  o.opponent = "easy";  // never asked to move: both sides are people
  o.ascii = true;
  return o;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TerminalGame, TwoPeoplePlayPassAndUndo) {
  Session s = play(two_people(), "b1c3\npass\nmoves\nundo\nundo\nundo\nquit\n");
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(has(s.output, "last move: b1c3")) << s.output;
  EXPECT_TRUE(has(s.output, "last move: e9e9 (한수쉼)")) << s.output;  // Han passes: its general's square twice
  EXPECT_TRUE(has(s.output, "1. b1c3")) << s.output;
  EXPECT_TRUE(has(s.output, "took back 1 move")) << s.output;
  EXPECT_TRUE(has(s.output, "error: nothing to undo")) << s.output;  // the third undo, at the start
}

TEST(TerminalGame, BadMovesAreAnsweredAndTheGameGoesOn) {
  Session s = play(two_people(), "zz\na1a9\nb1c3\nquit\n");
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(has(s.output, "error: ")) << s.output;
  EXPECT_TRUE(has(s.output, "last move: b1c3")) << s.output;
}

TEST(TerminalGame, ResignEndsTheGame) {
  Session s = play(two_people(), "resign\nresign\nquit\n");
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(has(s.output, "Game over: han wins by resignation")) << s.output;
  EXPECT_TRUE(has(s.output, "error: the game is over")) << s.output;
}

TEST(TerminalGame, TheEngineAnswersAHumanMove) {
  TerminalOptions o;
  o.side = "cho";
  o.opponent = "easy";
  o.ascii = true;
  Session s = play(o, "b1c3\nquit\n");
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(has(s.output, "engine plays ")) << s.output;
}

TEST(TerminalGame, BadOptionsStopBeforeTheGame) {
  TerminalOptions o = two_people();
  o.side = "north";
  Session s = play(o, "quit\n");
  EXPECT_FALSE(s.ok);
  EXPECT_TRUE(has(s.error, "--side must be")) << s.error;
  EXPECT_TRUE(s.output.empty()) << s.output;
  o = two_people();
  o.rules = "chess";
  EXPECT_TRUE(has(play(o, "").error, "unknown rule set 'chess'"));
  o = two_people();
  o.opponent = "grandmaster";
  EXPECT_TRUE(has(play(o, "").error, "--opponent must be"));
}

TerminalOptions xiangqi_two_people() {
  TerminalOptions o = two_people();
  o.rules = "xiangqi";
  o.ascii = false;  // its characters
  return o;
}

TEST(TerminalGame, XiangqiMovesInUciChineseAndWxf) {
  Session s = play(xiangqi_two_people(), "help\n炮二平五\nH8+7\nc4c5\n马2进3\nmoves\npass\nZ9.9\nquit\n");
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(has(s.output,
                  "you play both against alpha-beta (easy) (xiangqi, setup "
                  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1)"))
      << s.output;
  EXPECT_TRUE(has(s.output, "WXF (C2.5")) << s.output;  // the Xiangqi help
  EXPECT_TRUE(has(s.output, "楚  河")) << s.output;     // its board
  EXPECT_TRUE(has(s.output, "red> ")) << s.output;
  EXPECT_TRUE(has(s.output, "last move: h3e3 (炮二平五)\nblack to move")) << s.output;
  EXPECT_TRUE(has(s.output, "last move: h10g8 (馬8進7)")) << s.output;
  EXPECT_TRUE(has(s.output, "last move: c4c5 (兵七進一)")) << s.output;
  // The move list in Chinese.
  EXPECT_TRUE(has(s.output, "1. h3e3 炮二平五  h10g8 馬8進7\n2. c4c5 兵七進一  b10c8 馬2進3\n")) << s.output;
  EXPECT_TRUE(has(s.output, "error: xiangqi has no pass")) << s.output;
  EXPECT_TRUE(has(s.output, "error: malformed WXF move 'Z9.9'")) << s.output;
}

TEST(TerminalGame, XiangqiPlaysAlphaBetaOrItsOwnNetwork) {
  TerminalOptions o = xiangqi_two_people();
  o.side = "red";
  Session s = play(o, "h3e3\nquit\n");
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(has(s.output, "you play red against alpha-beta (easy)")) << s.output;
  EXPECT_TRUE(has(s.output, "engine plays ")) << s.output;
  EXPECT_FALSE(has(s.output, "engine error")) << s.output;
  o.opponent = "";  // the default engine: Xiangqi's own shipped network (none here: JZ_MODEL_XIANGQI=none)
  s = play(o, "quit\n");
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(has(s.output, "engine: alpha-beta (expert), the default (no network model found (models/xiangqi-latest.jzn))"))
      << s.output;
  o.opponent = "net";
  s = play(o, "quit\n");
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.error, "no xiangqi network model found (models/xiangqi-latest.jzn); use --model PATH or --opponent "
                     "easy|normal|expert");
  o.opponent = "easy";
  o.cho_setup = "outer";
  EXPECT_EQ(play(o, "").error, "setup 'outer-inner' is Janggi's: xiangqi has one start position");
  o = xiangqi_two_people();
  o.side = "north";
  EXPECT_EQ(play(o, "").error, "--side must be red (cho), black (han), both or none");
}

}  // namespace
}  // namespace jz
