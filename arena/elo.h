// Match statistics: Elo from a score, 95% intervals (trinomial per game, pentanomial per color-swapped
// pair), likelihood of superiority and the GSPRT of fishtest (logistic Elo).
#pragma once
#include <cstdint>
#include <string>

namespace jz {

// Logistic Elo of a score in (0, 1); the score is clamped so that 0 and 1 give about -/+2400.
double elo_from_score(double score);
double score_from_elo(double elo);

// Wins / draws / losses from one player's view.
struct Wdl {
  int64_t w = 0, d = 0, l = 0;
  int64_t n() const { return w + d + l; }
  double score() const { return n() ? (w + 0.5 * d) / double(n()) : 0.5; }
};

// Color-swapped pairs by the points one player took from the pair: p[k] counts pairs worth k/2 points.
struct Pentanomial {
  int64_t p[5] = {0, 0, 0, 0, 0};
  int64_t n() const { return p[0] + p[1] + p[2] + p[3] + p[4]; }
  // Index from the player's points in the two games (each 0, 0.5 or 1).
  static int index(double points) { return int(points * 2 + 0.5); }
};

struct EloEstimate {
  double elo = 0, lo = 0, hi = 0;    // estimate and 95% interval
  double score = 0.5, score_se = 0;  // mean score per game and its standard error
  int64_t samples = 0;               // games (trinomial) or pairs (pentanomial)
  std::string str() const;           // "+70.4 +/- 73.3 [-2.9, 143.7]"
};

EloEstimate elo_trinomial(const Wdl& r);
EloEstimate elo_pentanomial(const Pentanomial& r);
// Probability that the player is the stronger one (normal approximation on wins vs losses).
double likelihood_of_superiority(const Wdl& r);

struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};
// "elo0,elo1[,alpha,beta]" (evaluate --sprt): false with a one-line reason for anything else, or for
// elo1 <= elo0 or an error rate outside (0, 0.5).
bool parse_sprt(const std::string& s, SprtParams& p, std::string* error);
enum class SprtState { CONTINUE, ACCEPT_H0, ACCEPT_H1 };
struct SprtStatus {
  double llr = 0, lower = 0, upper = 0;
  SprtState state = SprtState::CONTINUE;
  std::string str() const;  // "LLR 1.23 [-2.94, 2.94] continue"
};
const char* sprt_state_name(SprtState s);

// Generalized SPRT (normal approximation to the log-likelihood ratio of H1: elo1 against H0: elo0).
// Empty outcome categories get half a pseudo-count so that a few one-sided results do not decide.
SprtStatus sprt_trinomial(const Wdl& r, const SprtParams& p);
SprtStatus sprt_pentanomial(const Pentanomial& r, const SprtParams& p);

}  // namespace jz
