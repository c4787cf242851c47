// `janggi-zero report`: HTML page with the charts of a run directory (training/report.h).
#include <cstdio>
#include <memory>

#include "apps/commands.h"
#include "training/report.h"

namespace jz::app {

void add_report(CLI::App& app, int& rc) {
  struct Opts {
    std::string run_dir, out;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report (losses, games, strength) of a run");
  cmd->add_option("--run-dir", o->run_dir, "Run directory")->required();
  cmd->add_option("--out", o->out, "Output file (default RUN/report.html)");
  cmd->callback([o, &rc] {
    std::string err;
    if (!write_report(o->run_dir, o->out, &err)) {
      std::fprintf(stderr, "error: %s\n", err.c_str());
      rc = 1;
      return;
    }
    std::printf("%s\n", (o->out.empty() ? o->run_dir + "/report.html" : o->out).c_str());
  });
}

}  // namespace jz::app
