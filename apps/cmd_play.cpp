// `janggi-zero play`: a game against the network or the alpha-beta levels in the terminal
// (play/terminal_game.h; scripted in tests/play/play_terminal_test.sh and test_terminal_game.cpp).
#include <unistd.h>

#include <iostream>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "play/terminal_game.h"

namespace jz::app {

void add_play(CLI::App& app, int& rc) {
  auto a = std::make_shared<TerminalOptions>();
  auto rule_options = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("play", "Play a game in the terminal against the network or alpha-beta");
  cmd->add_option("--side", a->side,
                  "Your side: cho (moves first), han, both (two people), none (engine vs engine); in xiangqi "
                  "also red (moves first), black")
      ->capture_default_str();
  cmd->add_option(
         "--cho-setup", a->cho_setup,
         "Cho's setup: inner, outer, left, right (안상, 바깥상, 왼상, 오른상); elephant-chariot with that rule option")
      ->capture_default_str();
  cmd->add_option("--han-setup", a->han_setup, "Han's setup")->capture_default_str();
  cmd->add_option("--rules,--variant", a->rules,
                  "Rule set: janggi, janggitraditional, janggimodern, janggicasual, xiangqi (moves in UCI, Chinese "
                  "炮二平五 or WXF C2.5; alpha-beta only)")
      ->capture_default_str();
  cmd->add_option("--opponent", a->opponent,
                  "net (the model), easy, normal, expert (alpha-beta); default: the network if models/latest.json "
                  "shows it beats expert at the same time per move, else expert");
  cmd->add_option("--model", a->model, "Network file (default: models/latest.jzn next to the binary or repo)");
  cmd->add_option("--sims", a->sims, "Network: simulations per move")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--movetime", a->movetime, "Milliseconds per engine move (overrides the level)")
      ->check(CLI::Range(1, 3600000));
  cmd->add_option("--threads", a->threads, "Network: search threads")->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--load", a->load, "Continue a saved game record");
  add_rule_option_flag(cmd, *rule_options);
  cmd->add_flag("--ascii", a->ascii, "Letters instead of Hanja, no box drawing");
  cmd->add_flag("--hangul", a->hangul, "Hangul piece names instead of Hanja");
  cmd->add_flag("--color", a->color, "ANSI colors even when stdout is not a terminal");
  cmd->add_flag("--no-color", a->no_color, "No ANSI colors");
  set_command(cmd, rc, [a, rule_options] {
    TerminalOptions o = *a;
    o.stdout_is_terminal = isatty(STDOUT_FILENO);
    std::string err;
    if (!rule_options_from(*rule_options, o.rule_options, &err)) return report_error(err);
    TerminalGame g(o, std::cin, std::cout);
    return exit_code(g.run(&err), err);
  });
}

}  // namespace jz::app
