// Self-play options and their config file keys (util/config.h YAML subset). Every key is listed in
// configs/selfplay.yaml; unknown keys are rejected by the command.
#pragma once
#include <string>
#include <vector>

#include "core/types.h"
#include "mcts/search.h"
#include "util/config.h"

namespace jz {

struct SelfPlayOptions {
  // Games.
  Ruleset ruleset = Ruleset::JANGGI;
  std::vector<double> setup_weights = std::vector<double>(16, 1.0);  // by setup index (Janggi: cho * 4 + han;
                                                                      // one per start position of the game)
  int random_opening_plies = 0;  // up to this many uniformly random plies (no passes) before searching
  int max_plies = 400;           // hard cap; adjudicated by counting (Ending::LENGTH_CAP)

  // Concurrency: each worker thread runs this many games and gathers this many leaves per game per round.
  int games_per_thread = 32;
  int leaves_per_game = 4;
  int games_per_chunk = 32;

  // Search.
  SearchParams search;             // base parameters (simulations is set per move below)
  int full_simulations = 200;      // playout cap randomisation: full searches (policy targets)
  int cheap_simulations = 40;      //   and cheap ones (not targets)
  double full_fraction = 0.25;     //   probability that a move gets a full search
  double temperature_start = 1.0;  // move temperature T(ply) = end + (start - end) * 0.5^(ply / halflife)
  double temperature_end = 0.1;
  double temperature_halflife = 20;
  // Gumbel roots: full searches play the Gumbel-sampled action for this many plies, then the best
  // action of the improved policy (-1: always sample).
  int gumbel_sample_plies = -1;
  // No pass before this ply unless it is the only move or answers bikjang (0 = passes always allowed).
  int no_pass_before_ply = 0;

  // Resignation: the side to move resigns after `consecutive` of its own searches with root Q below
  // -threshold; a fraction of games has resignation off to measure false resignations.
  bool resign = true;
  double resign_threshold = 0.95;
  int resign_consecutive = 3;
  int resign_min_ply = 20;
  double resign_playout_fraction = 0.1;

  // Network (used by the command): device, precision, batching.
  std::string device = "auto";
  std::string precision = "fp32";
  int eval_batch = 256;
  int eval_wait_us = 2000;
  int eval_servers = 1;
  int eval_cache = 0;
  std::string random_network = "6x64";  // architecture of the random network when no model exists
  double model_poll_seconds = 30;
  double metrics_seconds = 30;
  uint64_t seed = 0;  // 0 = from the clock
};

// Reads the options from cfg (missing keys keep their defaults). False with a one-line reason on a
// bad value. Does not check for unknown keys (the caller does, after reading everything).
bool load_selfplay_options(const Config& cfg, SelfPlayOptions& out, std::string* error);
// Reads search.* keys into params (shared with other commands that search).
void load_search_params(const Config& cfg, const std::string& prefix, SearchParams& params);
// Move temperature at a ply.
double temperature_at(const SelfPlayOptions& o, int ply);

}  // namespace jz
