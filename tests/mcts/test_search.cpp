// Search strength checks with the stub evaluators: mates, the mate guard, counting endings, the Gumbel root.
#include <cmath>
#include <random>

#include "core/notation.h"
#include "mcts/mate_search.h"
#include "mcts/terminal.h"
#include "tests/mcts/helpers.h"

namespace jz::test {
namespace {

const char* MATE_IN_1[] = {
    "9/3C1k3/9/9/9/9/4R4/4K4/8R/9 w - - 0 1",     "9/3k5/6N2/9/9/9/9/4R4/9/2RK5 w - - 0 1",
    "8R/9/3ka4/9/9/2B6/9/5K3/9/9 w - - 0 1",      "9/3aa4/3k3p1/9/9/R6N1/9/9/9/4K4 w - - 0 1",
    "9/4a4/5k3/2p6/9/5N3/9/4KR3/5R3/9 w - - 0 1", "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1",
};
// Mate in 2 (our moves), none in 1.
const char* MATE_IN_2[] = {
    "3k5/9/3aa4/9/5R3/9/2R6/9/3K5/B8 w - - 0 1", "4a4/4k4/9/9/9/3R5/9/7R1/9/3K5 w - - 0 1",
    "9/RR1ak4/9/9/9/9/9/3K5/9/6R2 w - - 0 1",    "9/9/5k3/9/9/9/1pR6/7R1/9/4K4 w - - 0 1",
    "9/4ka3/9/9/1R5p1/9/6C2/R8/5K3/9 w - - 0 1", "9/9/4k4/R8/9/8R/9/9/3K5/9 w - - 0 1",
};

TEST(MctsStub, EvaluatorsAreDistributions) {
  Position pos;
  MoveList ml;
  generate_legal(pos, ml);
  EvalInput in{&pos, &ml};
  UniformEvaluator u;
  MaterialEvaluator m(1.0f);
  for (Evaluator* e : {static_cast<Evaluator*>(&u), static_cast<Evaluator*>(&m)}) {
    Evaluation out;
    e->evaluate(&in, 1, &out);
    ASSERT_EQ(int(out.policy.size()), ml.size);
    float s = 0;
    for (float p : out.policy) s += p;
    EXPECT_NEAR(s, 1.0f, 1e-5);
    EXPECT_NEAR(out.wdl[0] + out.wdl[1] + out.wdl[2], 1.0f, 1e-5);
  }
  // Material: Cho a chariot up is better for Cho, worse for Han to move in the same material.
  Position up = make_pos("9/3k5/9/9/9/9/9/9/4K4/R8 w - - 0 1");
  Position down = make_pos("9/3k5/9/9/9/9/9/9/4K4/R8 b - - 0 1");
  MoveList a, b;
  generate_legal(up, a);
  generate_legal(down, b);
  EvalInput ins[2] = {{&up, &a}, {&down, &b}};
  Evaluation outs[2];
  m.evaluate(ins, 2, outs);
  EXPECT_GT(outs[0].value(), 0.5f);
  EXPECT_LT(outs[1].value(), -0.5f);
  EXPECT_FLOAT_EQ(outs[0].margin, 13.0f);
}

TEST(MctsSearch, FlipFenIsAnInvolution) {
  for (const char* fen : MATE_IN_1) EXPECT_EQ(flip_fen(flip_fen(fen)), std::string(fen));
}

TEST(MctsSearch, FindsMateInOne) {
  MaterialEvaluator eval;
  SearchParams p;
  p.simulations = 300;
  for (const char* f : MATE_IN_1) {
    for (const std::string& fen : {std::string(f), flip_fen(f)}) {
      Position pos = make_pos(fen);
      ASSERT_TRUE(has_mate_in_1(pos)) << fen;
      SearchResult r = search(pos, eval, p);
      EXPECT_TRUE(mates(pos, r.move)) << fen << " played " << r.move.raw;
      EXPECT_FLOAT_EQ(r.q, 1.0f) << fen;
      EXPECT_EQ(r.proven, 1) << fen;
      EXPECT_EQ(r.proof_plies, 1) << fen;
      // Self-play settings never sample away from a proven win (some of these positions also win at
      // once by passing in bikjang when ahead on counting).
      SearchParams noisy = p;
      noisy.root_noise = true;
      noisy.temperature = 1.0f;
      noisy.forced_playouts = true;
      noisy.seed = 9;
      EXPECT_TRUE(wins_at_once(pos, search(pos, eval, noisy, 4).move)) << fen;
    }
  }
}

// The mate-in-one check proves a mate when its leaf is expanded: one simulation after the root's
// evaluation is enough, whatever the priors. Without it, one simulation cannot find all of them.
TEST(MctsSearch, MateInOneIsProvenAtExpansion) {
  UniformEvaluator eval;
  SearchParams p;
  p.simulations = 1;
  int proven_without = 0, total = 0;
  for (const char* f : MATE_IN_1) {
    for (const std::string& fen : {std::string(f), flip_fen(f)}) {
      Position pos = make_pos(fen);
      SearchResult r = search(pos, eval, p);
      EXPECT_EQ(r.proven, 1) << fen;
      EXPECT_EQ(r.proof_plies, 1) << fen;
      EXPECT_TRUE(mates(pos, r.move)) << fen << " played " << r.move.raw;
      SearchParams off = p;
      off.mate_in_one = false;
      proven_without += search(pos, eval, off).proven == 1;
      ++total;
    }
  }
  EXPECT_LT(proven_without, total);
}

// A move that lets the opponent mate at once is proven lost as soon as its child is expanded, so a
// search that has looked at every move plays none of them unless the position is lost anyway.
TEST(MctsSearch, NeverWalksIntoMateInOne) {
  UniformEvaluator eval;
  SearchParams p;
  int checked = 0;
  for (const char* f : MATE_IN_1) {
    for (std::string fen : {std::string(f), flip_fen(f)}) {
      size_t side = fen.find(' ') + 1;
      fen[side] = fen[side] == 'w' ? 'b' : 'w';  // the defender to move
      Position pos;
      std::string err;
      if (!pos.set_fen(fen, Ruleset::JANGGI, &err)) continue;
      MoveList moves;
      generate_legal(pos, moves);
      int safe = 0;
      for (int i = 0; i < moves.size; ++i) {
        pos.do_move(moves[i]);
        safe += !has_mate_in_1(pos);
        pos.undo_move();
      }
      if (safe == 0 || safe == moves.size) continue;
      p.simulations = 8 * moves.size;
      SearchResult r = search(pos, eval, p);
      if (r.proven < 0) continue;  // lost anyway (the safe moves lose later): any move will do
      pos.do_move(r.move);
      EXPECT_FALSE(has_mate_in_1(pos)) << fen << " played " << r.move.raw;
      pos.undo_move();
      ++checked;
    }
  }
  EXPECT_GE(checked, 3);
}

// Without counting (janggicasual) only a mate wins, so a proven win within two moves is the mate in 2.
// The evaluator knows nothing (draw everywhere): the proof comes from the search alone.
TEST(MctsSearch, FindsMateInTwo) {
  UniformEvaluator eval;
  SearchParams p;
  p.simulations = 30000;
  for (const char* f : MATE_IN_2) {
    for (const std::string& fen : {std::string(f), flip_fen(f)}) {
      Position pos = make_pos(fen, Ruleset::CASUAL);
      ASSERT_FALSE(has_mate_in_1(pos)) << fen;
      SearchResult r = search(pos, eval, p, 8);
      EXPECT_TRUE(forces_mate_in_2(pos, r.move)) << fen << " played " << r.move.raw;
      EXPECT_FLOAT_EQ(r.q, 1.0f) << fen;  // proven
      EXPECT_EQ(r.proven, 1) << fen;
      EXPECT_EQ(r.proof_plies, 3) << fen;
    }
  }
}

// The side to move wins within two moves, by the helpers' independent full-width definition.
bool full_width_mate_in_2(Position& p) {
  if (has_mate_in_1(p)) return true;
  MoveList ml;
  generate_legal(p, ml);
  for (Move m : ml)
    if (!m.is_pass() && forces_mate_in_2(p, m)) return true;
  return false;
}

TEST(MateSearch, FindsTheShortMates) {
  for (const char* f : MATE_IN_1)
    for (const std::string& fen : {std::string(f), flip_fen(f)}) {
      Position pos = make_pos(fen);
      EXPECT_TRUE(mcts::forced_win(pos, 1, 0)) << fen;
      EXPECT_EQ(pos.fen(), make_pos(fen).fen());  // the search leaves the position as it found it
    }
  for (const char* f : MATE_IN_2)
    for (const std::string& fen : {std::string(f), flip_fen(f)}) {
      Position pos = make_pos(fen, Ruleset::CASUAL);
      EXPECT_FALSE(mcts::forced_win(pos, 1, 0)) << fen;
      EXPECT_TRUE(mcts::forced_win(pos, 2, 1)) << fen;
      EXPECT_TRUE(mcts::forced_win(pos, 3, 0) || !mcts::forced_win(pos, 2, 0)) << fen;  // more moves find more
    }
}

// Two moves with a quiet first move is the whole mate-in-2 tree (a mating move always checks): it must
// agree with the full-width definition on the mate positions and on positions a few random moves away.
TEST(MateSearch, AgreesWithFullWidthMateInTwo) {
  std::mt19937 rng(7);
  int positions = 0, mates = 0;
  for (const char* set : {"1", "2"}) {
    std::vector<std::string> fens;
    if (set[0] == '1') fens.assign(std::begin(MATE_IN_1), std::end(MATE_IN_1));
    else fens.assign(std::begin(MATE_IN_2), std::end(MATE_IN_2));
    for (const std::string& f : fens)
      for (const std::string& fen : {f, flip_fen(f)})
        for (int walk = 0; walk < 12; ++walk) {
          Position pos = make_pos(fen, Ruleset::CASUAL);
          for (int ply = 0; ply < walk % 4; ++ply) {
            MoveList ml;
            generate_legal(pos, ml);
            if (ml.size == 0 || game_result(pos, ml.size).over()) break;
            pos.do_move(ml[int(rng() % ml.size)]);
          }
          if (game_result(pos).over()) continue;
          bool want = full_width_mate_in_2(pos);
          EXPECT_EQ(mcts::forced_win(pos, 2, 1), want) << pos.fen();
          ++positions;
          mates += want;
        }
  }
  EXPECT_GT(mates, 10);
  EXPECT_GT(positions - mates, 10);
}

// The guard proves a mate in 2 at the root before any simulation reaches it; the plain search cannot in one.
TEST(MctsSearch, MateGuardProvesRootMates) {
  UniformEvaluator eval;
  SearchParams p;
  p.simulations = 1;
  for (const char* f : MATE_IN_2)
    for (const std::string& fen : {std::string(f), flip_fen(f)}) {
      Position pos = make_pos(fen, Ruleset::CASUAL);
      EXPECT_EQ(search(pos, eval, p).proven, 0) << fen;
      SearchParams g = p;
      g.mate_guard = 2;
      SearchResult r = search(pos, eval, g);
      EXPECT_EQ(r.proven, 1) << fen;
      EXPECT_TRUE(forces_mate_in_2(pos, r.move)) << fen << " played " << r.move.raw;
      SearchParams checks = p;  // check sequences only: proven exactly where the mate starts with a check
      checks.mate_guard_checks = 2;
      EXPECT_EQ(search(pos, eval, checks).proven == 1, mcts::forced_win(pos, 2, 0)) << fen;
    }
}

// A timed search ends once the guard has proven the root won, instead of spending its whole time; the
// same search without a time limit keeps to its simulation budget (self-play's targets).
TEST(MctsSearch, TimedSearchStopsWhenTheRootIsProvenWon) {
  UniformEvaluator eval;
  Position pos = make_pos(MATE_IN_2[0], Ruleset::CASUAL);
  SearchParams p;
  p.mate_guard = 2;
  p.simulations = 1 << 30;
  p.time_limit = 60;  // a search that does not stop would take a minute and fail below
  SearchResult r = search(pos, eval, p);
  EXPECT_EQ(r.proven, 1);
  EXPECT_TRUE(forces_mate_in_2(pos, r.move));
  EXPECT_LT(r.seconds, 30.0);
  p.time_limit = 0;
  p.simulations = 300;
  r = search(pos, eval, p);
  EXPECT_EQ(r.proven, 1);
  EXPECT_GE(r.root_visits, 300);
}

// The MATE_IN_2 positions (and their mirrors) with the defender to move: fn(fen, pos, unsafe, safe, moves),
// where unsafe(m) says the attacker mates in 2 after m and safe counts the defender's moves that are not.
template <class Fn>
void for_each_mate_threat(Fn fn) {
  for (const char* f : MATE_IN_2)
    for (std::string fen : {std::string(f), flip_fen(f)}) {
      size_t side = fen.find(' ') + 1;
      fen[side] = fen[side] == 'w' ? 'b' : 'w';
      Position pos;
      std::string err;
      if (!pos.set_fen(fen, Ruleset::CASUAL, &err) || game_result(pos).over()) continue;
      auto unsafe = [&](Move m) {
        pos.do_move(m);
        bool u = full_width_mate_in_2(pos);
        pos.undo_move();
        return u;
      };
      MoveList moves;
      generate_legal(pos, moves);
      int safe = 0;
      for (Move m : moves) safe += !unsafe(m);
      fn(fen, pos, unsafe, safe, int(moves.size));
    }
}

// With the defender to move, a move after which the attacker mates in 2 is proven lost by the guard, so a
// search too small to see the mate still avoids it; without the guard it walks into some of them.
TEST(MctsSearch, MateGuardAvoidsMateInTwoThreats) {
  UniformEvaluator eval;
  SearchParams p;
  p.simulations = 2;
  int checked = 0, unsafe_without = 0;
  for_each_mate_threat([&](const std::string& fen, Position& pos, auto& unsafe, int safe, int moves) {
    if (safe == 0 || safe == moves) return;
    unsafe_without += unsafe(search(pos, eval, p).move);
    SearchParams g = p;
    g.mate_guard = 2;
    SearchResult r = search(pos, eval, g);
    EXPECT_FALSE(unsafe(r.move)) << fen << " played " << r.move.raw;
    ++checked;
  });
  EXPECT_GT(checked, 3);
  EXPECT_GT(unsafe_without, 0);
}

// The chosen move's check (mate_verify) without the root guard: the move played is never one after which
// the opponent mates in 2, and where the search's own choice was safe it is left alone (only moves that
// would be played are searched, and only a proven loss changes one).
TEST(MctsSearch, MateVerifyReplacesOnlyLosingChoices) {
  UniformEvaluator eval;
  SearchParams p;
  p.simulations = 2;
  int checked = 0, replaced = 0;
  for_each_mate_threat([&](const std::string& fen, Position& pos, auto& unsafe, int safe, int) {
    if (safe == 0) return;
    Move plain = search(pos, eval, p).move;
    SearchParams v = p;
    v.mate_verify = 2;
    v.mate_verify_quiet = 2;  // full width: any mate in 2
    SearchResult r = search(pos, eval, v);
    EXPECT_FALSE(unsafe(r.move)) << fen << " played " << r.move.raw;
    if (!unsafe(plain)) {
      EXPECT_EQ(r.move, plain) << fen;
    }
    replaced += r.move != plain;
    ++checked;
  });
  EXPECT_GT(checked, 3);
  EXPECT_GT(replaced, 0);
}

// A losing move of the Xiangqi network against easy (docs/training/xiangqi: game 45 of the step-56,785
// match, ply 46): after black's king e9f9 red mates in 3 with a quiet set-up move. Play's every-move guard
// does not prove it; the check of the chosen move does, and four other moves are not proven lost.
TEST(MctsSearch, MateVerifyCatchesAQuietSetUpTheRootGuardMisses) {
  Position pos = make_pos("2bR1a3/r3k4/4b4/6p2/pR6p/2P1P1P2/8P/B3B4/4A1n2/3K1A3 b - - 0 23", Ruleset::XIANGQI);
  Move losing;
  ASSERT_TRUE(parse_uci_move("e9f9", losing) && is_legal(pos, losing));
  int plies = 0;
  EXPECT_EQ(mcts::guard_verdict(pos, losing, PLAY_MATE_GUARD, 1, PLAY_MATE_GUARD_CHECKS, plies), 0);
  EXPECT_EQ(mcts::guard_verdict(pos, losing, PLAY_MATE_VERIFY, PLAY_MATE_VERIFY_QUIET, PLAY_MATE_VERIFY_CHECKS, plies),
            -1);
  // The other moves are not all lost: the check has a move to play instead.
  MoveList moves;
  generate_legal(pos, moves);
  int open = 0;
  for (Move m : moves)
    open += mcts::guard_verdict(pos, m, PLAY_MATE_VERIFY, PLAY_MATE_VERIFY_QUIET, PLAY_MATE_VERIFY_CHECKS, plies) >= 0;
  EXPECT_GT(open, 0);
}

// A node budget only withdraws proofs: within any budget a verdict is the unlimited one or 0 (unproven), and
// small budgets do cut some proofs. Play's budget still proves the game-45 set-up; 100 positions do not.
TEST(MctsSearch, MateBudgetOnlyWithdrawsProofs) {
  int proven = 0, withdrawn = 0;
  for_each_mate_threat([&](const std::string& fen, Position& pos, auto&, int, int) {
    MoveList moves;
    generate_legal(pos, moves);
    for (Move m : moves) {
      int plies = 0;
      const int full = mcts::guard_verdict(pos, m, 2, 2, 3, plies);
      for (int64_t nodes : {20, 200, 2000}) {
        mcts::MateBudget budget{nodes};
        const int v = mcts::guard_verdict(pos, m, 2, 2, 3, plies, &budget);
        EXPECT_TRUE(v == full || v == 0) << fen << " move " << m.raw << " budget " << nodes;
        EXPECT_TRUE(budget.cut || v == full) << fen;
        proven += v != 0, withdrawn += v != full;
      }
    }
  });
  EXPECT_GT(proven, 0);
  EXPECT_GT(withdrawn, 0);
  Position pos = make_pos("2bR1a3/r3k4/4b4/6p2/pR6p/2P1P1P2/8P/B3B4/4A1n2/3K1A3 b - - 0 23", Ruleset::XIANGQI);
  Move losing;
  ASSERT_TRUE(parse_uci_move("e9f9", losing));
  for (int64_t nodes : {PLAY_MATE_VERIFY_NODES, int64_t(100)}) {
    mcts::MateBudget budget{nodes};
    int plies = 0;
    const int v = mcts::guard_verdict(pos, losing, PLAY_MATE_VERIFY, PLAY_MATE_VERIFY_QUIET, PLAY_MATE_VERIFY_CHECKS,
                                      plies, &budget);
    EXPECT_EQ(v, nodes == 100 ? 0 : -1);
    EXPECT_EQ(budget.cut, nodes == 100);
  }
}

// Han has just passed: a Cho pass ends the game now by counting. Ahead, Cho should end it; behind,
// Cho must play on.
TEST(MctsSearch, CountingEndingWhenAheadNotWhenBehind) {
  MaterialEvaluator eval;
  SearchParams p;
  p.simulations = 400;
  // Cho: chariot + horse (18) vs Han: horse (5): ahead. Cho chariot is not attacked.
  Position ahead = make_pos("9/3kn4/9/9/9/9/9/9/4K4/RN7 b - - 0 1");
  // Cho: horse (5) vs Han: chariot + horse (18): behind.
  Position behind = make_pos("r8/3kn4/9/9/9/9/9/9/4K4/1N7 b - - 0 1");
  for (Position* pos : {&ahead, &behind}) {
    Move pass(pos->king_square(HAN), pos->king_square(HAN));
    ASSERT_TRUE(is_legal(*pos, pass));
    pos->do_move(pass);
  }
  Move cho_pass(ahead.king_square(CHO), ahead.king_square(CHO));
  ahead.do_move(cho_pass);
  GameResult end = game_result(ahead);
  ASSERT_TRUE(end.by_counting && end.winner == Winner::CHO) << end.str();
  ahead.undo_move();
  SearchResult r = search(ahead, eval, p);
  EXPECT_TRUE(r.move.is_pass());
  EXPECT_GT(r.q, 0.9f);

  behind.do_move(cho_pass);
  end = game_result(behind);
  ASSERT_TRUE(end.by_counting && end.winner == Winner::HAN) << end.str();
  behind.undo_move();
  r = search(behind, eval, p);
  EXPECT_FALSE(r.move.is_pass());
  EXPECT_TRUE(is_legal(behind, r.move));
}

// A move that makes the generals face each other while behind on points loses at once: the opponent
// passes and the count ends the game. The win-in-one check at expansion and the mate guard both see it,
// though the network's prior (here a capture bias) favours the move and hides the pass.
TEST(MctsSearch, FacingTheGeneralsWhileBehindIsLost) {
  // Cho's horse e5 blocks the facing generals e2/e9; capturing the chariot g6 opens the file. Behind:
  // Cho 5 against Han's 26 + 1.5 after the capture. Ahead: Cho 18 against Han's 0 + 1.5.
  Position behind = make_pos("r7r/4k4/9/9/6r2/4N4/9/9/4K4/9 w - - 0 1");
  Position ahead = make_pos("9/4k4/9/9/6r2/4N4/9/9/4K4/R8 w - - 0 1");
  Position drawn = make_pos("r7r/4k4/9/9/6r2/4N4/9/9/4K4/9 w - - 0 1", Ruleset::TRADITIONAL);
  Move capture;
  ASSERT_TRUE(parse_uci_move("e5g6", capture));
  for (Position* pos : {&behind, &ahead, &drawn}) {
    ASSERT_TRUE(is_legal(*pos, capture));
    pos->do_move(capture);
    ASSERT_TRUE(pos->in_bikjang());
    MoveList moves;
    generate_legal(*pos, moves);
    float margin = 0;
    const int win = mcts::winning_move(*pos, moves, margin);
    if (pos == &behind) {
      ASSERT_GE(win, 0);
      EXPECT_TRUE(moves[win].is_pass());
      EXPECT_FLOAT_EQ(margin, 26.0f - 5.0f);
    } else {
      EXPECT_EQ(win, -1);  // the pass loses the count (ahead) or draws (traditional)
    }
    pos->undo_move();
    int plies = 0;
    const int verdict = mcts::guard_verdict(*pos, capture, PLAY_MATE_GUARD, 1, PLAY_MATE_GUARD_CHECKS, plies);
    if (pos == &behind) {
      EXPECT_EQ(verdict, -1);
      EXPECT_EQ(plies, 1);
    } else {
      EXPECT_FALSE(verdict < 0 && plies == 1);  // no loss in one: longer lines may exist
    }
  }
  MaterialEvaluator eval(4.0f);
  SearchParams p;
  for (int sims : {8, 64, 400}) {
    p.simulations = sims;
    SearchResult r = search(behind, eval, p);
    behind.do_move(r.move);
    EXPECT_FALSE(behind.in_bikjang()) << sims << " simulations played " << move_to_uci(r.move);
    behind.undo_move();
    EXPECT_EQ(search(ahead, eval, p).move, capture) << sims;
  }
}

// Candidates' one-ply values by the evaluator (or the rules, for endings), mover's view.
std::vector<float> one_ply_values(Position& pos, Evaluator& eval, const std::vector<Move>& moves) {
  std::vector<float> v;
  for (Move m : moves) {
    pos.do_move(m);
    MoveList ml;
    generate_legal(pos, ml);
    GameResult r = game_result(pos, ml.size);
    if (r.over()) {
      v.push_back(r.winner == Winner::DRAW ? 0.0f : r.winner == winner_of(pos.side_to_move()) ? -1.0f : 1.0f);
    } else {
      EvalInput in{&pos, &ml};
      Evaluation e;
      eval.evaluate(&in, 1, &e);
      v.push_back(-e.value());
    }
    pos.undo_move();
  }
  return v;
}

TEST(MctsGumbel, SixteenSimulationsPickTheBestCandidate) {
  MaterialEvaluator eval(4.0f);  // captures first among the candidates
  SearchParams p;
  p.gumbel = true;
  p.gumbel_m = 16;
  p.simulations = 16;
  struct Case {
    const char* fen;
    const char* why;
  };
  const Case cases[] = {
      {"9/3k5/9/9/r8/9/9/9/4K4/R8 w - - 0 1", "capture the hanging chariot"},
      {"n3k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1", "mate in 1 by capture"},
      {"2r6/3k5/9/9/9/9/9/9/4K4/2R6 w - - 0 1", "capture the hanging chariot"},
  };
  for (const Case& c : cases) {
    for (const std::string& fen : {std::string(c.fen), flip_fen(c.fen)}) {
      Position pos = make_pos(fen);
      SearchResult r = search(pos, eval, p);
      EXPECT_EQ(sum(r.visits), 16) << fen;
      std::vector<Move> cands;
      for (size_t i = 0; i < r.moves.size(); ++i)
        if (r.visits[i] > 0) cands.push_back(r.moves[i]);
      EXPECT_EQ(cands.size(), 16u) << fen;  // m = 16, n = 16: one visit each
      std::vector<float> v = one_ply_values(pos, eval, cands);
      float best = *std::max_element(v.begin(), v.end());
      auto it = std::find(cands.begin(), cands.end(), r.move);
      ASSERT_NE(it, cands.end()) << fen;
      EXPECT_FLOAT_EQ(v[it - cands.begin()], best) << fen << ": " << c.why;
      bool capture = pos.piece_on(r.move.to()) != NO_PIECE && !r.move.is_pass();
      EXPECT_TRUE(capture) << fen << ": " << c.why;
      float s = 0;
      for (float t : r.policy_target) s += t;
      EXPECT_NEAR(s, 1.0f, 1e-4);
    }
  }
}

TEST(MctsGumbel, NoisyRootSpendsBudgetOnCandidatesOnly) {
  MaterialEvaluator eval;
  SearchParams p;
  p.gumbel = true;
  p.root_noise = true;
  p.gumbel_m = 8;
  p.simulations = 100;
  Position pos;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    p.seed = seed;
    SearchResult r = search(pos, eval, p, 4);
    EXPECT_EQ(sum(r.visits), 100);
    int visited = 0, most = 0;
    for (int v : r.visits) visited += v > 0, most = std::max(most, v);
    EXPECT_EQ(visited, 8);
    // Sequential halving: the chosen move is one of the most visited candidates.
    auto it = std::find(r.moves.begin(), r.moves.end(), r.move);
    ASSERT_NE(it, r.moves.end());
    EXPECT_EQ(r.visits[it - r.moves.begin()], most);
    // Improved policy puts mass on unvisited moves too (completed Q), and sums to 1.
    float s = 0, unvisited = 0;
    for (size_t i = 0; i < r.moves.size(); ++i) {
      s += r.policy_target[i];
      if (!r.visits[i]) unvisited += r.policy_target[i];
    }
    EXPECT_NEAR(s, 1.0f, 1e-4);
    EXPECT_GT(unvisited, 0.0f);
  }
}

TEST(MctsGumbel, InteriorImprovedPolicyRuleFindsMate) {
  MaterialEvaluator eval;
  SearchParams p;
  p.gumbel = true;
  p.gumbel_interior = true;
  p.gumbel_m = 64;
  p.simulations = 400;
  for (const char* fen : MATE_IN_1) {
    Position pos = make_pos(fen);
    SearchResult r = search(pos, eval, p);
    EXPECT_TRUE(mates(pos, r.move)) << fen;
  }
}

}  // namespace
}  // namespace jz::test
