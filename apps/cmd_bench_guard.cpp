// `janggi-zero bench guard`: the cost of the root's mate guard (mcts/mate_search.h) on real positions,
// the match positions of a games file, for the play setting and the deeper ones it was chosen against.
// Reported as CPU milliseconds per root (mean, 99th percentile, worst) and as a share of a move's time, and
// the same for the deeper check of the one move played (SearchParams::mate_verify), with the played moves
// it proves lost.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "arena/record.h"
#include "core/movegen.h"
#include "mcts/mate_search.h"
#include "mcts/search.h"

namespace jz::app {

namespace {

struct GuardSetting {
  const char* name;
  int moves, quiet, checks;
};

int run_bench_guard(const std::string& games, int every, int limit, double movetime_ms) {
  std::vector<MatchRecord> records;
  std::string err;
  if (!read_records(games, records, &err)) return report_error(err, 2);
  std::vector<Position> roots;
  std::vector<Move> played;  // the game's move from each root
  for (const MatchRecord& r : records) {
    Position pos;
    if (!pos.set_fen(r.start_fen, r.rules, r.options, &err)) return report_error(games + ": " + err, 2);
    for (size_t i = 0; i < r.moves.size() && int(roots.size()) < limit; ++i) {
      if (!is_legal(pos, r.moves[i])) return report_error(games + ": game " + std::to_string(r.index) + " ply " +
                                                              std::to_string(i + 1) + ": illegal move", 2);
      pos.do_move(r.moves[i]);
      if ((i + 1) % every == 0 && !game_result(pos).over() && i + 1 < r.moves.size())
        roots.push_back(pos), played.push_back(r.moves[i + 1]);
    }
  }
  if (roots.empty()) return report_error(games + ": no positions", 2);
  std::printf("%zu positions (every %d plies of %zu games)\n", roots.size(), every, records.size());
  const GuardSetting settings[] = {
      {"play (3 moves, 1 quiet; 5 checks)", PLAY_MATE_GUARD, 1, PLAY_MATE_GUARD_CHECKS},
      {"3 moves, 1 quiet", 3, 1, 0},
      {"5 checks", 0, 0, 5},
      {"4 moves, 1 quiet", 4, 1, 0},
  };
  auto report = [&](const char* name, std::vector<double>& ms, const char* unit, long moves, long won, long lost) {
    std::sort(ms.begin(), ms.end());
    double mean = 0;
    for (double x : ms) mean += x / double(ms.size());
    std::printf("%-34s %7.2f ms/%s (%5.2f%% of %.0f ms), p99 %7.1f ms, worst %7.1f ms | moves %ld: won %ld, lost %ld\n",
                name, mean, unit, 100 * mean / movetime_ms, movetime_ms,
                ms[std::min(ms.size() - 1, ms.size() * 99 / 100)], ms.back(), moves, won, lost);
  };
  for (const GuardSetting& g : settings) {
    std::vector<double> ms;
    long moves = 0, won = 0, lost = 0;
    for (Position pos : roots) {
      double t0 = thread_cpu_seconds();
      MoveList list;
      generate_legal(pos, list);
      for (Move m : list) {
        int plies;
        int v = mcts::guard_verdict(pos, m, g.moves, g.quiet, g.checks, plies);
        won += v > 0, lost += v < 0;
      }
      moves += list.size;
      ms.push_back(1000 * (thread_cpu_seconds() - t0));
    }
    report(g.name, ms, "root", moves, won, lost);
  }
  // The check of the move played, without a node limit and with play's (PLAY_MATE_VERIFY_NODES): the
  // positions it visits, and the proofs the limit costs.
  for (int64_t node_limit : {int64_t(0), PLAY_MATE_VERIFY_NODES}) {
    std::vector<double> ms, nodes;
    long won = 0, lost = 0, cut = 0;
    for (size_t i = 0; i < roots.size(); ++i) {
      Position pos = roots[i];
      mcts::MateBudget budget{node_limit > 0 ? node_limit : INT64_MAX};
      const int64_t start = budget.nodes_left;
      double t0 = thread_cpu_seconds();
      int plies;
      int v = mcts::guard_verdict(pos, played[i], PLAY_MATE_VERIFY, PLAY_MATE_VERIFY_QUIET, PLAY_MATE_VERIFY_CHECKS,
                                  plies, &budget);
      ms.push_back(1000 * (thread_cpu_seconds() - t0));
      nodes.push_back(double(start - budget.nodes_left));
      won += v > 0, lost += v < 0, cut += budget.cut;
    }
    std::string name =
        node_limit > 0 ? "verify, " + std::to_string(node_limit) + " nodes" : "verify the move played (4, 2; 7)";
    std::sort(nodes.begin(), nodes.end());
    report(name.c_str(), ms, "move", long(roots.size()), won, lost);
    std::printf("%-34s nodes/move mean %.0f, p99 %.0f, worst %.0f; cut short %ld\n", "",
                std::accumulate(nodes.begin(), nodes.end(), 0.0) / double(nodes.size()),
                nodes[std::min(nodes.size() - 1, nodes.size() * 99 / 100)], nodes.back(), cut);
  }
  return 0;
}

}  // namespace

void add_bench_guard(CLI::App& bench, int& rc) {
  struct Opts {
    std::string games;
    int every = 7, limit = 100000;
    double movetime = 1000;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = bench.add_subcommand("guard", "Mate guard cost per root on the positions of a match games file");
  cmd->add_option("--games", o->games, "Games file of a match (*.games.jsonl)")->required();
  cmd->add_option("--every", o->every, "Take every Nth position of each game")->check(CLI::Range(1, 1000));
  cmd->add_option("--limit", o->limit, "At most this many positions")->check(CLI::Range(1, 10000000));
  cmd->add_option("--movetime", o->movetime, "Move time (ms) the cost is compared with")->check(CLI::Range(1.0, 1e7));
  set_command(cmd, rc, [o] { return run_bench_guard(o->games, o->every, o->limit, o->movetime); });
}

}  // namespace jz::app
