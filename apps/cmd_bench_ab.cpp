// `janggi-zero bench ab`: speed of the alpha-beta engine (nodes/s, depth reached in a fixed time per
// position); with --depth, a fixed-depth search over a fixed position set whose total node count is the
// engine's signature (as Stockfish's bench: a change of behaviour changes it); with --match, a quick
// round robin between strength levels as a sanity check.
#include <time.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "alphabeta/engine.h"
#include "arena/match.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/rules.h"
#include "core/setups.h"
#include "util/random.h"

namespace jz::app {

namespace {

const char* BENCH_FENS[] = {
    Position::START_FEN,
    "r2a1a2r/4k4/c1n1c1n2/p2pb3b/3p2pp1/2P5R/1P1PN1PP1/1C2C1N2/4K4/1RBA1AB2 w - - 30 16",  // middlegame
    "3k1c3/3aa4/2n3r1c/p1B2P3/3PCP3/6p2/9/2R6/4K4/3ACA3 w - - 1 61",                       // endgame
};

// The signature set: the bench positions and three more of the 16 setups.
constexpr int SIGNATURE_SETUPS[] = {5, 10, 15};

// Fixed-depth searches over the bench and signature positions; prints each and the total node count.
int run_signature(int depth, const AbLimits& base, int hash_mb) {
  std::vector<std::string> fens(std::begin(BENCH_FENS), std::end(BENCH_FENS));
  for (int i : SIGNATURE_SETUPS) fens.push_back(setup_fen(i));
  AlphaBetaEngine engine{size_t(hash_mb)};
  uint64_t total = 0;
  double cpu = 0;
  for (const std::string& fen : fens) {
    Position pos;
    std::string err;
    if (!pos.set_fen(fen, Ruleset::JANGGI, &err)) return report_error(err, 2);
    engine.new_game();  // every position from a clean state: the count depends on nothing else
    AbLimits lim = base;
    lim.depth = depth, lim.movetime_ms = 0, lim.nodes = 0, lim.blunder_pct = 0;
    double c0 = thread_cpu_seconds();
    Move m = engine.search(pos, lim);
    cpu += thread_cpu_seconds() - c0;
    const AbInfo& i = engine.last_info();
    total += i.nodes;
    std::printf("depth %2d score %6d nodes %9llu best %-6s %s\n", i.depth, i.score_cp, (unsigned long long)i.nodes,
                move_to_uci(m).c_str(), fen.c_str());
  }
  std::printf("signature: %llu nodes at depth %d (%zu positions), %.0f nodes per CPU second\n",
              (unsigned long long)total, depth, fens.size(), cpu > 0 ? total / cpu : 0.0);
  return 0;
}

// A level spec ("expert,movetime=300") as an arena player spec ("alphabeta:level=expert,movetime=300").
std::string player_spec(const std::string& level) {
  std::string out = "alphabeta:", item;
  std::stringstream ss(level);
  for (bool first = true; std::getline(ss, item, ','); first = false)
    out += (first ? "" : ",") + (item.find('=') == std::string::npos ? "level=" + item : item);
  return out;
}

}  // namespace

void add_bench_ab(CLI::App& bench, int& rc) {
  struct Opts {
    double seconds = 1.0;
    int hash = 64, match = 0, max_plies = 300, depth = 0;
    std::string level = "version=2";
    std::vector<std::string> fens, levels = {"easy", "normal", "expert,movetime=300"};
  };
  auto o = std::make_shared<Opts>();
  auto* cmd =
      bench.add_subcommand("ab", "Alpha-beta engine: nodes/s and depth per position; --match for a level round robin");
  cmd->add_option("--seconds", o->seconds, "Search time per position")->check(CLI::Range(0.01, 3600.0));
  cmd->add_option("--hash", o->hash, "Transposition table MB")->check(CLI::Range(1, 65536));
  cmd->add_option("--depth", o->depth, "Signature: fixed-depth searches, total node count")->check(CLI::Range(1, 30));
  cmd->add_option("--level", o->level, "Engine settings for --depth and the timed search (e.g. version=1)");
  cmd->add_option("--fen", o->fens, "Positions (default: start, a middlegame, an endgame)");
  cmd->add_option("--match", o->match, "Games per pairing of --levels (0 = no match)")->check(CLI::Range(0, 10000));
  cmd->add_option("--levels", o->levels, "Level specs for the match (easy, normal, expert, depth=, movetime=, ...)");
  cmd->add_option("--max-plies", o->max_plies, "Match games longer than this are decided by counting")
      ->check(CLI::Range(10, 100000));
  set_command(cmd, rc, [o] {
    std::vector<AbLimits> levels;
    for (const std::string& s : o->levels) {
      AbLimits l;
      std::string err;
      if (!AlphaBetaEngine::parse_level(s, l, &err)) return report_error(err, 2);
      levels.push_back(l);
    }
    AbLimits base;
    std::string why;
    if (!AlphaBetaEngine::parse_level(o->level, base, &why)) return report_error(why, 2);
    if (o->depth > 0) return run_signature(o->depth, base, o->hash);
    std::vector<std::string> fens = o->fens;
    if (fens.empty()) fens.assign(std::begin(BENCH_FENS), std::end(BENCH_FENS));
    AlphaBetaEngine engine(size_t(o->hash));
    uint64_t total_nodes = 0;
    int64_t total_ms = 0;
    double total_cpu = 0;
    for (const std::string& fen : fens) {
      Position pos;
      std::string err;
      if (!pos.set_fen(fen, Ruleset::JANGGI, &err)) return report_error(err, 2);
      engine.new_game();
      AbLimits lim = base;
      lim.depth = 0, lim.nodes = 0, lim.blunder_pct = 0;
      lim.movetime_ms = int(o->seconds * 1000);
      double cpu0 = thread_cpu_seconds();
      Move m = engine.search(pos, lim);
      double cpu = thread_cpu_seconds() - cpu0;
      const AbInfo& i = engine.last_info();
      total_nodes += i.nodes;
      total_ms += i.time_ms;
      total_cpu += cpu;
      std::printf("depth %2d seldepth %2d score %6d nodes %9llu time %5d ms nps %7llu cpu-nps %7.0f best %-6s %s\n",
                  i.depth, i.seldepth, i.score_cp, (unsigned long long)i.nodes, i.time_ms,
                  (unsigned long long)(i.time_ms ? i.nodes * 1000 / i.time_ms : 0), cpu > 0 ? i.nodes / cpu : 0.0,
                  move_to_uci(m).c_str(), fen.c_str());
    }
    std::printf("total: %llu nodes in %.2f s (%.2f s CPU), %.0f nodes/s, %.0f nodes per CPU second\n",
                (unsigned long long)total_nodes, total_ms / 1000.0, total_cpu,
                total_ms ? total_nodes * 1000.0 / total_ms : 0.0, total_cpu > 0 ? total_nodes / total_cpu : 0.0);
    std::fflush(stdout);
    // The round robin: the arena's match runner (colour-swapped pairs from the setups, length cap by counting).
    for (size_t a = 0; o->match > 0 && a < o->levels.size(); ++a)
      for (size_t b = a + 1; b < o->levels.size(); ++b) {
        MatchConfig cfg;
        cfg.player1 = player_spec(o->levels[a]);
        cfg.player2 = player_spec(o->levels[b]);
        cfg.games = o->match;
        cfg.max_plies = o->max_plies;
        cfg.seed = 1000003;
        cfg.stop = &install_stop_signals();
        MatchResult r;
        std::string err;
        if (!run_match(cfg, r, &err)) return report_error(err);
        std::printf("match %s vs %s:\n%s", o->levels[a].c_str(), o->levels[b].c_str(), r.summary().c_str());
        std::fflush(stdout);
      }
    return 0;
  });
}

}  // namespace jz::app
