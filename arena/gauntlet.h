// The learning curve: a run's exported networks (models/net-<step>.jzn), each rated against the
// same fixed opponents (random, alpha-beta levels, a UCI engine) with the same openings, so that
// successive networks are comparable. Results go to <eval_dir>/store (the results store that
// `ratings` reads) and one row per match to <eval_dir>/gauntlet.csv, the eval CSV contract that
// `report` plots: network,step,games,opponent,score,elo,elo_lo,elo_hi.
// A finished (network, opponent) pair leaves <eval_dir>/done/<network>@<opponent>, so a restarted
// gauntlet continues where it stopped.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/types.h"

namespace jz {

struct GauntletOptions {
  std::string models_dir;               // net-<step>.jzn files
  std::string eval_dir;                 // store/, done/, gauntlet.csv
  std::vector<std::string> opponents;   // player specs (arena/player.h)
  std::string net_options = "sims=64";  // appended to "net:PATH," for the rated network
  int games = 20;                       // per (network, opponent), in color-swapped pairs
  int concurrency = 1;
  Ruleset rules = Ruleset::JANGGI;  // the game and rule set of every match (the run's self-play rules)
  int opening_plies = 4;           // random plies after the setup, shared by a pair
  int max_plies = 600;         // the referee's length cap (decided by counting)
  int64_t every = 0;           // rate steps that are multiples of this (0: every network)
  bool latest = false;         // also rate the newest network whatever its step
  std::vector<int64_t> steps;  // non-empty: rate exactly these steps (every/latest ignored)
  uint64_t seed = 1;           // the same openings for every network
  bool progress = false;       // live match progress on stderr
};

// Splits "spec; spec; ..." (specs may hold commas, so ';' separates them). Empty items are dropped.
std::vector<std::string> split_opponents(const std::string& list);

// Checks the options and every opponent spec; false with a one-line reason.
bool check_gauntlet(const GauntletOptions& o, std::string* error);

// Networks still to rate, newest first, as (step, path).
std::vector<std::pair<int64_t, std::string>> gauntlet_pending(const GauntletOptions& o);
// Exported networks in models_dir as (step, path), oldest first.
std::vector<std::pair<int64_t, std::string>> exported_networks(const std::string& models_dir);
// For each mark (e.g. CPU hours), the step of the newest network exported when the run's measure first
// reached it: `steps` and `measure` are a metrics log's columns (rising), `nets` the exported steps.
// Marks the run never reached are left out.
std::vector<int64_t> steps_at_marks(const std::vector<double>& marks, const std::vector<double>& steps,
                                    const std::vector<double>& measure, const std::vector<int64_t>& nets);

// Rates the newest pending network against every opponent it has not met. Returns the number of
// matches played (0: nothing pending), -1 on an error (with *error). `log` receives one line per match.
int gauntlet_step(const GauntletOptions& o, const std::function<void(const std::string&)>& log, std::string* error);

}  // namespace jz
