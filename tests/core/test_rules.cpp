// Game endings reached through move history, under each rule set.
#include <gtest/gtest.h>

#include <random>

#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/random_play.h"
#include "core/rules.h"

using namespace jz;

namespace {

Position play(const std::string& fen, Ruleset r, const std::string& moves) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, r, &err)) << err;
  std::istringstream in(moves);
  std::string tok;
  while (in >> tok) {
    EXPECT_FALSE(game_result(p).over()) << "game already over before " << tok;
    Move m;
    EXPECT_TRUE(parse_legal_uci_move(p, tok, m, &err)) << err;
    p.do_move(m);
  }
  return p;
}

const std::string START = Position::START_FEN;

}  // namespace

TEST(Rules, CheckmateFromReferencePosition) {
  Position p =
      play("rn3a1b1/1b1a1r3/1c1ckn3/4R4/3p2p1p/3P4P/1P3P3/1C5C1/4K4/1BNA1ABNR b - - 1 15", Ruleset::JANGGI, "");
  GameResult r = game_result(p);
  EXPECT_EQ(r.winner, Winner::CHO);
  EXPECT_EQ(r.ending, Ending::CHECKMATE);
  EXPECT_FALSE(r.by_counting);
}

TEST(Rules, PassIsIllegalInCheckButLegalInBikjang) {
  Position p = play("3k5/9/9/9/9/4r4/9/9/9/4K4 w - - 0 1", Ruleset::JANGGI, "");
  EXPECT_FALSE(is_legal(p, Move(p.king_square(CHO), p.king_square(CHO))));
  p = play("4k4/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1", Ruleset::JANGGI, "");
  EXPECT_TRUE(p.in_check());
  EXPECT_TRUE(p.in_bikjang());
  EXPECT_TRUE(is_legal(p, Move(p.king_square(CHO), p.king_square(CHO))));
}

TEST(Rules, DoublePassEndsByCountingOrDraw) {
  Position p = play(START, Ruleset::JANGGI, "e2e2 e9e9");
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::DOUBLE_PASS);
  EXPECT_TRUE(r.by_counting);
  EXPECT_EQ(r.winner, Winner::HAN);  // 72 vs 72 + 1.5
  p = play(START, Ruleset::TRADITIONAL, "e2e2 e9e9");
  EXPECT_EQ(game_result(p).winner, Winner::DRAW);
  p = play(START, Ruleset::CASUAL, "e2e2 e9e9");
  EXPECT_EQ(game_result(p).winner, Winner::DRAW);
  // A single pass does not end the game; pass, move, pass does not either.
  p = play(START, Ruleset::JANGGI, "e2e2 b10c8 e2e2");
  EXPECT_FALSE(game_result(p).over());
}

TEST(Rules, BikjangAnsweredByPass) {
  // Cho's horse leaves the file between the generals: Han is in bikjang, and passing ends the game.
  const std::string fen = "4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1";
  Position p = play(fen, Ruleset::JANGGI, "e6c7");
  EXPECT_TRUE(p.in_bikjang());
  EXPECT_FALSE(game_result(p).over());
  // Every non-pass move must break the facing.
  MoveList list;
  generate_legal(p, list);
  for (Move m : list) {
    if (m.is_pass()) continue;
    p.do_move(m);
    EXPECT_FALSE(p.generals_facing()) << move_to_uci(m);
    p.undo_move();
  }
  p = play(fen, Ruleset::JANGGI, "e6c7 e10e10");
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::BIKJANG);
  EXPECT_EQ(r.winner, Winner::CHO);  // 5 vs 1.5
  p = play(fen, Ruleset::TRADITIONAL, "e6c7 e10e10");
  EXPECT_EQ(game_result(p).ending, Ending::BIKJANG);
  EXPECT_EQ(game_result(p).winner, Winner::DRAW);
  // Without bikjang rules, facing generals mean nothing and one pass does not end the game.
  p = play(fen, Ruleset::MODERN, "e6c7 e10e10");
  EXPECT_FALSE(game_result(p).over());
  p = play(fen, Ruleset::CASUAL, "e6c7 e10e10 e1e1");
  EXPECT_EQ(game_result(p).ending, Ending::DOUBLE_PASS);
}

TEST(Rules, RepetitionWithoutPerpetualCheck) {
  const std::string cycle = "b1c3 b10c8 c3b1 c8b10 ";
  Position p = play(START, Ruleset::JANGGI, cycle);
  EXPECT_FALSE(game_result(p).over());  // second occurrence
  p = play(START, Ruleset::JANGGI, cycle + cycle);
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::REPETITION);
  EXPECT_EQ(r.winner, Winner::HAN);
  EXPECT_TRUE(r.by_counting);
  p = play(START, Ruleset::CASUAL, cycle + cycle);
  EXPECT_EQ(game_result(p).winner, Winner::DRAW);
  // janggimodern needs the fourth occurrence (alternate horses so no back-and-forth loss comes first).
  const std::string other = "h1g3 h10g8 g3h1 g8h10 ";
  p = play(START, Ruleset::MODERN, cycle + other);
  EXPECT_FALSE(game_result(p).over());
  p = play(START, Ruleset::MODERN, cycle + other + cycle);
  EXPECT_EQ(game_result(p).ending, Ending::REPETITION);
  // With one horse only, the back-and-forth rule ends it first.
  p = play(START, Ruleset::MODERN, cycle + cycle + "b1c3");
  EXPECT_EQ(game_result(p).ending, Ending::BACK_AND_FORTH);
}

