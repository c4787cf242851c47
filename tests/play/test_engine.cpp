// PlayEngine: legal moves under every kind of limit, stop from another thread, the network path with a
// network-free evaluator, reports.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/rules.h"
#include "play/engine.h"
#ifdef JZ_TEST_MCTS
#include "mcts/stub_evaluator.h"
#endif

namespace jz {
namespace {

Position at(const std::string& fen, Ruleset r = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, r, &err)) << err;
  return p;
}

TEST(PlayEngine, AlphaBetaDepthGivesLegalMoveAndReport) {
  PlayEngine e;
  Position p = at(Position::START_FEN);
  SearchLimits l;
  l.depth = 3;
  int reports = 0;
  ThinkInfo fin;
  Move m = e.think(
      p, l, [&](const ThinkInfo&) { ++reports; }, nullptr, &fin);
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_GE(reports, 1);
  EXPECT_FALSE(fin.network);
  EXPECT_EQ(fin.depth, 3);
  ASSERT_FALSE(fin.pv.empty());
  EXPECT_EQ(fin.pv[0], m);
  EXPECT_GT(fin.nodes, 0u);
  EXPECT_EQ(fin.wdl[0] + fin.wdl[1] + fin.wdl[2], 1000);
}

TEST(PlayEngine, LevelsAndBadLevel) {
  PlayEngine e;
  std::string err;
  EXPECT_FALSE(e.set_level("grandmaster", &err));
  EXPECT_FALSE(err.empty());
  ASSERT_TRUE(e.set_level("easy", &err));
  Position p = at(Position::START_FEN);
  Move m = e.think(p, SearchLimits());
  EXPECT_TRUE(is_legal(p, m));
}

TEST(PlayEngine, InfiniteStopsOnRequest) {
  PlayEngine e;
  Position p = at(Position::START_FEN);
  SearchLimits l;
  l.infinite = true;
  std::atomic<bool> stop{false};
  auto t0 = std::chrono::steady_clock::now();
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  Move m = e.think(p, l, {}, &stop);
  stopper.join();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_LT(s, 10.0);  // generous: the machine may be loaded
}

TEST(PlayEngine, MaxTimeBoundsTheSearch) {
  PlayEngine e;
  Position p = at(Position::START_FEN);
  SearchLimits l;
  l.infinite = true;
  l.max_ms = 200;
  auto t0 = std::chrono::steady_clock::now();
  Move m = e.think(p, l);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_LT(s, 10.0);
}

