// Rating table: maximum-likelihood Bradley-Terry (logistic Elo) over pairwise results, a draw counting
// as half a win, anchored at one player, with 95% error bars from the inverse Fisher information.
#pragma once
#include <string>
#include <vector>

namespace jz {

struct PairResult {
  std::string a, b;
  double w = 0, d = 0, l = 0;  // a's wins, draws and losses against b
};

struct Rating {
  std::string name;
  double elo = 0;
  double err95 = 0;             // half width of the 95% interval, relative to the anchor
  double games = 0, score = 0;  // games played and points scored (draws 1/2)
  bool anchor = false;
  bool connected = true;  // false: no chain of games to the anchor, so no rating
};

struct RatingOptions {
  std::string anchor;  // empty: "random" if present, else the first name in order
  double anchor_elo = 0;
  // Virtual draws added to every pair that played: keeps all-win records finite (bayeselo's prior).
  double prior_draws = 1.0;
  int max_iterations = 200;
};

// Ratings sorted by Elo, best first (unconnected players last). False + *error on bad input.
bool fit_ratings(const std::vector<PairResult>& results, const RatingOptions& opt, std::vector<Rating>& out,
                 std::string* error);
std::string ratings_table(const std::vector<Rating>& r);
std::string ratings_csv(const std::vector<Rating>& r);

}  // namespace jz
