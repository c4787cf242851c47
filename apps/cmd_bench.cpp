// `janggi-zero bench ...`: speed measurements. `bench perft` times move generation.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/perft.h"
#include "util/clock.h"
#include "util/process.h"

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

namespace {

// Times `go perft depth` of a UCI engine (Fairy-Stockfish speaks UCI_Variant) on fen; the nodes it
// reports, or -1 with *error. Seconds from the command to its answer (start-up excluded).
long long reference_perft(const std::string& engine, const std::string& variant, const std::string& fen, int depth,
                          double& seconds, std::string* error) {
  Subprocess p;
  if (!p.start_piped({engine}, false, error)) return -1;
  std::string line;
  auto expect = [&](const std::string& want, double wait) {
    double deadline = now_seconds() + wait;
    while (p.read_line(line, deadline) == Subprocess::ReadStatus::LINE)
      if (line.rfind(want, 0) == 0) return true;
    return false;
  };
  p.write_line("uci");
  if (!expect("uciok", 10)) return *error = engine + " did not answer 'uci'", -1;
  p.write_line("setoption name UCI_Variant value " + variant);
  p.write_line("position fen " + fen);
  p.write_line("isready");
  if (!expect("readyok", 10)) return *error = engine + " did not answer 'isready'", -1;
  double t0 = now_seconds();
  p.write_line("go perft " + std::to_string(depth));
  if (!expect("Nodes searched", 3600)) return *error = engine + " gave no 'Nodes searched' line", -1;
  seconds = now_seconds() - t0;
  p.write_line("quit");
  return std::stoll(line.substr(line.find(':') + 1));
}

}  // namespace

void add_bench_perft(CLI::App& bench, int& rc) {
  struct Opts {
    std::string fen, suite, variant = "janggi", reference;
    int depth = 5, threads = 1, max_depth = 6;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = bench.add_subcommand("perft", "Leaf nodes per second (bulk counting), or check a perft suite");
  cmd->add_option("--fen", o->fen, "Position to time (default: the variant's start)");
  cmd->add_option("--variant", o->variant, "Rule set of --fen, and of suite rows without a variant column");
  cmd->add_option("--depth", o->depth, "Depth to time")->check(CLI::Range(1, 8));
  cmd->add_option("--threads", o->threads, "Threads (root split)")->check(CLI::Range(1, 256));
  cmd->add_option("--reference", o->reference,
                  "A UCI engine with UCI_Variant and 'go perft' (e.g. /usr/games/fairy-stockfish): timed on the "
                  "same position in the same run, one thread");
  cmd->add_option("--suite", o->suite, "TSV of 'fen depth nodes' or 'variant fen depth nodes' rows to verify");
  cmd->add_option("--max-depth", o->max_depth, "Skip suite rows deeper than this");
  set_command(cmd, rc, [o] {
    using clock = std::chrono::steady_clock;
    Ruleset default_rules;
    if (!parse_ruleset(o->variant, default_rules)) return report_error("unknown variant '" + o->variant + "'", 2);
    if (o->suite.empty()) {
      Position pos;
      std::string err, fen = o->fen.empty() ? Position::start_fen(default_rules) : o->fen;
      if (!pos.set_fen(fen, default_rules, &err)) return report_error(err, 2);
      auto t0 = clock::now();
      uint64_t n = 0;
      for (auto& kv : perft_divide(pos, o->depth, o->threads)) n += kv.second;
      double s = std::chrono::duration<double>(clock::now() - t0).count();
      std::printf("perft %s depth %d: %llu nodes in %.3f s, %.2f M nodes/s (%d thread%s)\n", o->variant.c_str(),
                  o->depth, (unsigned long long)n, s, n / s / 1e6, o->threads, o->threads > 1 ? "s" : "");
      if (o->reference.empty()) return 0;
      double rs = 0;
      long long rn = reference_perft(o->reference, o->variant, fen, o->depth, rs, &err);
      if (rn < 0) return report_error(err, 2);
      std::printf("reference %s: %lld nodes in %.3f s, %.2f M nodes/s; ours is %.2fx its speed%s\n",
                  o->reference.c_str(), rn, rs, rn / rs / 1e6, (n / s) / (rn / rs),
                  uint64_t(rn) == n ? "" : " (NODE COUNTS DIFFER)");
      return uint64_t(rn) == n ? 0 : 1;
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
      std::string variant = c.size() >= 4 ? c[0] : o->variant;
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
