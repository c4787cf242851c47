// The term evaluation and its tuner: the trace agrees with the score, the hand-set weights reproduce the
// classic evaluation, the quiet filter, and a fit that recovers a planted weight.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "alphabeta/eval.h"
#include "alphabeta/eval_terms.h"
#include "alphabeta/tuner.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "core/setups.h"
#include "util/random.h"

namespace jz {
namespace {

// Positions from random games (no pass, ends before the game does), a few per game.
std::vector<Position> random_positions(int games, uint64_t seed, std::vector<uint32_t>* game_of = nullptr) {
  std::vector<Position> out;
  uint64_t rng = seed;
  for (int g = 0; g < games; ++g) {
    Position p;
    std::string err;
    EXPECT_TRUE(p.set_fen(Position::START_FEN, Ruleset::JANGGI, &err)) << err;
    int plies = 10 + int(splitmix64(rng) % 60);
    for (int i = 0; i < plies; ++i) {
      MoveList ml;
      generate_legal(p, ml);
      if (ml.size <= 1 || game_result(p, ml.size).over()) break;
      Move m = ml[int(splitmix64(rng) % uint64_t(ml.size - 1))];  // the pass is listed last
      p.do_move(m);
      if (i % 7 == 6) {
        out.push_back(p);
        if (game_of) game_of->push_back(uint32_t(g));
      }
    }
  }
  return out;
}

std::vector<double> as_double(const int16_t* w) { return std::vector<double>(w, w + ab::TERM_NB); }

TEST(EvalTerms, TraceAgreesWithScore) {
  ab::EvalWeights w = ab::tuned_weights();
  std::vector<double> mg = as_double(w.mg), eg = as_double(w.eg);
  int n = 0;
  std::set<int> seen;
  for (const Position& p : random_positions(60, 7)) {
    ab::EvalTrace t;
    ab::trace_terms(p, t);
    for (auto& term : t.terms) seen.insert(term.first);
    EXPECT_GE(t.phase, 0);
    EXPECT_LE(t.phase, ab::PHASE_MAX);
    EXPECT_NEAR(ab::eval_cho(p, w), ab::trace_score(t, mg.data(), eg.data()), 1.0) << p.fen();
    ++n;
  }
  EXPECT_GT(n, 200);
  EXPECT_GT(seen.size(), 150u);  // Cho's and Han's terms cancel in symmetric spots, not everywhere
}

TEST(EvalTerms, HandWeightsReproduceTheClassicEvaluation) {
  // The classic evaluation plus Han's counting bonus and the tempo (rounding of the gang-up scale aside).
  ab::EvalWeights hand = ab::hand_weights();
  for (const Position& p : random_positions(40, 11)) {
    int classic = ab::eval_cho_classic(p) - 40 + (p.side_to_move() == CHO ? 10 : -10);
    EXPECT_NEAR(ab::eval_cho(p, hand), classic, 2) << p.fen();
  }
}

TEST(EvalTerms, EveryTermHasAName) {
  for (int t = 0; t < ab::TERM_NB; ++t) EXPECT_NE(ab::term_name(t), "?") << t;
  EXPECT_EQ(ab::term_name(ab::T_MATERIAL + CHARIOT), "material[chariot]");
  EXPECT_EQ(ab::term_name(ab::T_TEMPO), "tempo");
}

TEST(Tuner, QuietFilter) {
  Position p;
  std::string err;
  ASSERT_TRUE(p.set_fen(Position::START_FEN, Ruleset::JANGGI, &err)) << err;
  EXPECT_TRUE(ab::quiet_for_tuning(p));
  // Cho's chariot can take Han's undefended chariot on a10: not quiet (a soldier on e4 keeps the generals
  // from facing each other).
  ASSERT_TRUE(p.set_fen("r3k4/9/9/9/9/9/4P4/9/4K4/R8 w - - 0 1", Ruleset::JANGGI, &err)) << err;
  EXPECT_FALSE(ab::quiet_for_tuning(p));
  // With a soldier of its own on a4 in the way, nothing can be taken: quiet.
  ASSERT_TRUE(p.set_fen("r3k4/9/9/9/9/9/P3P4/9/4K4/R8 w - - 0 1", Ruleset::JANGGI, &err)) << err;
  EXPECT_TRUE(ab::quiet_for_tuning(p));
  // In check: not quiet.
  ASSERT_TRUE(p.set_fen("4k4/9/9/9/9/9/4P4/9/3rK4/9 w - - 0 1", Ruleset::JANGGI, &err)) << err;
  EXPECT_FALSE(ab::quiet_for_tuning(p));
}

// A game's samples: quiet positions only, none in the first skip_plies plies, each with the game's
// result and id; the cap holds; an illegal move ends the game's samples.
TEST(Tuner, GameSamplesAreTheQuietPositionsAfterTheOpening) {
  Position start;
  std::string err;
  ASSERT_TRUE(start.set_fen(Position::START_FEN, Ruleset::JANGGI, &err)) << err;
  std::vector<Move> moves;
  Position p = start;
  std::vector<int> quiet;  // the plies whose positions are quiet
  std::mt19937_64 rng(4);
  for (int i = 0; i < 40; ++i) {
    MoveList ml;
    generate_legal(p, ml);
    if (ml.size == 0 || game_result(p, ml.size).over()) break;
    if (ab::quiet_for_tuning(p)) quiet.push_back(i);
    Move m = ml[int(rng() % uint64_t(ml.size))];
    if (m.is_pass() && ml.size > 1) m = ml[0].is_pass() ? ml[1] : ml[0];
    moves.push_back(m);
    p.do_move(m);
  }
  ASSERT_GT(quiet.size(), 5u);
  const int skip = quiet[2];  // the first two quiet plies fall in the skipped opening
  std::vector<ab::TuneSample> out;
  ASSERT_TRUE(ab::add_game_samples(start, moves, 0.0f, 7, skip, 1000, out));
  EXPECT_EQ(out.size(), quiet.size() - 2);
  for (const ab::TuneSample& s : out) {
    EXPECT_EQ(s.result, 0.0f);
    EXPECT_EQ(s.game, 7u);
  }
  std::vector<ab::TuneSample> capped;
  ASSERT_TRUE(ab::add_game_samples(start, moves, 1.0f, 1, 0, 3, capped));
  EXPECT_EQ(capped.size(), 3u);
  ASSERT_LT(size_t(quiet[4]) + 1, moves.size());
  std::vector<Move> bad = moves;
  bad[size_t(quiet[4])] = bad[size_t(quiet[4]) + 1];  // the other side's move: illegal here
  std::vector<ab::TuneSample> cut;
  EXPECT_FALSE(ab::add_game_samples(start, bad, 0.5f, 2, 0, 1000, cut));
  EXPECT_EQ(cut.size(), 5u);  // quiet plies 0..4 (ply quiet[4] is sampled before its move is checked)
}

TEST(Tuner, RecoversAPlantedWeight) {
  // Results drawn from the logistic of an evaluation whose soldier is worth 450 instead of the hand-set
  // weight: the fit must move the soldier's weight towards it and lower the held-out error.
  ab::EvalWeights truth = ab::hand_weights();
  truth.mg[ab::T_MATERIAL + SOLDIER] = truth.eg[ab::T_MATERIAL + SOLDIER] = 450;
  std::vector<uint32_t> game_of;
  std::vector<Position> ps = random_positions(1500, 3, &game_of);
  std::vector<ab::TuneSample> samples;
  uint64_t rng = 99;
  const double k = 0.004;
  for (size_t i = 0; i < ps.size(); ++i) {
    ab::TuneSample s;
    ab::trace_terms(ps[i], s.trace);
    double p = 1 / (1 + std::exp(-k * ab::eval_cho(ps[i], truth)));
    s.result = double(splitmix64(rng) % 1000000) / 1e6 < p ? 1.0f : 0.0f;
    s.game = game_of[i];
    samples.push_back(s);
  }
  ab::TuneOptions opt;
  opt.epochs = 150;
  opt.learning_rate = 5;
  opt.l2 = 0;
  ab::EvalWeights hand = ab::hand_weights();
  ab::TuneReport r = ab::tune_weights(samples, hand, hand, opt, {});
  EXPECT_GT(r.holdout_n, 100u);
  EXPECT_GT(r.train_n, 5 * r.holdout_n);
  int fitted = (r.weights.mg[ab::T_MATERIAL + SOLDIER] + r.weights.eg[ab::T_MATERIAL + SOLDIER]) / 2;
  EXPECT_GT(fitted, 300) << "soldier weight stayed at the hand-set value";
  EXPECT_LT(r.train_after, r.train_before);
}

TEST(Tuner, WeightsSourceRoundTripsTheTable) {
  ab::EvalWeights w = ab::hand_weights();
  w.mg[ab::T_TEMPO] = 17, w.eg[ab::T_TEMPO] = -3;
  std::string src = ab::weights_source(w, "line one\nline two");
  EXPECT_NE(src.find("// line one\n// line two\n"), std::string::npos);
  EXPECT_NE(src.find("{17, -3},  // " + std::to_string(int(ab::T_TEMPO)) + " tempo"), std::string::npos);
  EXPECT_NE(src.find("const EvalWeights& tuned_weights()"), std::string::npos);
}

}  // namespace
}  // namespace jz
