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

}  // namespace
}  // namespace jz
