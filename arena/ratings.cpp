#include "arena/ratings.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>

#include "util/log.h"

namespace jz {

namespace {

// Every player's index (in name order) and the anchor: the given one, else "random" where it played,
// else the first name. False on a bad result or an anchor that played no games.
bool index_players(const std::vector<PairResult>& results, const RatingOptions& opt, std::map<std::string, int>& index,
                   std::vector<std::string>& names, std::string& anchor, std::string* error) {
  for (auto& r : results) {
    if (r.a.empty() || r.b.empty() || r.a == r.b || r.w < 0 || r.d < 0 || r.l < 0) {
      *error = "bad result '" + r.a + "' vs '" + r.b + "'";
      return false;
    }
    index.emplace(r.a, 0);
    index.emplace(r.b, 0);
  }
  if (index.empty()) {
    *error = "no results to rate";
    return false;
  }
  int n = 0;
  for (auto& [name, i] : index) i = n++, names.push_back(name);
  anchor = opt.anchor.empty() ? (index.count("random") ? "random" : names[0]) : opt.anchor;
  if (!index.count(anchor)) {
    *error = "anchor '" + anchor + "' played no games";
    return false;
  }
  return true;
}

// Players reachable from the anchor through games; the rest cannot be rated against it.
std::vector<bool> reachable(const Eigen::MatrixXd& N, int root) {
  int n = int(N.rows());
  std::vector<bool> reach(size_t(n), false);
  std::vector<int> stack = {root};
  reach[size_t(root)] = true;
  while (!stack.empty()) {
    int i = stack.back();
    stack.pop_back();
    for (int j = 0; j < n; ++j)
      if (N(i, j) > 0 && !reach[size_t(j)]) reach[size_t(j)] = true, stack.push_back(j);
  }
  return reach;
}

// Maximum likelihood by Newton's method over the free players' ratings r (var: each player's variable,
// -1 for the fixed ones; free: the player of each variable); info ends as the negative Hessian of the
// log-likelihood at the optimum.
bool newton_fit(const Eigen::MatrixXd& N, const Eigen::MatrixXd& S, const std::vector<int>& var,
                const std::vector<int>& free, int max_iterations, Eigen::VectorXd& r, Eigen::MatrixXd& info,
                std::string* error) {
  const double c = std::log(10.0) / 400.0;
  int n = int(N.rows()), m = int(free.size());
  for (int it = 0; it < max_iterations && m > 0; ++it) {
    Eigen::VectorXd g = Eigen::VectorXd::Zero(m);
    info.setZero();
    for (int i = 0; i < n; ++i) {
      if (var[size_t(i)] < 0) continue;
      int vi = var[size_t(i)];
      for (int j = 0; j < n; ++j) {
        if (N(i, j) <= 0) continue;
        double p = 1.0 / (1.0 + std::exp(-c * (r(i) - r(j))));
        g(vi) += c * (S(i, j) - N(i, j) * p);
        double h = c * c * N(i, j) * p * (1 - p);
        info(vi, vi) += h;
        if (var[size_t(j)] >= 0) info(vi, var[size_t(j)]) -= h;
      }
    }
    Eigen::VectorXd step = info.ldlt().solve(g);
    double biggest = step.cwiseAbs().maxCoeff();
    if (!std::isfinite(biggest)) {
      *error = "rating fit failed (singular information matrix)";
      return false;
    }
    if (biggest > 400) step *= 400 / biggest;  // damp early steps far from the optimum
    for (int k = 0; k < m; ++k) r(free[size_t(k)]) += step(k);
    if (biggest < 1e-7) break;
  }
  return true;
}

}  // namespace

bool fit_ratings(const std::vector<PairResult>& results, const RatingOptions& opt, std::vector<Rating>& out,
                 std::string* error) {
  out.clear();
  std::map<std::string, int> index;
  std::vector<std::string> names;
  std::string anchor;
  if (!index_players(results, opt, index, names, anchor, error)) return false;
  int n = int(names.size());
  // Games (N) and points (S) per ordered pair, the prior included.
  Eigen::MatrixXd N = Eigen::MatrixXd::Zero(n, n), S = Eigen::MatrixXd::Zero(n, n);
  out.resize(size_t(n));
  for (auto& r : results) {
    int a = index[r.a], b = index[r.b];
    double games = r.w + r.d + r.l, pts = r.w + 0.5 * r.d;
    N(a, b) += games, N(b, a) += games;
    S(a, b) += pts, S(b, a) += games - pts;
    out[size_t(a)].games += games, out[size_t(a)].score += pts;
    out[size_t(b)].games += games, out[size_t(b)].score += games - pts;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (N(i, j) > 0) N(i, j) += opt.prior_draws, S(i, j) += opt.prior_draws / 2;

  int root = index[anchor];
  std::vector<bool> reach = reachable(N, root);
  std::vector<int> free;  // variables: reachable players except the anchor
  std::vector<int> var(size_t(n), -1);
  for (int i = 0; i < n; ++i)
    if (reach[size_t(i)] && i != root) var[size_t(i)] = int(free.size()), free.push_back(i);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(n);
  int m = int(free.size());
  Eigen::MatrixXd info(m, m);
  if (!newton_fit(N, S, var, free, opt.max_iterations, r, info, error)) return false;

  Eigen::MatrixXd cov = m > 0 ? Eigen::MatrixXd(info.inverse()) : Eigen::MatrixXd();
  for (int i = 0; i < n; ++i) {
    Rating& x = out[size_t(i)];
    x.name = names[size_t(i)];
    x.anchor = i == root;
    x.connected = reach[size_t(i)];
    x.elo = opt.anchor_elo + r(i);
    x.err95 = var[size_t(i)] >= 0 ? 1.959963984540054 * std::sqrt(cov(var[size_t(i)], var[size_t(i)])) : 0;
  }
  std::sort(out.begin(), out.end(), [](const Rating& a, const Rating& b) {
    if (a.connected != b.connected) return a.connected;
    return a.elo > b.elo;
  });
  return true;
}

std::string ratings_table(const std::vector<Rating>& rs) {
  size_t w = 4;
  for (auto& r : rs) w = std::max(w, r.name.size());
  std::string s =
      format_string("%4s  %-*s  %8s  %7s  %7s  %6s\n", "rank", int(w), "name", "elo", "+/-95%", "games", "score");
  int rank = 0;
  for (auto& r : rs) {
    std::string elo = r.connected ? format_string("%8.1f", r.elo) : "       -";
    std::string err = r.anchor ? "(anchor)" : r.connected ? format_string("%7.1f", r.err95) : "      -";
    s += format_string("%4d  %-*s  %s  %7s  %7.0f  %5.1f%%\n", ++rank, int(w), r.name.c_str(), elo.c_str(), err.c_str(),
                       r.games, r.games > 0 ? 100 * r.score / r.games : 0.0);
  }
  return s;
}

std::string ratings_csv(const std::vector<Rating>& rs) {
  std::string s = "rank,name,elo,err95,games,score,anchor,connected\n";
  int rank = 0;
  for (auto& r : rs) {
    std::string name = r.name;
    bool quote = name.find_first_of(",\"\n") != std::string::npos;
    if (quote) {
      std::string q = "\"";
      for (char ch : name) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      name = q + "\"";
    }
    s += format_string("%d,%s,%.2f,%.2f,%.1f,%.1f,%d,%d\n", ++rank, name.c_str(), r.elo, r.err95, r.games, r.score,
                       int(r.anchor), int(r.connected));
  }
  return s;
}

}  // namespace jz
