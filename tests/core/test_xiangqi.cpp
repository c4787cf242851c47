// Xiangqi rules: the reference's perft counts and legal-move lists (tests/data/xiangqi, Fairy-Stockfish's
// `xiangqi`), and the endings perft does not see: stalemate, perpetual check, repetition, move rule.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rules.h"
#include "tests/support/fen.h"
#include "tests/support/tsv.h"

using namespace jz;

namespace {
Position xq(const std::string& fen) { return test::position_of(fen, Ruleset::XIANGQI); }
void play(Position& p, std::initializer_list<const char*> moves) {
  for (const char* text : moves) {
    Move m;
    std::string err;
    ASSERT_TRUE(parse_legal_uci_move(p, text, m, &err)) << err;
    p.do_move(m);
  }
}
}  // namespace

TEST(Xiangqi, ReferencePerft) {
  auto rows = test::read_tsv("xiangqi/perft.tsv");
  ASSERT_GE(rows.size(), 150u);
  std::vector<std::string> fens;
  for (auto& r : rows) {
    Position p = xq(r[0]);
    EXPECT_EQ(perft(p, std::stoi(r[1])), std::stoull(r[2])) << r[0] << " depth " << r[1];
    if (std::find(fens.begin(), fens.end(), r[0]) == fens.end()) fens.push_back(r[0]);
  }
  EXPECT_EQ(fens.size(), 53u);
}

TEST(Xiangqi, ReferenceLegalMoves) {
  auto rows = test::read_tsv("xiangqi/legal_moves.tsv");
  ASSERT_EQ(rows.size(), 53u);
  for (auto& r : rows) EXPECT_EQ(test::sorted_legal_moves(xq(r[0])), r.size() > 1 ? r[1] : "") << r[0];
}

TEST(Xiangqi, StartPositionAndNoPass) {
  Position p = xq(Position::start_fen(Ruleset::XIANGQI));
  EXPECT_EQ(p.fen(), Position::XIANGQI_START_FEN);
  EXPECT_EQ(count_legal(p), 44);
  EXPECT_FALSE(is_legal(p, Move(p.king_square(CHO), p.king_square(CHO))));
  EXPECT_EQ(game_of(p.ruleset()), GameKind::XIANGQI);
}

TEST(Xiangqi, FenChecks) {
  Position p;
  std::string err;
  // A Red elephant beyond the river; rule options (Janggi's).
  EXPECT_FALSE(p.set_fen("4k4/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", Ruleset::XIANGQI, &err));
  EXPECT_NE(err.find("river"), std::string::npos) << err;
  RuleOptions promo;
  ASSERT_TRUE(parse_rule_option("soldier-promotion", promo));
  EXPECT_FALSE(p.set_fen(Position::XIANGQI_START_FEN, Ruleset::XIANGQI, promo, &err));
  // The same elephant is fine in Janggi, where elephants cross.
  EXPECT_TRUE(p.set_fen("4k4/9/9/9/2B6/9/9/9/9/3K5 w - - 0 1", Ruleset::JANGGI, &err)) << err;
}

TEST(Xiangqi, NoLegalMoveLosesCheckmateOrStalemate) {
  // Stalemate: the black general on d10 is not in check; e10 faces Red's general, d9 is the chariot's.
  Position stale = xq("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
  EXPECT_FALSE(stale.in_check());
  EXPECT_EQ(count_legal(stale), 0);
  GameResult s = game_result(stale);
  EXPECT_EQ(s.winner, Winner::CHO);
  EXPECT_EQ(s.ending, Ending::STALEMATE);
  // The same in Janggi is no ending: a pass is there (and the general moves along palace lines).
  Position janggi;
  std::string err;
  ASSERT_TRUE(janggi.set_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", Ruleset::JANGGI, &err)) << err;
  EXPECT_FALSE(game_result(janggi).over());
  // Checkmate: a chariot checks on rank 10, the other holds rank 9, Red's general holds the e-file.
  Position mate = xq("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1");
  play(mate, {"b1b10"});
  GameResult m = game_result(mate);
  EXPECT_EQ(m.winner, Winner::CHO);
  EXPECT_EQ(m.ending, Ending::CHECKMATE);
}

TEST(Xiangqi, CapturingTheGeneralFromACheckingFen) {
  // The reference takes a FEN whose mover gives check: the capture of the general is a move, and the
  // side left without a general has none (its vectors count 0 below e6e10).
  Position p = xq("4k4/9/9/9/4R4/9/9/9/9/4K4 w - - 0 1");
  play(p, {"e6e10"});
  EXPECT_EQ(p.king_square(HAN), NO_SQUARE);
  EXPECT_EQ(count_legal(p), 0);
  EXPECT_EQ(game_result(p).winner, Winner::CHO);
  p.undo_move();
  EXPECT_EQ(p.fen(), "4k4/9/9/9/4R4/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(square_name(p.king_square(HAN)), "e10");
}

TEST(Xiangqi, PerpetualCheckLosesRepetitionDraws) {
  // Red's chariot checks on rank 10 and rank 9 in turn while the black general steps d10-d9-d10: the
  // third occurrence of the first position ends the game, and only Red checked with every move.
  Position p = xq("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1");
  play(p, {"a2a10", "d10d9", "a10a9", "d9d10", "a9a10", "d10d9", "a10a9", "d9d10"});
  EXPECT_FALSE(game_result(p).over());
  play(p, {"a9a10"});
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::PERPETUAL_CHECK);
  EXPECT_EQ(r.winner, Winner::HAN);
  // Quiet shuttles on both sides: the third occurrence draws.
  Position q = xq("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1");
  play(q, {"a2b2", "d10d9", "b2a2", "d9d10", "a2b2", "d10d9", "b2a2", "d9d10"});
  GameResult d = game_result(q);
  EXPECT_EQ(d.ending, Ending::REPETITION);
  EXPECT_EQ(d.winner, Winner::DRAW);
}

TEST(Xiangqi, MoveRuleDraws) {
  Position p = xq("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 99 60");
  EXPECT_FALSE(game_result(p).over());
  play(p, {"a2b2"});
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::MOVE_RULE);
  EXPECT_EQ(r.winner, Winner::DRAW);
}

// A perpetual check whose third repetition falls on the move rule's last ply is a move-rule draw, as
// the reference has it (found by scripts/xiangqi-reference-check.mjs); ten plies earlier it loses.
TEST(Xiangqi, MoveRuleBeforeRepetition) {
  for (int clock : {92, 82}) {
    Position p = xq("3k5/9/9/9/9/3R5/9/9/9/5K3 b - - " + std::to_string(clock) + " 50");
    play(p, {"d10e10", "d5e5", "e10d10", "e5d5", "d10e10", "d5e5", "e10d10", "e5d5"});
    GameResult r = game_result(p);
    EXPECT_EQ(r.ending, clock == 92 ? Ending::MOVE_RULE : Ending::PERPETUAL_CHECK) << clock;
    EXPECT_EQ(r.winner, clock == 92 ? Winner::DRAW : Winner::HAN) << clock;
  }
}
