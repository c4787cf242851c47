// Alpha-beta engine: tactics verified with the rules core, game endings (pass, counting, bikjang),
// limits, determinism and the people levels.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "alphabeta/checks.h"
#include "alphabeta/engine.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/rules.h"

namespace jz {
namespace {

Position from_fen(const std::string& fen, Ruleset rules = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, rules, &err)) << err;
  return p;
}

Move pass_move(const Position& p) { return Move(p.king_square(p.side_to_move()), p.king_square(p.side_to_move())); }

// The side to move has a move that checkmates at once.
bool has_mate_in_one(Position& p, Move* out = nullptr) {
  MoveList ml;
  generate_legal(p, ml);
  for (Move m : ml) {
    p.do_move(m);
    bool mate = game_result(p).ending == Ending::CHECKMATE;
    p.undo_move();
    if (mate) {
      if (out) *out = m;
      return true;
    }
  }
  return false;
}

// After our move m, every reply allows a mate in one.
bool forces_mate_in_two(Position& p, Move m) {
  p.do_move(m);
  bool ok = !game_result(p).over();
  MoveList replies;
  generate_legal(p, replies);
  for (int i = 0; ok && i < replies.size; ++i) {
    p.do_move(replies[i]);
    ok = !game_result(p).over() && has_mate_in_one(p);
    p.undo_move();
  }
  p.undo_move();
  return ok;
}

AbLimits depth_limit(int d) {
  AbLimits l;
  l.depth = d;
  return l;
}

TEST(AlphaBeta, FindsMateInOne) {
  Position p = from_fen("4ka3/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1");
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(4));
  ASSERT_TRUE(is_legal(p, m));
  p.do_move(m);
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::CHECKMATE) << move_to_uci(m);
  EXPECT_EQ(r.winner, Winner::CHO);
  EXPECT_EQ(e.last_info().mate, 1);
  EXPECT_EQ(e.last_info().score_cp, AlphaBetaEngine::MATE - 1);
}

TEST(AlphaBeta, FindsMateInTwo) {
  Position p = from_fen("4ka3/9/9/9/9/9/9/9/R8/3K1R3 w - - 0 1");
  ASSERT_FALSE(has_mate_in_one(p));
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(5));
  ASSERT_TRUE(is_legal(p, m));
  EXPECT_TRUE(forces_mate_in_two(p, m)) << move_to_uci(m);
  EXPECT_EQ(e.last_info().mate, 2);
}

TEST(AlphaBeta, HanFindsMateToo) {
  // The mate-in-one position rotated: Han to move.
  Position p = from_fen("5k1r1/9/9/9/9/9/9/9/8r/3AK4 b - - 0 1");
  Move want;
  ASSERT_TRUE(has_mate_in_one(p, &want));
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(3));
  p.do_move(m);
  EXPECT_EQ(game_result(p).winner, Winner::HAN) << move_to_uci(m);
}

TEST(AlphaBeta, CapturesHangingChariot) {
  Position p = from_fen("4k4/4a4/9/p3p4/9/r8/4P3P/9/4A4/R2K5 w - - 0 1");
  Square han_chariot = make_square(0, 4);
  ASSERT_EQ(p.piece_on(han_chariot), make_piece(HAN, CHARIOT));
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(4));
  EXPECT_EQ(m.to(), han_chariot) << move_to_uci(m);
}

TEST(AlphaBeta, AvoidsMoveThatAllowsMateInOne) {
  // The horse can win a cannon (c1xd3), but then ...Ra1 mates along the first rank.
  Position p = from_fen("5k3/r8/9/9/9/9/9/3c4R/3p4r/2N1KA3 w - - 0 1");
  Move bait = Move(make_square(2, 0), make_square(3, 2));
  ASSERT_TRUE(is_legal(p, bait));
  p.do_move(bait);
  ASSERT_TRUE(has_mate_in_one(p));
  p.undo_move();
  AlphaBetaEngine e(4);
  for (int d = 2; d <= 5; ++d) {
    Move m = e.search(p, depth_limit(d));
    ASSERT_TRUE(is_legal(p, m));
    p.do_move(m);
    EXPECT_FALSE(has_mate_in_one(p)) << "depth " << d << " played " << move_to_uci(m);
    p.undo_move();
  }
}

