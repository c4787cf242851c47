// `janggi-zero report`: HTML page with the charts of a run directory (training/report.h).
#include <cstdio>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "training/report.h"
#include "training/report_compare.h"

namespace jz::app {

void add_report(CLI::App& app, int& rc) {
  struct Opts {
    std::vector<std::string> run_dirs;
    std::string out;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report (losses, games, strength) of a run");
  cmd->add_option("--run-dir", o->run_dirs, "Run directory; give it several times to compare runs against CPU hours")
      ->required();
  cmd->add_option("--out", o->out, "Output file (default RUN/report.html; with several runs required, plus a .csv)");
  set_command(cmd, rc, [o] {
    std::string err;
    if (o->run_dirs.size() > 1 && o->out.empty())
      err = "--out FILE is required with several --run-dir";
    else if (o->run_dirs.size() > 1)
      write_comparison(o->run_dirs, o->out, &err);
    else
      write_report(o->run_dirs[0], o->out, &err);
    if (!err.empty()) {
      return report_error(err, 1);
    }
    std::printf("%s\n", (o->out.empty() ? o->run_dirs[0] + "/report.html" : o->out).c_str());
    return 0;
  });
}

}  // namespace jz::app
