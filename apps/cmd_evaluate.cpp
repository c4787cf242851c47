// `janggi-zero evaluate`: a match between two players (arena/player.h specs); prints W/D/L and Elo,
// and stores the result and the game records in the results store read by `janggi-zero ratings`.
// SIGINT/SIGTERM stop it: games in progress are dropped, the finished ones are rated and stored as an
// interrupted match (exit status 130); a second signal ends the process at once.
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "arena/match.h"
#include "arena/player.h"
#include "arena/results.h"

namespace jz::app {


void add_evaluate(CLI::App& app, int& rc) {
  struct Opts {
    std::string p1, p2, variant = "janggi", sprt, out = "arena-results";
    int games = 2, concurrency = 1, openings = 0, max_plies = 600;
    int64_t seed = -1;
    bool quiet = false;
    std::vector<std::string> rule_options;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("evaluate", "Play a match between two players and rate it");
  cmd->add_option("--player1", o->p1,
                  "Player spec: random, alphabeta:level=easy|normal|expert (or depth=/nodes=/movetime=), "
                  "uci:PATH [ARGS][,Option=Value], net:PATH[,sims=N|movetime=MS]; name=NAME names it")
      ->required();
  cmd->add_option("--player2", o->p2, "Player spec (the opponent; Elo is player1's)")->required();
  cmd->add_option("--games", o->games, "Games (pairs of color-swapped games from the same start)")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--concurrency", o->concurrency, "Games played in parallel")->check(CLI::Range(1, 1024));
  cmd->add_option("--variant", o->variant, "Rule set: janggi, janggitraditional, janggimodern, janggicasual, xiangqi");
  cmd->add_option("--sprt", o->sprt, "Stop early by SPRT: elo0,elo1[,alpha,beta] (default alpha = beta = 0.05)");
  cmd->add_option("--out", o->out, "Results store directory (default arena-results)");
  cmd->add_option("--seed", o->seed, "Seed for openings and randomized players (default: from the clock)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--openings", o->openings, "Random opening plies after the setup, shared by each pair")
      ->check(CLI::Range(0, 200));
  cmd->add_option("--max-plies", o->max_plies, "Referee's length cap (decided by counting or drawn)")
      ->check(CLI::Range(10, 100000));
  cmd->add_flag("--quiet", o->quiet, "No live progress line");
  add_rule_option_flag(cmd, o->rule_options);
  set_command(cmd, rc, [o] {
    MatchConfig cfg;
    cfg.player1 = o->p1;
    cfg.player2 = o->p2;
    cfg.games = o->games;
    cfg.concurrency = o->concurrency;
    cfg.opening_plies = o->openings;
    cfg.max_plies = o->max_plies;
    cfg.progress = !o->quiet;
    cfg.seed = o->seed >= 0 ? uint64_t(o->seed)
                            : uint64_t(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000007;
    std::string err;
    if (!parse_ruleset(o->variant, cfg.rules)) {
      return report_error("unknown variant '" + o->variant + "' (janggi, janggitraditional, janggimodern, janggicasual, xiangqi)");
    }
    if (!rule_options_from(o->rule_options, cfg.options, &err)) {
      return report_error(err);
    }
    if (!o->sprt.empty()) {
      cfg.use_sprt = true;
      if (!parse_sprt(o->sprt, cfg.sprt, &err)) {
        return report_error(err);
      }
    }
    // Check the specs before creating anything on disk.
    MatchResult r;
    PlayerSpec s1, s2;
    if (!check_player_spec(cfg.player1, &err) || !check_player_spec(cfg.player2, &err)) {
      return report_error(err);
    }
    parse_player_spec(cfg.player1, s1, &err);
    parse_player_spec(cfg.player2, s2, &err);
    r.name1 = s1.name();
    r.name2 = s2.name();
    std::string stem;
    if (!new_match_stem(o->out, r, stem, &err)) {
      return report_error(err);
    }
    cfg.records_path = stem + ".games.jsonl";
    if (!o->quiet)
      std::fprintf(stderr, "match %s vs %s, %d games, seed %llu, records %s\n", r.name1.c_str(), r.name2.c_str(),
                   cfg.games, (unsigned long long)cfg.seed, cfg.records_path.c_str());
    cfg.stop = &install_stop_signals();
    bool ok = run_match(cfg, r, &err);
    if (!ok) {
      return report_error(err);  // finished games stay in the records file, the store gets no result
    }
    if (r.interrupted && r.games.empty()) {
      std::remove(cfg.records_path.c_str());  // the stem's claim, empty
      return report_error("interrupted before any game finished: no result stored", 130);
    }
    std::string result_path = stem + ".result.json";
    if (!write_match_result(result_path, cfg, r, cfg.records_path, &err)) {
      return report_error(err);
    }
    std::printf("%sResult: %s\n", r.summary().c_str(), result_path.c_str());
    return r.interrupted ? 130 : 0;
  });
}

}  // namespace jz::app