// Every combination of the search additions (singular extensions included, which need depth 6+)
// keeps the tactics and the legality of what it plays.
TEST(AlphaBeta, SearchFeaturesKeepTheTactics) {
  for (int features : {0, int(AB_HISTORY | AB_IMPROVING | AB_RAZOR), int(AB_ALL_FEATURES)}) {
    SCOPED_TRACE("features " + std::to_string(features));
    AbLimits l = depth_limit(8);
    l.features = features;
    AlphaBetaEngine e(8);
    Position mate2 = from_fen("4ka3/9/9/9/9/9/9/9/R8/3K1R3 w - - 0 1");
    Move m = e.search(mate2, l);
    EXPECT_TRUE(forces_mate_in_two(mate2, m)) << move_to_uci(m);
    EXPECT_EQ(e.last_info().mate, 2);
    Position bait = from_fen("5k3/r8/9/9/9/9/9/3c4R/3p4r/2N1KA3 w - - 0 1");
    m = e.search(bait, l);
    ASSERT_TRUE(is_legal(bait, m));
    bait.do_move(m);
    EXPECT_FALSE(has_mate_in_one(bait)) << move_to_uci(m);
    Position start;
    std::string err;
    ASSERT_TRUE(start.set_fen(Position::START_FEN, Ruleset::JANGGI, &err));
    l.nodes = 60000;
    EXPECT_TRUE(is_legal(start, e.search(start, l)));
    EXPECT_GE(e.last_info().depth, 6);
  }
}

TEST(AlphaBeta, PassWhenItIsTheOnlyLegalMove) {
  Position p = from_fen("5k3/9/9/9/9/4r4/9/9/r8/3K5 w - - 0 1");
  MoveList ml;
  generate_legal(p, ml);
  ASSERT_EQ(ml.size, 1);
  ASSERT_TRUE(ml[0].is_pass());
  AlphaBetaEngine e(4);
  EXPECT_EQ(e.search(p, depth_limit(4)), pass_move(p));
  AbLimits timed;
  timed.movetime_ms = 50;
  EXPECT_EQ(e.search(p, timed), pass_move(p));
}

TEST(AlphaBeta, EndsGameByCountingWhenAheadAfterOpponentPassed) {
  // Cho: chariot; Han: guard. Han passes: Cho's pass ends the game and Cho wins on counting.
  Position p = from_fen("4ka3/9/9/9/9/R8/9/9/9/3K5 b - - 0 1");
  p.do_move(pass_move(p));
  ASSERT_FALSE(has_mate_in_one(p));
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(4));
  EXPECT_TRUE(m.is_pass()) << move_to_uci(m);
  EXPECT_EQ(e.last_info().score_cp, AlphaBetaEngine::WIN - 1);
  EXPECT_EQ(e.last_info().mate, 0);
  p.do_move(m);
  EXPECT_EQ(game_result(p).winner, Winner::CHO);
}

TEST(AlphaBeta, AvoidsCountingEndingWhenBehind) {
  // Cho: soldier; Han: chariot. After Han's pass, Cho's pass would lose on counting.
  Position p = from_fen("5k3/9/9/9/r8/9/4P4/9/9/3K5 b - - 0 1");
  p.do_move(pass_move(p));
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(4));
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_FALSE(m.is_pass());
}

TEST(AlphaBeta, TakesTheDrawByPassingWhenBehindWithoutCounting) {
  // Same material under janggitraditional: the double pass is a draw, better than a lost ending.
  Position p = from_fen("5k3/9/9/9/r8/9/4P4/9/9/3K5 b - - 0 1", Ruleset::TRADITIONAL);
  p.do_move(pass_move(p));
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(4));
  EXPECT_TRUE(m.is_pass()) << move_to_uci(m);
  EXPECT_EQ(e.last_info().score_cp, 0);
}

