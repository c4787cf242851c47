// `janggi-zero ratings`: Bradley-Terry rating table over every match result in a directory.
#include <cstdio>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "arena/ratings.h"
#include "arena/results.h"
#include "util/fileio.h"

namespace jz::app {

void add_ratings(CLI::App& app, int& rc) {
  struct Opts {
    std::string dir, anchor, csv, variant = "janggi";
    double anchor_elo = 0, prior = 1;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("ratings", "Rating table (Bradley-Terry, 95% error bars) from stored match results");
  cmd->add_option("--dir", o->dir, "Results store directory (as given to evaluate --out)")->required();
  cmd->add_option("--anchor", o->anchor, "Player fixed at --anchor-elo (default: random if present)");
  cmd->add_option("--anchor-elo", o->anchor_elo, "Rating of the anchor (default 0)");
  cmd->add_option("--prior", o->prior, "Virtual draws added per pairing (keeps perfect scores finite)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--csv", o->csv, "CSV output path (default DIR/ratings.csv)");
  cmd->add_option("--variant", o->variant, "Rate this game's matches: any Janggi rule set (default), or xiangqi");
  set_command(cmd, rc, [o] {
    std::vector<PairResult> results;
    int files = 0;
    std::string err;
    Ruleset rules;
    if (!parse_ruleset(o->variant, rules)) return report_error("unknown variant '" + o->variant + "'", 2);
    int other = 0;
    if (!load_results(o->dir, results, &files, &err, game_of(rules), &other)) {
      return report_error(err);
    }
    if (other) std::printf("%d matches of the other game left out (--variant)\n", other);
    RatingOptions opt;
    opt.anchor = o->anchor;
    opt.anchor_elo = o->anchor_elo;
    opt.prior_draws = o->prior;
    std::vector<Rating> table;
    if (!fit_ratings(results, opt, table, &err)) {
      return report_error(err + " (" + std::to_string(files) + " result files in " + o->dir + ")");
    }
    std::string csv = o->csv.empty() ? o->dir + "/ratings.csv" : o->csv;
    if (!write_file_atomic(csv, ratings_csv(table), &err)) {
      return report_error(err);
    }
    std::printf("%d matches from %s\n%s", files, o->dir.c_str(), ratings_table(table).c_str());
    for (auto& r : table)
      if (!r.connected) {
        std::printf("(players marked - have no chain of games to the anchor)\n");
        break;
      }
    std::printf("CSV: %s\n", csv.c_str());
    return 0;
  });
}

}  // namespace jz::app
