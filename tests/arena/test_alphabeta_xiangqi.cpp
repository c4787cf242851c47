// Alpha-beta on Xiangqi: its own evaluation (symmetric, a soldier gains across the river), tactics
// verified with the rules core, the check pre-test on Xiangqi moves, and a match that the engine wins.
#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <string>

#include "alphabeta/checks.h"
#include "alphabeta/engine.h"
#include "arena/match.h"
#include "arena/record.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/rules.h"
#include "tests/support/fen.h"
#include "tests/support/test_support.h"

namespace jz {
namespace {

Position xiangqi(const std::string& fen) { return test::position_of(fen, Ruleset::XIANGQI); }

Move best_at_depth(const Position& p, int depth, AbInfo* info = nullptr) {
  AlphaBetaEngine e;
  AbLimits l;
  l.depth = depth;
  Move m = e.search(p, l);
  if (info) *info = e.last_info();
  return m;
}

// Colours swapped and the board turned: the same position for the other side.
std::string mirrored(const std::string& fen) {
  std::string board = fen.substr(0, fen.find(' ')), out, rank;
  for (char c : board + "/") {
    if (c != '/') {
      rank += char(std::isalpha((unsigned char)c) ? c ^ 32 : c);
      continue;
    }
    out = rank + (out.empty() ? "" : "/") + out;
    rank.clear();
  }
  bool red = fen[fen.find(' ') + 1] == 'w';
  return out + (red ? " b" : " w") + fen.substr(fen.find(' ') + 2);
}

TEST(AlphaBetaXiangqi, EvaluationIsSymmetric) {
  std::mt19937 rng(5);
  Position p = xiangqi(Position::XIANGQI_START_FEN);
  for (int ply = 0; ply < 200; ++ply) {
    EXPECT_EQ(AlphaBetaEngine::evaluate(p), AlphaBetaEngine::evaluate(xiangqi(mirrored(p.fen())))) << p.fen();
    MoveList ml;
    generate_legal(p, ml);
    if (game_result(p, ml.size).over()) p = xiangqi(Position::XIANGQI_START_FEN);
    else p.do_move(ml[int(rng() % ml.size)]);
  }
}

TEST(AlphaBetaXiangqi, SoldierGainsAcrossTheRiverAndAChariotUpWins) {
  // Red's e-soldier on its own side (e5), then across the river (e6); Black to move in both.
  int home = -AlphaBetaEngine::evaluate(xiangqi("rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/1C5C1/9/RNBAKABNR b - - 0 1"));
  int across = -AlphaBetaEngine::evaluate(xiangqi("rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/9/P1P3P1P/1C5C1/9/RNBAKABNR b - - 0 1"));
  EXPECT_GT(across, home + 40);
  Position up = xiangqi("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
  EXPECT_GT(AlphaBetaEngine::evaluate(up), 600);
}

TEST(AlphaBetaXiangqi, FindsMateInOne) {
  // Chariot a1-a10 mates: d9 is covered by the chariot on i9, e10 by the first chariot through d10.
  Position p = xiangqi("3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1");
  AbInfo info;
  Move m = best_at_depth(p, 3, &info);
  EXPECT_EQ(move_to_uci(m), "a1a10");
  EXPECT_EQ(info.mate, 1);
  p.do_move(m);
  EXPECT_EQ(game_result(p).ending, Ending::CHECKMATE);
}

TEST(AlphaBetaXiangqi, KnowsTheGeneralsMayNotFace) {
  // Chariot a9-a10 mates: the horse on d9 could block on b10 or c10, but leaving the d-file would let the
  // generals face each other, so it may not move at all; e10 is covered through d10.
  Position p = xiangqi("3k5/R2n5/9/9/9/9/9/9/9/3K5 w - - 0 1");
  AbInfo info;
  Move m = best_at_depth(p, 4, &info);
  EXPECT_EQ(move_to_uci(m), "a9a10");
  EXPECT_EQ(info.mate, 1);
  p.do_move(m);
  EXPECT_EQ(game_result(p).ending, Ending::CHECKMATE);
}

TEST(AlphaBetaXiangqi, CheckPreTestNeverMissesACheck) {
  std::mt19937 rng(7);
  int checks = 0;
  for (int game = 0; game < 30; ++game) {
    Position p = xiangqi(Position::XIANGQI_START_FEN);
    for (int ply = 0; ply < 150; ++ply) {
      MoveList ml;
      generate_legal(p, ml);
      if (game_result(p, ml.size).over()) break;
      for (Move m : ml) {
        if (p.piece_on(m.to())) continue;
        bool may = ab::may_give_check(p, m);
        p.do_move(m);
        bool check = p.in_check();
        p.undo_move();
        ASSERT_TRUE(may || !check) << p.fen() << " " << move_to_uci(m);
        checks += check;
      }
      p.do_move(ml[int(rng() % ml.size)]);
    }
  }
  EXPECT_GT(checks, 50);
}

TEST(AlphaBetaXiangqi, EndsTheGameWhenBlackHasNoMove) {
  // Black's general e10 has d10, f10 (the chariots' files) and e9 (the soldier's) and nothing else:
  // Red mates (e8e9, the general may not take: the generals would face) or stalemates, a win either way.
  Position p = xiangqi("4k4/9/4P4/9/9/9/9/9/9/3RKR3 w - - 0 1");
  AbInfo info;
  Move m = best_at_depth(p, 3, &info);
  EXPECT_FALSE(m.is_pass());
  p.do_move(m);
  GameResult r = game_result(p);
  EXPECT_TRUE(r.over()) << move_to_uci(m);
  EXPECT_EQ(r.winner, Winner::CHO);
}

TEST(AlphaBetaXiangqi, NoMoveOutOfCheckInsideTheTreeIsALoss) {
  // Red's only move is i5i6; soon after, Red's general has no move without being in check. Janggi's search
  // assumed a pass out of check, so such a node had no move at all: -INF, and an endless aspiration loop.
  Position p = xiangqi("3aka3/9/9/8p/2p3b2/8P/2n6/9/4r4/2c2K3 w - - 2 38");
  AbInfo info;
  Move m = best_at_depth(p, 6, &info);
  EXPECT_EQ(move_to_uci(m), "i5i6");
  EXPECT_LT(info.mate, 0);
}

TEST(AlphaBetaXiangqi, BeatsRandomInAMatch) {
  MatchConfig cfg;
  cfg.player1 = "alphabeta:depth=2";
  cfg.player2 = "random";
  cfg.rules = Ruleset::XIANGQI;
  cfg.games = 4;
  cfg.opening_plies = 2;
  cfg.seed = 3;
  cfg.max_plies = 300;
  test::TempDir tmp("ab_xiangqi_match");
  cfg.records_path = tmp.path + "/games.jsonl";
  MatchResult r;
  std::string err;
  ASSERT_TRUE(run_match(cfg, r, &err)) << err;
  ASSERT_EQ(r.games.size(), 4u);
  for (auto& g : r.games) {
    EXPECT_EQ(g.setup, "standard");
    EXPECT_EQ(g.start_fen, Position::XIANGQI_START_FEN);
    GameResult fin;
    ASSERT_TRUE(replay_record(g, fin, &err)) << err;
    EXPECT_EQ(fin.winner, g.result.winner);
  }
  EXPECT_EQ(r.wdl.w, 4) << r.summary();
}

}  // namespace
}  // namespace jz
