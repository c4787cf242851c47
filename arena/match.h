// Matches between two players: paired games from the start setups (each start played twice with
// colors swapped), games in parallel, the referee ending games by our rules, live progress, Elo with
// 95% intervals, and an optional SPRT stop.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "arena/elo.h"
#include "arena/record.h"

namespace jz {

struct MatchConfig {
  std::string player1, player2;  // player specs (arena/player.h)
  int games = 2;
  int concurrency = 1;  // games in parallel; each game gets fresh player instances
  Ruleset rules = Ruleset::JANGGI;
  RuleOptions options;    // rule options of every game (players that cannot play them fail the match)
  int opening_plies = 0;  // random plies (no passes) after the setup, shared by the pair
  uint64_t seed = 1;
  int max_plies = 600;      // the referee ends longer games as a length cap (counting or draw)
  std::vector<int> setups;  // setup indices 0..15 to draw from; empty: all 16
  bool use_sprt = false;    // stop early once the SPRT decides
  SprtParams sprt;
  std::string records_path;  // JSON lines, rewritten atomically as games finish; empty: none
  bool progress = false;     // live progress line on stderr
  // Non-zero (a signal number): stop. No new game starts, games in progress are dropped after the move
  // being searched, and the finished games are rated as a shorter match (MatchResult::interrupted).
  const std::atomic<int>* stop = nullptr;
};

struct MatchResult {
  std::string name1, name2;
  Wdl wdl;            // from player1's view
  Pentanomial penta;  // complete pairs, player1's points
  EloEstimate elo_tri, elo_penta;
  double los = 0.5;
  SprtStatus sprt;  // pentanomial when pairs are complete, else trinomial
  bool sprt_stopped = false;
  bool interrupted = false;  // MatchConfig::stop ended it before all games were played
  std::vector<MatchRecord> games;  // by game index
  double seconds = 0;

  // The usual best estimate: pentanomial once there are pairs (it accounts for the shared starts).
  const EloEstimate& elo() const { return penta.n() > 0 ? elo_penta : elo_tri; }
  // Mean search effort per move of player 1 or 2 (PlayerReply::nodes) over the moves that reported it; -1: none.
  double nodes_per_move(int player) const;
  // Games that repeat an earlier one move for move with the same colours: deterministic players from the
  // same start play the same game, so such a match holds fewer distinct games than it counts.
  int repeated_games() const;
  std::string summary() const;  // multi-line human report
  std::string progress_line(int total_games) const;
};

bool run_match(const MatchConfig& config, MatchResult& out, std::string* error);

// The start position of a pair: setup FEN plus opening plies (UCI moves), reproducible from the seed.
struct Opening {
  int setup = 0;
  std::string fen;
  std::vector<Move> moves;
};
Opening make_opening(const MatchConfig& config, int pair);

}  // namespace jz
