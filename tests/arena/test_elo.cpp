// Elo, intervals, LOS and SPRT against values worked out by hand (python one-liners in the comments).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "arena/elo.h"

using namespace jz;

TEST(Elo, ScoreToElo) {
  EXPECT_NEAR(elo_from_score(0.6), 70.4365, 1e-3);  // -400*log10(1/0.6-1)
  EXPECT_NEAR(elo_from_score(0.5), 0.0, 1e-12);
  EXPECT_NEAR(elo_from_score(0.4), -70.4365, 1e-3);
  EXPECT_NEAR(score_from_elo(70.4365), 0.6, 1e-6);
  EXPECT_NEAR(score_from_elo(elo_from_score(0.83)), 0.83, 1e-12);
  EXPECT_GT(elo_from_score(1.0), 2000);  // clamped, finite
  EXPECT_LT(elo_from_score(0.0), -2000);
}

TEST(Elo, TrinomialInterval) {
  Wdl r{60, 0, 40};  // s = 0.6, var = 0.24, se = sqrt(0.0024)
  EloEstimate e = elo_trinomial(r);
  EXPECT_NEAR(e.elo, 70.4365, 1e-3);
  EXPECT_NEAR(e.score_se, std::sqrt(0.0024), 1e-9);
  EXPECT_NEAR(e.lo, 2.7669, 1e-3);
  EXPECT_NEAR(e.hi, 143.9092, 1e-3);
  EXPECT_EQ(e.samples, 100);

  EloEstimate f = elo_trinomial(Wdl{50, 30, 20});  // s = 0.65
  EXPECT_NEAR(f.elo, 107.5381, 1e-3);
  EXPECT_NEAR(f.lo, 51.4180, 1e-3);
  EXPECT_NEAR(f.hi, 169.7454, 1e-3);
}

TEST(Elo, PentanomialInterval) {
  Pentanomial p;
  int64_t counts[5] = {2, 10, 40, 30, 18};  // mean 0.63
  for (int i = 0; i < 5; ++i) p.p[i] = counts[i];
  EloEstimate e = elo_pentanomial(p);
  EXPECT_NEAR(e.score, 0.63, 1e-12);
  EXPECT_NEAR(e.elo, 92.4555, 1e-3);
  EXPECT_NEAR(e.lo, 58.0395, 1e-3);
  EXPECT_NEAR(e.hi, 128.7474, 1e-3);
  EXPECT_EQ(e.samples, 100);
  EXPECT_EQ(Pentanomial::index(0), 0);
  EXPECT_EQ(Pentanomial::index(1.5), 3);
  EXPECT_EQ(Pentanomial::index(2), 4);
}

TEST(Elo, LikelihoodOfSuperiority) {
  EXPECT_NEAR(likelihood_of_superiority(Wdl{50, 30, 20}), 0.999832, 1e-6);
  EXPECT_DOUBLE_EQ(likelihood_of_superiority(Wdl{0, 10, 0}), 0.5);
  EXPECT_NEAR(likelihood_of_superiority(Wdl{20, 0, 50}), 1 - 0.999832, 1e-6);
}

TEST(Sprt, ParsesBoundsAndRefusesTheRest) {
  SprtParams p;
  std::string err;
  ASSERT_TRUE(parse_sprt("0,5", p, &err)) << err;
  EXPECT_EQ(p.elo0, 0);
  EXPECT_EQ(p.elo1, 5);
  EXPECT_EQ(p.alpha, 0.05);
  ASSERT_TRUE(parse_sprt("-3.5,2,0.1,0.2", p, &err)) << err;
  EXPECT_EQ(p.elo0, -3.5);
  EXPECT_EQ(p.alpha, 0.1);
  EXPECT_EQ(p.beta, 0.2);
  for (const char* bad : {"", "5", "0,5,0.1", "5,0", "0,5,0.5,0.1", "0,5,0,0.1", "0,x", "0,5e", "0,,5"}) {
    SprtParams q;
    EXPECT_FALSE(parse_sprt(bad, q, &err)) << bad;
    EXPECT_EQ(err.find("--sprt"), 0u) << err;
  }
}

TEST(Sprt, LlrByHand) {
  SprtParams p{0, 10, 0.05, 0.05};
  SprtStatus s = sprt_trinomial(Wdl{50, 30, 20}, p);
  EXPECT_NEAR(s.llr, 1.34727, 1e-4);
  EXPECT_NEAR(s.lower, -2.94444, 1e-4);
  EXPECT_NEAR(s.upper, 2.94444, 1e-4);
  EXPECT_EQ(s.state, SprtState::CONTINUE);
  EXPECT_EQ(sprt_trinomial(Wdl{}, p).state, SprtState::CONTINUE);
  // One lucky win must not decide.
  EXPECT_EQ(sprt_trinomial(Wdl{1, 0, 0}, p).state, SprtState::CONTINUE);
}

namespace {
// Plays a synthetic stream with the given true Elo until the SPRT decides (or a cap).
SprtState run_stream(double true_elo, bool pairs, uint64_t seed, int* samples) {
  std::mt19937_64 rng(seed);
  double draw = 0.3, s = score_from_elo(true_elo);
  double pw = s - draw / 2;  // win probability giving the right score
  std::uniform_real_distribution<double> u(0, 1);
  auto game = [&] {
    double x = u(rng);
    return x < pw ? 1.0 : x < pw + draw ? 0.5 : 0.0;
  };
  SprtParams p{0, 10, 0.05, 0.05};
  Wdl w;
  Pentanomial pent;
  for (int i = 1; i <= 200000; ++i) {
    SprtStatus st;
    if (pairs) {
      pent.p[Pentanomial::index(game() + game())]++;
      st = sprt_pentanomial(pent, p);
    } else {
      double g = game();
      (g == 1 ? w.w : g == 0 ? w.l : w.d)++;
      st = sprt_trinomial(w, p);
    }
    if (st.state != SprtState::CONTINUE) {
      *samples = i;
      return st.state;
    }
  }
  *samples = -1;
  return SprtState::CONTINUE;
}
}  // namespace

TEST(Sprt, DecidesClearStreams) {
  for (bool pairs : {false, true}) {
    int n;
    EXPECT_EQ(run_stream(60, pairs, 1, &n), SprtState::ACCEPT_H1) << pairs;
    EXPECT_GT(n, 10);
    EXPECT_EQ(run_stream(-50, pairs, 2, &n), SprtState::ACCEPT_H0) << pairs;
    EXPECT_EQ(run_stream(200, pairs, 3, &n), SprtState::ACCEPT_H1) << pairs;
    // A stream far above elo1 decides quickly; near the bounds takes longer.
    int fast, slow;
    run_stream(200, pairs, 4, &fast);
    run_stream(30, pairs, 4, &slow);
    EXPECT_LT(fast, slow);
  }
  // Error rates: with true Elo = elo0 the test should rarely accept H1.
  int false_accepts = 0, n;
  for (uint64_t seed = 10; seed < 110; ++seed) false_accepts += run_stream(0, false, seed, &n) == SprtState::ACCEPT_H1;
  EXPECT_LE(false_accepts, 15);  // alpha = 5%; generous margin for 100 trials
}
