// `janggi-zero perft`: leaf-node counts; the last line printed is the count alone.
#include <cstdio>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/notation.h"
#include "core/perft.h"

namespace jz::app {

void add_perft(CLI::App& app, int& rc) {
  struct Opts {
    std::string fen, variant = "janggi";  // no FEN: the variant's start position
    int depth = 1, threads = 1;
    bool divide = false;
    std::vector<std::string> rule_options;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("perft", "Count leaf nodes of the move tree (verifies move generation)");
  cmd->add_option("--fen", o->fen, "Start position (default: standard start)");
  cmd->add_option("--depth", o->depth, "Depth in plies")->required()->check(CLI::Range(0, 12));
  cmd->add_option("--variant", o->variant, "Rule set: janggi, janggitraditional, janggimodern, janggicasual, xiangqi");
  cmd->add_option("--threads", o->threads, "Threads for the root split")->check(CLI::Range(1, 256));
  cmd->add_flag("--divide", o->divide, "Print the count below each root move");
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
    Position pos;
    if (!pos.set_fen(o->fen.empty() ? Position::start_fen(rules) : o->fen, rules, options, &err)) {
      return report_error(err, 2);
    }
    uint64_t total = 0;
    if (o->depth == 0) {
      total = 1;
    } else {
      for (auto& [m, n] : perft_divide(pos, o->depth, o->threads)) {
        if (o->divide) std::printf("%s: %llu\n", move_to_uci(m).c_str(), (unsigned long long)n);
        total += n;
      }
    }
    std::printf("%llu\n", (unsigned long long)total);
    return 0;
  });
}

}  // namespace jz::app
