// Bradley-Terry fit: recovers known ratings from synthetic results; anchors, error bars, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "arena/elo.h"
#include "arena/ratings.h"

using namespace jz;

namespace {

std::map<std::string, Rating> by_name(const std::vector<Rating>& rs) {
  std::map<std::string, Rating> m;
  for (auto& r : rs) m[r.name] = r;
  return m;
}

// Results whose counts are exactly the expected ones (draws 20% of every pairing).
PairResult expected(const std::string& a, double ra, const std::string& b, double rb, double games) {
  double s = score_from_elo(ra - rb), draws = 0.2 * games;
  PairResult p{a, b, s * games - draws / 2, draws, 0};
  p.l = games - p.w - p.d;
  return p;
}

}  // namespace

TEST(Ratings, RecoversExactRatings) {
  std::map<std::string, double> truth = {{"random", 0}, {"easy", 150}, {"normal", 320}, {"expert", 450}};
  std::vector<PairResult> res;
  // A chain plus one long-range pairing, as real tournaments look.
  res.push_back(expected("easy", 150, "random", 0, 4000));
  res.push_back(expected("normal", 320, "easy", 150, 4000));
  res.push_back(expected("expert", 450, "normal", 320, 4000));
  res.push_back(expected("random", 0, "normal", 320, 4000));
  RatingOptions opt;
  opt.prior_draws = 0;
  std::vector<Rating> out;
  std::string err;
  ASSERT_TRUE(fit_ratings(res, opt, out, &err)) << err;
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].name, "expert");  // sorted best first
  auto m = by_name(out);
  for (auto& [name, elo] : truth) EXPECT_NEAR(m[name].elo, elo, 1e-3) << name;
  EXPECT_TRUE(m["random"].anchor);
  EXPECT_EQ(m["random"].err95, 0);
  EXPECT_DOUBLE_EQ(m["easy"].games, 8000);
  // Farther from the anchor means a wider interval.
  EXPECT_GT(m["expert"].err95, m["easy"].err95);
}

TEST(Ratings, ErrorBarMatchesSinglePairing) {
  // Two players, one pairing: the BT interval equals the per-game binomial one in Elo terms.
  std::vector<PairResult> res = {{"a", "random", 600, 0, 400}};
  RatingOptions opt;
  opt.prior_draws = 0;
  std::vector<Rating> out;
  std::string err;
  ASSERT_TRUE(fit_ratings(res, opt, out, &err)) << err;
  auto m = by_name(out);
  EXPECT_NEAR(m["a"].elo, 70.4365, 1e-3);
  // Fisher information c^2 N p(1-p), c = ln10/400.
  double c = std::log(10.0) / 400, sd = 1 / (c * std::sqrt(1000 * 0.24));
  EXPECT_NEAR(m["a"].err95, 1.959964 * sd, 1e-3);
}

TEST(Ratings, RecoversSampledRatingsWithinErrorBars) {
  std::mt19937_64 rng(42);
  std::vector<std::string> names = {"random", "p1", "p2", "p3", "p4", "p5"};
  std::vector<double> elo = {0, 80, 200, 260, 410, 600};
  std::vector<PairResult> res;
  std::uniform_real_distribution<double> u(0, 1);
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = i + 1; j < names.size() && j <= i + 2; ++j) {
      PairResult p{names[i], names[j]};
      double s = score_from_elo(elo[i] - elo[j]), draw = 0.25;
      for (int g = 0; g < 600; ++g) {
        double x = u(rng);
        (x < s - draw / 2 ? p.w : x < s + draw / 2 ? p.d : p.l) += 1;
      }
      res.push_back(p);
    }
  std::vector<Rating> out;
  std::string err;
  ASSERT_TRUE(fit_ratings(res, RatingOptions(), out, &err)) << err;
  auto m = by_name(out);
  int outside = 0;
  for (size_t i = 1; i < names.size(); ++i) {
    const Rating& r = m[names[i]];
    EXPECT_GT(r.err95, 5);
    EXPECT_LT(r.err95, 150);
    outside += std::fabs(r.elo - elo[i]) > r.err95;
    EXPECT_LT(std::fabs(r.elo - elo[i]), 2 * r.err95) << names[i];
  }
  EXPECT_LE(outside, 1);
}

TEST(Ratings, PerfectScoreStaysFinite) {
  std::vector<PairResult> res = {{"strong", "random", 50, 0, 0}};
  std::vector<Rating> out;
  std::string err;
  ASSERT_TRUE(fit_ratings(res, RatingOptions(), out, &err)) << err;
  auto m = by_name(out);
  EXPECT_TRUE(std::isfinite(m["strong"].elo));
  EXPECT_GT(m["strong"].elo, 400);
  EXPECT_LT(m["strong"].elo, 2000);
}

TEST(Ratings, AnchorAndUnconnectedPlayers) {
  std::vector<PairResult> res = {expected("a", 100, "b", 0, 1000), expected("x", 50, "y", 0, 1000)};
  RatingOptions opt;
  opt.anchor = "b";
  opt.anchor_elo = 1000;
  opt.prior_draws = 0;
  std::vector<Rating> out;
  std::string err;
  ASSERT_TRUE(fit_ratings(res, opt, out, &err)) << err;
  auto m = by_name(out);
  EXPECT_NEAR(m["b"].elo, 1000, 1e-9);
  EXPECT_NEAR(m["a"].elo, 1100, 1e-3);
  EXPECT_FALSE(m["x"].connected);
  EXPECT_FALSE(m["y"].connected);
  EXPECT_EQ(out.back().connected, false);  // unconnected players listed last
  std::string table = ratings_table(out);
  EXPECT_NE(table.find("(anchor)"), std::string::npos);
  std::string csv = ratings_csv(out);
  EXPECT_EQ(csv.rfind("rank,name,elo,err95,games,score,anchor,connected\n", 0), 0u);
  EXPECT_NE(csv.find(",a,1100.00,"), std::string::npos);
}

TEST(Ratings, BadInput) {
  std::vector<Rating> out;
  std::string err;
  EXPECT_FALSE(fit_ratings({}, RatingOptions(), out, &err));
  EXPECT_NE(err.find("no results"), std::string::npos);
  RatingOptions opt;
  opt.anchor = "nobody";
  EXPECT_FALSE(fit_ratings({{"a", "b", 1, 0, 0}}, opt, out, &err));
  EXPECT_NE(err.find("nobody"), std::string::npos);
  EXPECT_FALSE(fit_ratings({{"a", "a", 1, 0, 0}}, RatingOptions(), out, &err));
  EXPECT_FALSE(fit_ratings({{"a", "b", -1, 0, 0}}, RatingOptions(), out, &err));
}