TEST(PlayEngine, NoLegalMoveGivesNone) {
  // Han's general on d10 is mated by the chariots on a10 and a9 (the pass is illegal in check).
  Position p = at("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
  MoveList list;
  generate_legal(p, list);
  ASSERT_EQ(list.size, 0);
  EXPECT_EQ(game_result(p).ending, Ending::CHECKMATE);
  PlayEngine e;
  SearchLimits l;
  l.depth = 2;
  EXPECT_TRUE(e.think(p, l).is_none());
}

TEST(PlayEngine, WdlAndCpMappings) {
  int w[3];
  cp_to_wdl(0, w);
  EXPECT_EQ(w[0], w[2]);
  EXPECT_EQ(w[0] + w[1] + w[2], 1000);
  cp_to_wdl(800, w);
  EXPECT_GT(w[0], 800);
  EXPECT_EQ(q_to_cp(0), 0);
  EXPECT_GT(q_to_cp(0.5f), 50);
  EXPECT_LT(q_to_cp(-0.5f), -50);
}

#ifdef JZ_TEST_MCTS
TEST(PlayEngine, NetworkPathWithMaterialEvaluator) {
  PlayEngine e;
  std::string err;
  ASSERT_TRUE(e.set_network(std::make_shared<MaterialEvaluator>(1.0f), &err)) << err;
  ASSERT_TRUE(e.using_network());
  e.set_simulations(200);
  e.set_threads(2);
  Position p = at(Position::START_FEN);
  ThinkInfo fin;
  Move m = e.think(p, SearchLimits(), {}, nullptr, &fin);
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_TRUE(fin.network);
  EXPECT_GE(fin.nodes, 150u);
  EXPECT_EQ(fin.wdl[0] + fin.wdl[1] + fin.wdl[2], 1000);
  // The tree is reused when the game continues from its root.
  p.do_move(m);
  MoveList list;
  generate_legal(p, list);
  p.do_move(list[0]);
  Move m2 = e.think(p, SearchLimits(), {}, nullptr, &fin);
  EXPECT_TRUE(is_legal(p, m2));
  // Time and stop work on the network path too.
  SearchLimits l;
  l.movetime_ms = 150;
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(is_legal(p, e.think(p, l)));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
  // Turned off: alpha-beta again.
  e.set_use_network(false);
  SearchLimits d;
  d.depth = 2;
  e.think(p, d, {}, nullptr, &fin);
  EXPECT_FALSE(fin.network);
}

// TacticsCheck: a capture that a small network search likes but that loses the chariot to the horse's
// recapture gives way to a move that keeps it.
TEST(PlayEngine, TheTacticsCheckReplacesAMoveThatLosesMaterial) {
  PlayEngine e;
  std::string err;
  ASSERT_TRUE(e.set_network(std::make_shared<MaterialEvaluator>(20.0f), &err)) << err;
  SearchLimits l;
  l.nodes = 64;
  Position p = at("3a5/1n2k4/9/c8/9/9/4P4/9/4K4/R3A4 w - - 0 1");  // a1a7 takes a cannon the horse b9 guards
  EXPECT_EQ(e.tactics_depth(), PLAY_TACTICS_DEPTH);  // on unless turned off
  e.set_tactics_depth(0);
  ASSERT_EQ(move_to_uci(e.think(p, l)), "a1a7");  // the trap works on this search
  e.set_tactics_depth(PLAY_TACTICS_DEPTH);
  e.new_game();
  ThinkInfo fin;
  Move m = e.think(p, l, {}, nullptr, &fin);
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_NE(move_to_uci(m), "a1a7");
  EXPECT_EQ(fin.pv[0], m);
  p.do_move(m);
  MoveList replies;
  generate_legal(p, replies);
  for (Move r : replies) EXPECT_NE(p.piece_on(r.to()), make_piece(CHO, CHARIOT)) << move_to_uci(r);
}

// Play on a mate the guard or the solver proved says so: "score mate N" in moves (negative when mated) with
// the line that ends in mate, not a centipawn score and one move.
TEST(PlayEngine, NetworkReportsAProvenMateWithItsLine) {
  PlayEngine e;
  std::string err;
  ASSERT_TRUE(e.set_network(std::make_shared<MaterialEvaluator>(1.0f), &err)) << err;
  SearchLimits l;
  l.nodes = 300;
  auto ends_in_mate = [](Position p, const std::vector<Move>& pv, Color winner) {
    for (Move m : pv) {
      if (!is_legal(p, m)) return false;
      p.do_move(m);
    }
    GameResult r = game_result(p);
    return r.ending == Ending::CHECKMATE && r.winner == winner_of(winner);
  };
  Position p = at("4k4/9/R8/9/9/9/9/9/3K5/1R7 w - - 0 1");  // mate in 2
  ThinkInfo fin;
  Move m = e.think(p, l, {}, nullptr, &fin);
  EXPECT_EQ(fin.mate, 2);
  ASSERT_EQ(fin.pv.size(), 3u);
  EXPECT_EQ(fin.pv[0], m);
  EXPECT_TRUE(ends_in_mate(p, fin.pv, CHO)) << move_to_uci(fin.pv[0]);
  p.do_move(m);  // Han is mated in 1 whatever it does
  e.new_game();
  e.think(p, l, {}, nullptr, &fin);
  EXPECT_EQ(fin.mate, -1);
  ASSERT_EQ(fin.pv.size(), 2u);
  EXPECT_TRUE(ends_in_mate(p, fin.pv, CHO));
  // A position without a proof keeps its centipawn score.
  e.think(at(Position::START_FEN), l, {}, nullptr, &fin);
  EXPECT_EQ(fin.mate, 0);
}
#endif

}  // namespace
}  // namespace jz
