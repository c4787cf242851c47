// `janggi-zero uci`: the UCI engine (play/uci_session.h) on stdin/stdout.
#include <iostream>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "play/uci_session.h"

namespace jz::app {

void add_uci(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("uci", "UCI engine on stdin/stdout (network if a model is found, else alpha-beta)");
  set_command(cmd, rc, [] {
    std::ios::sync_with_stdio(false);
    run_uci(std::cin, std::cout);
    return 0;
  });
}

}  // namespace jz::app
