#include "arena/elo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace jz {

namespace {

constexpr double Z95 = 1.959963984540054;

// Mean and variance of a discrete distribution given by counts over values.
void moments(const double* counts, const double* values, int k, double& mean, double& var, double& n) {
  n = 0, mean = 0, var = 0;
  for (int i = 0; i < k; ++i) n += counts[i], mean += counts[i] * values[i];
  if (n <= 0) return;
  mean /= n;
  for (int i = 0; i < k; ++i) var += counts[i] * (values[i] - mean) * (values[i] - mean);
  var /= n;
}

EloEstimate estimate(const double* counts, const double* values, int k) {
  EloEstimate e;
  double n;
  double var;
  moments(counts, values, k, e.score, var, n);
  e.samples = int64_t(n);
  if (n <= 0) {
    e.score = 0.5;
    return e;
  }
  e.score_se = std::sqrt(var / n);
  e.elo = elo_from_score(e.score);
  e.lo = elo_from_score(e.score - Z95 * e.score_se);
  e.hi = elo_from_score(e.score + Z95 * e.score_se);
  return e;
}

SprtStatus sprt(const double* raw, const double* values, int k, const SprtParams& p) {
  SprtStatus s;
  s.lower = std::log(p.beta / (1 - p.alpha));
  s.upper = std::log((1 - p.beta) / p.alpha);
  double counts[5], total = 0;
  for (int i = 0; i < k; ++i) total += raw[i];
  if (total == 0) return s;
  for (int i = 0; i < k; ++i) counts[i] = raw[i] > 0 ? raw[i] : 0.5;
  double mean, var, n;
  moments(counts, values, k, mean, var, n);
  double s0 = score_from_elo(p.elo0), s1 = score_from_elo(p.elo1);
  // LLR of N normal samples with the observed variance: N * (s1 - s0) * (2 mean - s0 - s1) / (2 var).
  s.llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
  s.state = s.llr >= s.upper ? SprtState::ACCEPT_H1 : s.llr <= s.lower ? SprtState::ACCEPT_H0 : SprtState::CONTINUE;
  return s;
}

}  // namespace

double elo_from_score(double score) {
  score = std::clamp(score, 1e-6, 1 - 1e-6);
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

std::string EloEstimate::str() const {
  char buf[96];
  // A perfect (or nil) score has no finite estimate; say so instead of printing the clamp.
  if (samples > 0 && (score >= 1 || score <= 0)) return score >= 1 ? "+inf (all won)" : "-inf (all lost)";
  std::snprintf(buf, sizeof buf, "%+.1f +/- %.1f [%+.1f, %+.1f]", elo, (hi - lo) / 2, lo, hi);
  return buf;
}

EloEstimate elo_trinomial(const Wdl& r) {
  const double counts[3] = {double(r.l), double(r.d), double(r.w)};
  const double values[3] = {0, 0.5, 1};
  return estimate(counts, values, 3);
}

EloEstimate elo_pentanomial(const Pentanomial& r) {
  double counts[5];
  const double values[5] = {0, 0.25, 0.5, 0.75, 1};  // per-game score of each pair outcome
  for (int i = 0; i < 5; ++i) counts[i] = double(r.p[i]);
  return estimate(counts, values, 5);
}

double likelihood_of_superiority(const Wdl& r) {
  if (r.w + r.l == 0) return 0.5;
  return 0.5 * (1 + std::erf(double(r.w - r.l) / std::sqrt(2.0 * double(r.w + r.l))));
}

const char* sprt_state_name(SprtState s) {
  return s == SprtState::ACCEPT_H1 ? "H1 accepted" : s == SprtState::ACCEPT_H0 ? "H0 accepted" : "continue";
}

std::string SprtStatus::str() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "LLR %.2f [%.2f, %.2f] %s", llr, lower, upper, sprt_state_name(state));
  return buf;
}

SprtStatus sprt_trinomial(const Wdl& r, const SprtParams& p) {
  const double counts[3] = {double(r.l), double(r.d), double(r.w)};
  const double values[3] = {0, 0.5, 1};
  return sprt(counts, values, 3, p);
}

SprtStatus sprt_pentanomial(const Pentanomial& r, const SprtParams& p) {
  double counts[5];
  const double values[5] = {0, 0.25, 0.5, 0.75, 1};
  for (int i = 0; i < 5; ++i) counts[i] = double(r.p[i]);
  return sprt(counts, values, 5, p);
}

bool parse_sprt(const std::string& s, SprtParams& p, std::string* error) {
  std::vector<double> v;
  std::istringstream is(s);
  for (std::string tok; std::getline(is, tok, ',');) {
    try {
      size_t used = 0;
      v.push_back(std::stod(tok, &used));
      if (used != tok.size()) throw std::invalid_argument(tok);
    } catch (const std::exception&) {
      *error = "--sprt: '" + tok + "' is not a number (expected elo0,elo1[,alpha,beta])";
      return false;
    }
  }
  if (v.size() != 2 && v.size() != 4) {
    *error = "--sprt: expected elo0,elo1[,alpha,beta], got '" + s + "'";
    return false;
  }
  p.elo0 = v[0], p.elo1 = v[1];
  if (v.size() == 4) p.alpha = v[2], p.beta = v[3];
  if (!(p.elo1 > p.elo0) || !(p.alpha > 0 && p.alpha < 0.5) || !(p.beta > 0 && p.beta < 0.5)) {
    *error = "--sprt: need elo0 < elo1 and alpha, beta in (0, 0.5)";
    return false;
  }
  return true;
}

}  // namespace jz
