// `janggi-zero perft`: leaf-node counts; the last line printed is the count alone. With --fens, one line per
// FEN of a file (the count, with --moves a tab and the sorted legal moves): tests/browser/movegen_diff.mjs
// compares those with an independent generator in one process start.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"

namespace jz::app {

namespace {

struct Opts {
  std::string fen, fens, variant = "janggi";  // no FEN: the variant's start position
  int depth = 1, threads = 1;
  bool divide = false, moves = false;
  std::vector<std::string> rule_options;
};

uint64_t count_leaves(const Position& pos, int depth, int threads, bool divide) {
  if (depth == 0) return 1;
  uint64_t total = 0;
  for (auto& [m, n] : perft_divide(pos, depth, threads)) {
    if (divide) std::printf("%s: %llu\n", move_to_uci(m).c_str(), (unsigned long long)n);
    total += n;
  }
  return total;
}

// Sorted as text, so that another generator's list compares as a string.
std::string sorted_moves(const Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::string> uci;
  for (Move m : list) uci.push_back(move_to_uci(m));
  std::sort(uci.begin(), uci.end());
  std::string out;
  for (const auto& s : uci) out += (out.empty() ? "" : " ") + s;
  return out;
}

// One line per FEN; the first bad one stops the run (exit 2) naming its file and line.
int run_fens(const Opts& o, Ruleset rules, const RuleOptions& options) {
  std::ifstream in(o.fens);
  if (!in) return report_error("cannot open '" + o.fens + "'", 2);
  std::string line, err;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#') continue;
    line = line.substr(a, b - a + 1);
    Position pos;
    if (!pos.set_fen(line, rules, options, &err)) return report_error(o.fens + ":" + std::to_string(n) + ": " + err, 2);
    std::printf("%llu", (unsigned long long)count_leaves(pos, o.depth, o.threads, false));
    if (o.moves) std::printf("\t%s", sorted_moves(pos).c_str());
    std::printf("\n");
  }
  return 0;
}

}  // namespace

void add_perft(CLI::App& app, int& rc) {
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("perft", "Count leaf nodes of the move tree (verifies move generation)");
  auto* fen = cmd->add_option("--fen", o->fen, "Start position (default: standard start)");
  auto* fens = cmd->add_option("--fens", o->fens, "File of FENs, one a line (# comments): a count line for each")
                   ->excludes(fen);
  cmd->add_option("--depth", o->depth, "Depth in plies")->required()->check(CLI::Range(0, 12));
  cmd->add_option("--variant", o->variant, "Rule set: janggi, janggitraditional, janggimodern, janggicasual, xiangqi");
  cmd->add_option("--threads", o->threads, "Threads for the root split")->check(CLI::Range(1, 256));
  cmd->add_flag("--divide", o->divide, "Print the count below each root move")->excludes(fens);
  cmd->add_flag("--moves", o->moves, "With --fens: a tab and the sorted legal moves (UCI) after each count")->needs(fens);
  add_rule_option_flag(cmd, o->rule_options);
  set_command(cmd, rc, [o] {
    Ruleset rules;
    if (!parse_ruleset(o->variant, rules)) {
      return report_error("unknown variant '" + o->variant + "'", 2);
    }
    RuleOptions options;
    std::string err;
    if (!rule_options_from(o->rule_options, options, &err)) {
      return report_error(err, 2);
    }
    if (!o->fens.empty()) return run_fens(*o, rules, options);
    Position pos;
    if (!pos.set_fen(o->fen.empty() ? Position::start_fen(rules) : o->fen, rules, options, &err)) {
      return report_error(err, 2);
    }
    std::printf("%llu\n", (unsigned long long)count_leaves(pos, o->depth, o->threads, o->divide));
    return 0;
  });
}

}  // namespace jz::app
