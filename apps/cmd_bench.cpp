// `janggi-zero bench ...`: speed measurements. `bench perft` times move generation.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/perft.h"

namespace jz::app {

void add_bench(CLI::App& app, int& rc) {
  auto* bench = app.add_subcommand("bench", "Benchmarks");
  bench->require_subcommand(1);
  add_bench_perft(*bench, rc);
  add_bench_mcts(*bench, rc);
  add_bench_guard(*bench, rc);
  add_bench_ab(*bench, rc);
#ifdef JZ_WITH_TORCH
  add_bench_nn(*bench, rc);
  add_bench_train(*bench, rc);
#endif
  add_bench_import(*bench, rc);
}

void add_bench_perft(CLI::App& bench, int& rc) {
  struct Opts {
    std::string fen = Position::START_FEN, suite;
    int depth = 5, threads = 1, max_depth = 6;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = bench.add_subcommand("perft", "Leaf nodes per second (bulk counting), or check a perft suite");
  cmd->add_option("--fen", o->fen, "Position to time");
  cmd->add_option("--depth", o->depth, "Depth to time")->check(CLI::Range(1, 8));
  cmd->add_option("--threads", o->threads, "Threads (root split)")->check(CLI::Range(1, 256));
  cmd->add_option("--suite", o->suite, "TSV of 'fen depth nodes' or 'variant fen depth nodes' rows to verify");
  cmd->add_option("--max-depth", o->max_depth, "Skip suite rows deeper than this");
  set_command(cmd, rc, [o] {
    using clock = std::chrono::steady_clock;
    if (o->suite.empty()) {
      Position pos;
      std::string err;
      if (!pos.set_fen(o->fen, Ruleset::JANGGI, &err)) return report_error(err, 2);
      auto t0 = clock::now();
      uint64_t n = 0;
      for (auto& kv : perft_divide(pos, o->depth, o->threads)) n += kv.second;
      double s = std::chrono::duration<double>(clock::now() - t0).count();
      std::printf("perft depth %d: %llu nodes in %.3f s, %.2f M nodes/s (%d thread%s)\n", o->depth,
                  (unsigned long long)n, s, n / s / 1e6, o->threads, o->threads > 1 ? "s" : "");
      return 0;
    }
    std::ifstream in(o->suite);
    if (!in) return report_error("cannot open suite '" + o->suite + "'", 2);
    std::string line;
    int rows = 0, bad = 0, skipped = 0;
    uint64_t nodes = 0;
    auto t0 = clock::now();
    while (std::getline(in, line)) {
      std::vector<std::string> c;
      std::stringstream ss(line);
      std::string col;
      while (std::getline(ss, col, '\t')) c.push_back(col);
      if (c.size() < 3 || c[0] == "fen" || c[0] == "variant") continue;
      std::string variant = c.size() >= 4 ? c[0] : "janggi";
      size_t base = c.size() >= 4 ? 1 : 0;
      Ruleset rules;
      if (!parse_ruleset(variant, rules)) return report_error("unknown variant '" + variant + "'", 2);
      int depth = std::stoi(c[base + 1]);
      if (depth > o->max_depth) {
        ++skipped;
        continue;
      }
      Position pos;
      std::string err;
      if (!pos.set_fen(c[base], rules, &err)) return report_error(err, 2);
      uint64_t got = 0;
      for (auto& kv : perft_divide(pos, depth, o->threads)) got += kv.second;
      uint64_t want = std::stoull(c[base + 2]);
      nodes += got;
      ++rows;
      if (got != want) {
        ++bad;
        std::printf("MISMATCH %s %s depth %d: got %llu, expected %llu\n", variant.c_str(), c[base].c_str(), depth,
                    (unsigned long long)got, (unsigned long long)want);
      }
    }
    double s = std::chrono::duration<double>(clock::now() - t0).count();
    std::printf("%d rows checked, %d mismatches, %d skipped (deeper than %d); %llu nodes in %.1f s\n", rows, bad,
                skipped, o->max_depth, (unsigned long long)nodes, s);
    return bad ? 1 : 0;
  });
}

}  // namespace jz::app