TEST(AlphaBeta, OpponentPassIsAnOptionNotAThreat) {
  // After Han's pass Cho could end the game, but on equal material Cho loses the count: Cho simply
  // does not pass, so Han's pass must not look good to Han.
  Position plain = from_fen(Position::START_FEN);
  Position passed = from_fen("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1");
  passed.do_move(pass_move(passed));
  EXPECT_GE(AlphaBetaEngine::evaluate(passed), AlphaBetaEngine::evaluate(plain));
  Position han = from_fen("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1");
  AlphaBetaEngine e(4);
  for (int d = 1; d <= 4; ++d) EXPECT_FALSE(e.search(han, depth_limit(d)).is_pass()) << "depth " << d;
}

TEST(AlphaBeta, BikjangPassDecidedByCounting) {
  // Generals face each other on the e-file with Cho to move: a pass ends the game (bikjang).
  Position ahead = from_fen("4k4/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
  ASSERT_TRUE(ahead.in_bikjang());
  Position behind = from_fen("4k4/9/9/9/9/9/9/9/r8/4K4 w - - 0 1");
  ASSERT_TRUE(behind.in_bikjang());
  AlphaBetaEngine e(4);
  Move m = e.search(ahead, depth_limit(4));
  ASSERT_TRUE(is_legal(ahead, m));
  ahead.do_move(m);
  GameResult r = game_result(ahead);
  // Either the pass (counting win) or something at least as good (a mate).
  EXPECT_TRUE(r.winner == Winner::CHO || e.last_info().score_cp >= AlphaBetaEngine::WIN - 10) << move_to_uci(m);
  Move n = e.search(behind, depth_limit(4));
  EXPECT_FALSE(n.is_pass());
  EXPECT_TRUE(is_legal(behind, n));
}

TEST(AlphaBeta, AvoidsLosingByPerpetualCheck) {
  // Cho's chariot has checked on every move of a cycle that already happened twice: checking again
  // repeats the position a third time and loses by perpetual check, although Cho is a chariot up.
  Position p = from_fen("R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
  for (const char* uci : {"e10e9", "a10a9", "e9e10", "a9a10", "e10e9", "a10a9", "e9e10"}) {
    Move m;
    ASSERT_TRUE(parse_legal_uci_move(p, uci, m, nullptr)) << uci;
    p.do_move(m);
  }
  Move repeat = Move(make_square(0, 8), make_square(0, 9));
  p.do_move(repeat);
  ASSERT_EQ(game_result(p).ending, Ending::PERPETUAL_CHECK);
  ASSERT_EQ(game_result(p).winner, Winner::HAN);
  p.undo_move();
  AlphaBetaEngine e(4);
  Move m = e.search(p, depth_limit(4));
  EXPECT_NE(m, repeat);
  EXPECT_GT(e.last_info().score_cp, 500);
}

TEST(AlphaBeta, NeverReturnsAnIllegalMove) {
  std::mt19937 rng(20261129);
  AlphaBetaEngine e(8);
  int searched = 0;
  for (int game = 0; game < 30; ++game) {
    Position p;
    std::string err;
    Ruleset rules = Ruleset(game % JANGGI_RULESET_NB);
    ASSERT_TRUE(p.set_fen(Position::START_FEN, rules, &err));
    int plies = int(rng() % 120);
    for (int i = 0; i < plies; ++i) {
      MoveList ml;
      generate_legal(p, ml);
      if (game_result(p, ml.size).over()) break;
      p.do_move(ml[int(rng() % ml.size)]);
      if (i % 17 != 5) continue;
      if (game_result(p).over() || count_legal(p) == 0) break;
      AbLimits l;
      l.nodes = 500 + rng() % 3000;
      l.depth = 1 + int(rng() % 6);
      Move m = e.search(p, l);
      ASSERT_TRUE(is_legal(p, m)) << p.fen() << " " << move_to_uci(m);
      ++searched;
    }
  }
  EXPECT_GT(searched, 40);
}

TEST(AlphaBeta, CheckPreTestNeverMissesACheck) {
  std::mt19937 rng(99);
  int checks = 0, rejected = 0;
  for (int game = 0; game < 40; ++game) {
    Position p;
    for (int ply = 0; ply < 150; ++ply) {
      MoveList ml;
      generate_legal(p, ml);
      if (game_result(p, ml.size).over()) break;
      for (Move m : ml) {
        if (m.is_pass() || p.piece_on(m.to())) continue;
        bool may = ab::may_give_check(p, m);
        p.do_move(m);
        bool check = p.in_check();
        p.undo_move();
        ASSERT_TRUE(may || !check) << p.fen() << " " << move_to_uci(m);
        checks += check;
        rejected += !may;
      }
      p.do_move(ml[int(rng() % ml.size)]);
    }
  }
  EXPECT_GT(checks, 100);
  EXPECT_GT(rejected, 1000);
}

TEST(AlphaBeta, RespectsDepthLimit) {
  Position p;
  AlphaBetaEngine e(8);
  std::vector<int> depths;
  Move m = e.search(p, depth_limit(4), [&](const AbInfo& i) { depths.push_back(i.depth); });
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_EQ(depths, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(e.last_info().depth, 4);
  EXPECT_FALSE(e.last_info().pv.empty());
  EXPECT_EQ(e.last_info().pv[0], m);
}

TEST(AlphaBeta, RespectsNodeLimit) {
  Position p;
  AlphaBetaEngine e(8);
  for (uint64_t limit : {1ull, 100ull, 5000ull, 40000ull}) {
    AbLimits l;
    l.nodes = limit;
    Move m = e.search(p, l);
    EXPECT_TRUE(is_legal(p, m));
    EXPECT_LE(e.last_info().nodes, limit);
  }
}

TEST(AlphaBeta, DeterministicAtFixedDepth) {
  Position p;
  std::string err;
  ASSERT_TRUE(
      p.set_fen("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", Ruleset::JANGGI, &err));
  p.do_move(Move(make_square(0, 3), make_square(1, 3)));  // a4b4
  AlphaBetaEngine a(8), b(8);
  Move ma = a.search(p, depth_limit(6));
  Move mb = b.search(p, depth_limit(6));
  EXPECT_EQ(ma, mb);
  EXPECT_EQ(a.last_info().score_cp, b.last_info().score_cp);
  EXPECT_EQ(a.last_info().nodes, b.last_info().nodes);
  EXPECT_EQ(a.last_info().pv, b.last_info().pv);
  a.new_game();
  EXPECT_EQ(a.search(p, depth_limit(6)), ma);
  EXPECT_EQ(a.last_info().nodes, b.last_info().nodes);
}

// One engine that plays several rule sets (UCI_Variant, a rule option) must not carry what it learnt
// under one into another: after a switch it searches exactly as a fresh engine does.
TEST(AlphaBeta, SwitchedRulesSearchAsAFreshEngine) {
  std::mt19937_64 rng(7);
  struct Switch {
    Ruleset rules;
    RuleOptions options;
  };
  RuleOptions same_piece;
  ASSERT_TRUE(parse_rule_option("same-piece-check", same_piece));
  const Switch to[] = {{Ruleset::CASUAL, {}}, {Ruleset::JANGGI, same_piece}};
  for (int game = 0; game < 4; ++game) {
    Position p;
    for (int ply = 0; ply < 24 && !game_result(p).over(); ++ply) {
      MoveList ml;
      generate_legal(p, ml);
      p.do_move(ml[int(rng() % ml.size)]);
    }
    if (game_result(p).over()) continue;
    std::string fen = p.fen(), err;
    for (const Switch& sw : to) {
      Position before, after;
      ASSERT_TRUE(before.set_fen(fen, Ruleset::JANGGI, &err)) << err;
      ASSERT_TRUE(after.set_fen(fen, sw.rules, sw.options, &err)) << err;
      AlphaBetaEngine switched(8), fresh(8);
      switched.search(before, depth_limit(5));
      Move ms = switched.search(after, depth_limit(5));
      Move mf = fresh.search(after, depth_limit(5));
      EXPECT_EQ(ms, mf) << fen;
      EXPECT_EQ(switched.last_info().score_cp, fresh.last_info().score_cp) << fen;
      EXPECT_EQ(switched.last_info().nodes, fresh.last_info().nodes) << fen;
    }
  }
}

TEST(AlphaBeta, StopFlagFromAnotherThread) {
  Position p;
  AlphaBetaEngine e(8);
  std::atomic<bool> stop{false};
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  Move m = e.search(p, AbLimits{}, {}, &stop);
  t.join();
  EXPECT_TRUE(is_legal(p, m));
  EXPECT_GE(e.last_info().depth, 1);
}

TEST(AlphaBeta, ClockLimitsReturnInTime) {
  Position p;
  AlphaBetaEngine e(8);
  AbLimits l;
  l.time_ms[CHO] = 300;  // a nearly flagged clock must still give a move, well before it runs out
  auto t0 = std::chrono::steady_clock::now();
  Move m = e.search(p, l);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(is_legal(p, m));
  // The engine's own clock says it stopped in time; the wall-clock bound is generous (ASan, a loaded
  // machine) but catches a search that ignores the clock.
  EXPECT_LT(e.last_info().time_ms, 300);
  EXPECT_LT(ms, 3000.0);
}

TEST(AlphaBeta, Levels) {
  AbLimits l = AlphaBetaEngine::level("easy");
  EXPECT_GT(l.blunder_pct, 0);
  EXPECT_GT(l.depth, 0);
  l = AlphaBetaEngine::level("normal");
  EXPECT_EQ(l.blunder_pct, 0);
  l = AlphaBetaEngine::level("expert,movetime=500,seed=9");
  EXPECT_EQ(l.depth, 0);
  EXPECT_EQ(l.movetime_ms, 500);
  EXPECT_EQ(l.seed, 9u);
  l = AlphaBetaEngine::level("depth=7,nodes=1000");
  EXPECT_EQ(l.depth, 7);
  EXPECT_EQ(l.nodes, 1000u);
  std::string err;
  for (const char* bad : {"", "hard", "depth=x", "depth=-1", "depth=999", "blunder=101", "speed=3", "nodes=1e5"}) {
    EXPECT_FALSE(AlphaBetaEngine::parse_level(bad, l, &err)) << bad;
    EXPECT_FALSE(err.empty());
    EXPECT_EQ(err.find('\n'), std::string::npos);
  }
  EXPECT_THROW(AlphaBetaEngine::level("grandmaster"), std::invalid_argument);
}

TEST(AlphaBeta, EasyLevelWeakensWithSeededRng) {
  AbLimits strong = depth_limit(3);
  AbLimits weak = strong;
  weak.blunder_pct = 100;
  weak.blunder_margin_cp = 150;
  weak.seed = 42;
  std::mt19937 rng(7);
  int differs = 0;
  for (int n = 0; n < 8; ++n) {
    Position p;
    for (int i = 0; i < 6; ++i) {
      MoveList ml;
      generate_legal(p, ml);
      p.do_move(ml[int(rng() % (ml.size - 1))]);  // no passes
    }
    AlphaBetaEngine e1(4), e2(4), e3(4);
    Move best = e1.search(p, strong);
    Move w1 = e2.search(p, weak);
    Move w2 = e3.search(p, weak);
    ASSERT_TRUE(is_legal(p, w1));
    EXPECT_EQ(w1, w2);  // same seed, same choice
    differs += w1 != best;
    // Never a move that hands over a mate in one.
    p.do_move(w1);
    EXPECT_FALSE(has_mate_in_one(p));
    p.undo_move();
  }
  EXPECT_GE(differs, 4);
}

TEST(AlphaBeta, EvaluationIsSymmetric) {
  // The start position is symmetric except for Han's counting bonus and the tempo.
  Position cho = from_fen(Position::START_FEN, Ruleset::CASUAL);
  Position han = from_fen("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1", Ruleset::CASUAL);
  EXPECT_EQ(AlphaBetaEngine::evaluate(cho), AlphaBetaEngine::evaluate(han));
  // A chariot up is clearly winning.
  Position up = from_fen("rnba1abn1/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
  EXPECT_GT(AlphaBetaEngine::evaluate(up), 900);
}

}  // namespace
}  // namespace jz
