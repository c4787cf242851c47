// `janggi-zero tune`: Texel tuning of the alpha-beta evaluation on the quiet positions of finished games
// (replay chunks: teacher, self-play or imported games) of one game. Writes the weights as eval_weights.cpp
// (Janggi) or eval_weights_xiangqi.cpp.
#include <chrono>
#include <cstdio>
#include <memory>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "alphabeta/tuner.h"
#include "core/movegen.h"
#include "replay/chunk_reader.h"
#include "util/fileio.h"

namespace jz::app {

namespace {

struct TuneCmd {
  std::vector<std::string> data;
  std::string out, report;
  std::string start = "tuned";
  int skip_plies = 10;
  int64_t max_positions = 2000000;
  ab::TuneOptions opt;
};

// Quiet positions of every decided game under the folders, labelled with the result.
// All games must be of one game (Janggi's rule sets, or Xiangqi): its weights are fitted.
bool load_samples(const TuneCmd& c, std::vector<ab::TuneSample>& out, int64_t& games, GameKind& game,
                  std::string* error) {
  games = 0;
  bool seen = false;
  int64_t skipped = 0;
  for (const std::string& dir : c.data) {
    std::vector<std::string> files = list_chunk_files(dir);
    if (files.empty()) {
      *error = "no replay chunks (*.jzc) under '" + dir + "'";
      return false;
    }
    for (const std::string& f : files) {
      ChunkHeader h;
      std::vector<GameRecord> gs;
      std::string why;
      if (!read_chunk_file(f, h, gs, &why)) {
        std::fprintf(stderr, "tune: skipping %s: %s\n", f.c_str(), why.c_str());
        continue;
      }
      for (const GameRecord& g : gs) {
        if (g.winner == Winner::NONE) continue;
        if (seen && game_of(g.ruleset) != game) {
          *error = std::string("the data mixes ") + game_name(game) + " and " + game_name(game_of(g.ruleset)) +
                   " games (" + f + "): tune one game at a time";
          return false;
        }
        game = game_of(g.ruleset), seen = true;
        float result = g.winner == Winner::CHO ? 1.0f : g.winner == Winner::HAN ? 0.0f : 0.5f;
        Position pos;
        if (!pos.set_fen(g.start_fen, g.ruleset, &why)) {
          ++skipped;
          continue;
        }
        std::vector<Move> moves;
        for (const PlyRecord& p : g.plies) moves.push_back(p.move);
        if (!ab::add_game_samples(pos, moves, result, uint32_t(games++), c.skip_plies, size_t(c.max_positions), out))
          ++skipped;
        if (int64_t(out.size()) >= c.max_positions) return true;
      }
    }
  }
  if (skipped) std::fprintf(stderr, "tune: %lld games cut short by a bad record\n", (long long)skipped);
  return true;
}

int run_tune(const TuneCmd& c) {
  auto t0 = std::chrono::steady_clock::now();
  std::vector<ab::TuneSample> samples;
  int64_t games = 0;
  GameKind game = GameKind::JANGGI;
  std::string err;
  if (!load_samples(c, samples, games, game, &err)) return report_error(err);
  if (samples.size() < 100)
    return report_error("too few quiet positions to tune (" + std::to_string(samples.size()) + ")");
  double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("tune: %zu quiet positions from %lld %s games (%.1f s)\n", samples.size(), (long long)games,
              game_name(game), load_s);
  std::fflush(stdout);

  const bool xiangqi = game == GameKind::XIANGQI;
  ab::EvalWeights hand = xiangqi ? ab::xiangqi_hand_weights() : ab::hand_weights();
  const ab::EvalWeights& start = c.start == "hand" ? hand : ab::game_weights(game);
  ab::TuneReport r = ab::tune_weights(samples, start, hand, c.opt, [](int epoch, double train, double held) {
    std::printf("tune: epoch %d  train %.6f  holdout %.6f\n", epoch, train, held);
    std::fflush(stdout);
  });
  std::printf("tune: k %.6f; train %zu positions, error %.6f -> %.6f; holdout %zu positions, error %.6f -> %.6f\n", r.k,
              r.train_n, r.train_before, r.train_after, r.holdout_n, r.holdout_before, r.holdout_after);
  char prov[1024];
  std::snprintf(prov, sizeof prov,
                "Data: %zu quiet positions from %lld games (%zu fitted, %zu held out), skipping the first %d plies.\n"
                "Fit: k %.6f, %d epochs, lr %g, l2 %g towards %s(), start %s.\n"
                "Mean squared error, train %.6f -> %.6f, holdout %.6f -> %.6f.",
                samples.size(), (long long)games, r.train_n, r.holdout_n, c.skip_plies, r.k, c.opt.epochs,
                c.opt.learning_rate, c.opt.l2, xiangqi ? "xiangqi_hand_weights" : "hand_weights", c.start.c_str(), r.train_before, r.train_after, r.holdout_before,
                r.holdout_after);
  std::string command = "janggi-zero tune";
  for (const std::string& d : c.data) command += " --data " + d;
  char opts[256];
  std::snprintf(opts, sizeof opts,
                " --start %s --skip-plies %d --max-positions %lld --epochs %d --lr %g --l2 %g --holdout %g --seed %llu",
                c.start.c_str(), c.skip_plies, (long long)c.max_positions, c.opt.epochs, c.opt.learning_rate, c.opt.l2,
                c.opt.holdout, (unsigned long long)c.opt.seed);
  std::string source = ab::weights_source(r.weights, "Command: " + command + opts + "\n" + prov, game);
  if (!c.out.empty() && !write_file_atomic(c.out, source, &err)) return report_error(err);
  if (!c.report.empty()) {
    char json[1024];
    std::snprintf(json, sizeof json,
                  "{\"positions\": %zu, \"games\": %lld, \"train_n\": %zu, \"holdout_n\": %zu, \"k\": %.8f, "
                  "\"train_before\": %.8f, \"train_after\": %.8f, \"holdout_before\": %.8f, \"holdout_after\": %.8f, "
                  "\"epochs\": %d}\n",
                  samples.size(), (long long)games, r.train_n, r.holdout_n, r.k, r.train_before, r.train_after,
                  r.holdout_before, r.holdout_after, c.opt.epochs);
    if (!write_file_atomic(c.report, std::string(json), &err)) return report_error(err);
  }
  if (c.out.empty()) std::fputs(source.c_str(), stdout);
  return 0;
}

}  // namespace

void add_tune(CLI::App& app, int& rc) {
  auto c = std::make_shared<TuneCmd>();
  CLI::App* cmd = app.add_subcommand("tune", "Texel-tune the alpha-beta evaluation on the quiet positions of games");
  cmd->add_option("--data", c->data, "Folders of replay chunks (teacher, self-play or imported games)")->required();
  cmd->add_option("--out", c->out, "Write the weights here as C++ (alphabeta/eval_weights.cpp, or eval_weights_xiangqi.cpp for Xiangqi games); else stdout");
  cmd->add_option("--report", c->report, "Write the fit's figures here as JSON");
  cmd->add_option("--start", c->start, "Start from the tuned or the hand-set weights")
      ->check(CLI::IsMember({"tuned", "hand"}));
  cmd->add_option("--skip-plies", c->skip_plies, "Opening plies of each game left out")->check(CLI::Range(0, 1000));
  cmd->add_option("--max-positions", c->max_positions, "At most this many positions")
      ->check(CLI::Range(int64_t(100), int64_t(1) << 40));
  cmd->add_option("--epochs", c->opt.epochs, "Full passes of Adam")->check(CLI::Range(1, 100000));
  cmd->add_option("--lr", c->opt.learning_rate, "Adam step in centipoints")->check(CLI::Range(1e-6, 1000.0));
  cmd->add_option("--l2", c->opt.l2, "Pull towards the hand-set weights")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--holdout", c->opt.holdout, "Share of games held out of the fit")->check(CLI::Range(0.0, 0.9));
  cmd->add_option("--seed", c->opt.seed, "Seed of the holdout split");
  set_command(cmd, rc, [c] { return run_tune(*c); });
}

}  // namespace jz::app
