// Texel-style tuning of the evaluation weights: a logistic fit of eval_cho to game results over quiet
// positions, with a held-out share to show that the fit generalises.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "alphabeta/eval_terms.h"

namespace jz::ab {

struct TuneSample {
  EvalTrace trace;
  float result = 0.5f;  // Cho's view: 1 win, 0.5 draw, 0 loss
  uint32_t game = 0;    // the holdout split is by game, so that no game is on both sides
};

// A position the tuner can use: not in check, no pass that ends the game, far from the move rule, and
// no capture for the side to move that plainly wins material (the static evaluation is meant to hold).
bool quiet_for_tuning(const Position& pos);

// The samples of one finished game: its quiet positions after the first skip_plies plies, labelled
// with its result (Cho's score), appended to out until it holds max_size. False at an illegal move
// (the samples before it are kept).
bool add_game_samples(const Position& start, const std::vector<Move>& moves, float result, uint32_t game,
                      int skip_plies, size_t max_size, std::vector<TuneSample>& out);

struct TuneOptions {
  int epochs = 300;
  double learning_rate = 1.0;  // Adam step in centipoints
  double l2 = 2e-7;            // pull towards the anchor weights, per centipoint^2
  double holdout = 0.1;        // share of samples kept out of the fit
  uint64_t seed = 1;
};

struct TuneReport {
  double k = 0;  // logistic scale: P(Cho wins) = 1 / (1 + exp(-k * eval_cho))
  size_t train_n = 0, holdout_n = 0;
  double train_before = 0, train_after = 0, holdout_before = 0, holdout_after = 0;  // mean squared error
  EvalWeights weights{};
};

// Fits the weights, starting from `start` and regularised towards `anchor` (full-batch Adam).
TuneReport tune_weights(const std::vector<TuneSample>& samples, const EvalWeights& start, const EvalWeights& anchor,
                        const TuneOptions& opt,
                        const std::function<void(int epoch, double train, double holdout)>& progress);

// The C++ source of eval_weights.cpp for these weights, with the provenance as a comment.
std::string weights_source(const EvalWeights& w, const std::string& provenance, GameKind game = GameKind::JANGGI);

}  // namespace jz::ab
