// janggi-zero: one binary, many subcommands (KataGo style).
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "apps/commands.h"

// LibTorch allocates and frees blocks of hundreds of KB to a few MB at every forward pass and training
// step. With glibc's defaults they are mmap'ed and unmapped, or the heap's top is trimmed after them,
// so every step faults its memory in again: fp32 inference at batch 16-128 ran at a third of batch 8's
// rate and jumped between runs (docs/training/allocator.md). Such blocks stay in the heap, and the heap
// keeps up to 256 MB of free top, for every command. Both settings are needed: either alone does not help.
static void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

int main(int argc, char** argv) {
  keep_freed_memory();
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
