// janggi-zero: one binary, many subcommands (KataGo style).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "apps/commands.h"

int main(int argc, char** argv) {
  // Spinning OpenMP teams collapse throughput when threads outnumber cores; libgomp reads this
  // variable when it loads, so re-exec once with it set.
  if (!std::getenv("OMP_WAIT_POLICY")) {
    setenv("OMP_WAIT_POLICY", "passive", 1);
    execv("/proc/self/exe", argv);  // falls through on failure: correctness does not depend on it
  }
  CLI::App app{"janggi-zero: self-taught Janggi (Korean chess) engine and training system"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for all subcommands");
  int rc = 0;
  jz::app::add_perft(app, rc);
  jz::app::add_uci(app, rc);
  jz::app::add_play(app, rc);
  jz::app::add_serve(app, rc);
  jz::app::add_bench(app, rc);
  jz::app::add_evaluate(app, rc);
  jz::app::add_ratings(app, rc);
  jz::app::add_gauntlet(app, rc);
  jz::app::add_cluster(app, rc);
  jz::app::add_record(app, rc);
  jz::app::add_import(app, rc);
  jz::app::add_teach(app, rc);
  jz::app::add_tune(app, rc);
  jz::app::add_report(app, rc);
#ifdef JZ_WITH_TORCH  // the network commands: the binary's one LibTorch seam (apps/CMakeLists.txt)
  jz::app::add_selfplay(app, rc);
  jz::app::add_soak(app, rc);
  jz::app::add_train(app, rc);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return rc;
}