TEST(Rules, PerpetualCheckLoses) {
  // Cho's chariot checks Han's general on every move while it steps d10-e10-d10.
  const std::string fen = "3k5/9/9/9/3R5/9/9/9/9/5K3 b - - 0 1";
  const std::string cycle = "d10e10 d6e6 e10d10 e6d6 ";
  Position p = play(fen, Ruleset::JANGGI, cycle + cycle);
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::PERPETUAL_CHECK);
  EXPECT_EQ(r.winner, Winner::HAN);
  EXPECT_FALSE(r.by_counting);
  p = play(fen, Ruleset::CASUAL, cycle + cycle);
  EXPECT_EQ(game_result(p).ending, Ending::PERPETUAL_CHECK);
}

TEST(Rules, MoveRuleAndCountingMargins) {
  // 99 plies without capture, then one more.
  Position p = play("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 99 80", Ruleset::JANGGI, "");
  EXPECT_FALSE(game_result(p).over());
  p = play("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 99 80", Ruleset::JANGGI, "d1d2");
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::MOVE_RULE);
  EXPECT_EQ(r.winner, Winner::CHO);  // margin +2 beats Han's 1.5
  // Soldier moves and passes do not reset the counter.
  p = play("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 99 80", Ruleset::JANGGI, "e2e3");
  EXPECT_EQ(game_result(p).ending, Ending::MOVE_RULE);
  // janggimodern allows 200 plies.
  p = play("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 99 80", Ruleset::MODERN, "d1d2");
  EXPECT_FALSE(game_result(p).over());
  // Counting at margin 0, +1 and +2 (ended by two passes).
  p = play("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", Ruleset::JANGGI, "d1d1 e10e10");
  EXPECT_EQ(material_margin(p), 0);
  EXPECT_EQ(game_result(p).winner, Winner::HAN);
  p = play("4k4/9/9/9/p8/9/9/9/4A4/3K5 w - - 0 1", Ruleset::JANGGI, "d1d1 e10e10");
  EXPECT_EQ(material_margin(p), 1);
  EXPECT_EQ(game_result(p).winner, Winner::HAN);
  p = play("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1", Ruleset::JANGGI, "d1d1 e10e10");
  EXPECT_EQ(material_margin(p), 2);
  EXPECT_EQ(game_result(p).winner, Winner::CHO);
}

TEST(Rules, BackAndForthLossInModernOnly) {
  const std::string moves = "a1a2 b10c8 a2a1 c8b10 a1a2 b10c8 a2a1 c8b10 a1a2";
  Position p = play(START, Ruleset::MODERN, moves);
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::BACK_AND_FORTH);
  EXPECT_EQ(r.winner, Winner::HAN);
  // One move fewer is still fine; the other rule sets do not have the rule.
  p = play(START, Ruleset::MODERN, "a1a2 b10c8 a2a1 c8b10 a1a2 b10c8 a2a1 c8b10");
  EXPECT_FALSE(game_result(p).over());
  p = play(START, Ruleset::JANGGI, "a1a2 b10c8 a2a1 c8b10 a1a2 b10c8 a2a1 i10i9");
  EXPECT_FALSE(game_result(p).over());
  // A capture in between resets it.
  p = play("4k4/9/9/9/9/9/9/p8/9/R2K5 w - - 0 1", Ruleset::MODERN, "a1a2 e10e9 a2a1 e9e10 a1a3");
  EXPECT_FALSE(game_result(p).over());
}

// Random plies (core/random_play.h): legal, no pass unless allowed, the same for the same seed, and a
// walk stops at a finished game.
TEST(RandomPlay, LegalNoPassSeededAndStopsAtTheEnd) {
  Position start;
  std::string err;
  ASSERT_TRUE(start.set_fen(Position::START_FEN, Ruleset::JANGGI, &err)) << err;
  std::mt19937_64 a(11), b(11);
  Position pa = start, pb = start;
  std::vector<Move> ma, mb;
  EXPECT_EQ(random_walk(pa, 30, a, false, &ma), 30);
  random_walk(pb, 30, b, false, &mb);
  EXPECT_EQ(ma, mb);
  for (Move m : ma) EXPECT_FALSE(m.is_pass());
  // From the start the pass is one of the legal moves: drawn with pass_ok, never without.
  int passes = 0, none = 0;
  for (int i = 0; i < 300; ++i) {
    passes += random_legal_move(start, a, true).is_pass();
    none += random_legal_move(start, a, false).is_pass();
  }
  EXPECT_GT(passes, 0);
  EXPECT_EQ(none, 0);
  // A mated side: the walk plays nothing.
  Position mated;
  ASSERT_TRUE(mated.set_fen("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", Ruleset::JANGGI, &err)) << err;
  EXPECT_EQ(random_walk(mated, 5, a, true), 0);
}
