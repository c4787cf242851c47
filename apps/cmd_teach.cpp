// `janggi-zero teach`: teacher games (alpha-beta or any UCI engine on both sides) as replay chunks
// for warm-starting a network. The work is in teacher/.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "teacher/relabel.h"
#include "teacher/teacher_run.h"

namespace jz::app {

namespace {

int run_teach(const TeachRunOptions& o, const std::string& rules) {
  TeachRunOptions opts = o;
  if (!parse_ruleset(rules, opts.game.rules)) return report_error("unknown rule set '" + rules + "'");
  TeachRunStats s;
  std::string err;
  if (!run_teacher(opts, install_stop_signals(), s, &err)) return report_error(err);
  std::printf(
      "teach: %lld games (%lld failed), %lld positions (%lld with a teacher target) in %s; Cho %lld, Han %lld, "
      "draw %lld; %lld resigned, %lld length-capped; CPU: teacher %.1f s, the rest %.1f s (%.1f%% of the "
      "teacher's); %.1f s wall\n",
      (long long)s.games, (long long)s.failed, (long long)s.positions, (long long)s.searched_positions,
      opts.out.c_str(), (long long)s.wins[0], (long long)s.wins[1], (long long)s.wins[2], (long long)s.resigned,
      (long long)s.length_capped, s.cpu.teacher, s.cpu.other, 100 * s.cpu.other / std::max(1e-9, s.cpu.teacher),
      s.wall_seconds);
  return stop_signal() && s.games < opts.games ? 130 : 0;
}

// --relabel-from: the teacher labels positions of self-play games instead of playing its own.
int run_relabel_command(const TeachRunOptions& o, const RelabelRunOptions& r) {
  RelabelRunOptions opts = r;
  opts.label = o.game;
  opts.out = o.out;
  opts.threads = o.threads;
  RelabelStats s;
  std::string err;
  if (!run_relabel(opts, install_stop_signals(), s, &err)) return report_error(err);
  char agree[64] = "";  // a branch-only run labels no game move to agree with
  if (s.labelled > 0)
    std::snprintf(agree, sizeof agree, "; the teacher agrees with the game's move on %.1f%%", 100.0 * s.agree / s.labelled);
  std::printf(
      "teach --relabel-from: %lld positions and %lld branches labelled in %lld games (%lld failed) into %s%s; "
      "mean |Q gap| %.3f; %.3f teacher CPU s per label\n",
      (long long)s.labelled, (long long)s.branches, (long long)s.games, (long long)s.failed, opts.out.c_str(), agree,
      s.value_gap / std::max<int64_t>(1, s.value_gap_n), s.cpu.teacher / std::max<int64_t>(1, s.labelled + s.branches));
  return stop_signal() ? 130 : 0;
}

}  // namespace

void add_teach(CLI::App& app, int& rc) {
  auto o = std::make_shared<TeachRunOptions>();
  auto rules = std::make_shared<std::string>("janggi");
  auto relabel = std::make_shared<RelabelRunOptions>();
  TeacherOptions& g = o->game;
  CLI::App* cmd = app.add_subcommand("teach", "Teacher games (an engine on both sides) as replay chunks for warm starts");
  cmd->add_option("--teacher", g.teacher, "Player spec: alphabeta:level=..., uci:PATH,... (see evaluate)");
  cmd->add_option("--games", o->games, "Games to play")->check(CLI::Range(int64_t(1), int64_t(1) << 40));
  cmd->add_option("--out", o->out, "Directory for the replay chunks (and teach.json)")->required();
  cmd->add_option("--threads", o->threads, "Games in parallel")->check(CLI::Range(1, 1024));
  cmd->add_option("--seed", g.seed, "Seed of setups, openings and the teacher's randomness (vary it between runs)");
  cmd->add_option("--rules", *rules, "Rule set");
  cmd->add_option("--random-plies", g.random_plies, "0..N random plies after the setup")->check(CLI::Range(0, 100));
  cmd->add_option("--max-plies", g.max_plies, "Length cap (counting decides)")->check(CLI::Range(1, 10000));
  cmd->add_option("--score-depth", g.score_depth, "alphabeta: score every root move D plies deep (0: move only)")
      ->check(CLI::Range(0, 8));
  cmd->add_option("--policy-temperature", g.policy_temperature, "Centipoints: softmax temperature over root scores")
      ->check(CLI::Range(1.0, 10000.0));
  cmd->add_option("--best-move-weight", g.best_move_weight, "Share of the policy target on the move played")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--value-scale", g.value_scale, "Centipoints: W = 1 / (1 + exp(-cp / scale))")
      ->check(CLI::Range(1.0, 100000.0));
  cmd->add_option("--resign-cp", g.resign_cp, "Resign when the teacher sees this margin ...")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--resign-plies", g.resign_plies, "... for this many plies in a row (0: never)")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("--games-per-chunk", o->games_per_chunk, "Games per chunk file")->check(CLI::Range(1, 100000));
  cmd->add_option("--relabel-from", relabel->from,
                  "Label positions of the self-play games in this folder (newest first) instead of playing games");
  cmd->add_option("--plies-per-game", relabel->plies_per_game, "--relabel-from: positions labelled per game")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("--branches", relabel->branches_per_game,
                  "--relabel-from: per game, positions after a random other move (the teacher's reply labelled)")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("--positions", relabel->positions, "--relabel-from: stop after this many labels (0: inputs done)")
      ->check(CLI::Range(int64_t(0), int64_t(1) << 40));
  cmd->add_flag("--watch", relabel->watch, "--relabel-from: keep labelling new games until stopped");
  set_command(cmd, rc, [o, rules, relabel] {
    return relabel->from.empty() ? run_teach(*o, *rules) : run_relabel_command(*o, *relabel);
  });
}

}  // namespace jz::app
