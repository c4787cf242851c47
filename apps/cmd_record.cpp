// `janggi-zero record`: prints the games of a replay chunk as text, JSON lines, UCI position
// commands, Korean .gib or PGN (records/), and can check that every game replays through the rules to its stored
// result.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "records/gib.h"
#include "records/pgn.h"
#include "replay/chunk_reader.h"
#include "replay/game_record.h"
#include "replay/replay_buffer.h"
#include "util/log.h"

namespace jz::app {

namespace {

struct RecordArgs {
  std::string chunk, dir, format = "text";
  int game = -1;
  bool validate = false, summary = false;
  long long window = 1LL << 40;
  int samples = 0;
};

// --dir: loads a replay directory as the trainer would and reports it (and the sampling speed).
int run_buffer(const RecordArgs& a) {
  std::error_code ec;
  if (!std::filesystem::is_directory(a.dir, ec)) {
    return report_error("'" + a.dir + "' is not a directory");
  }
  ReplayBuffer buf(a.dir, a.window);
  double t0 = now_seconds();
  int loaded = buf.refresh();
  double t1 = now_seconds();
  ReplayStats s = buf.stats();
  std::printf(
      "%s: %d chunks loaded (%d skipped as corrupt), %lld games, %lld positions (%lld full search), "
      "%lld positions seen; load %.2f s (%.0f positions/s)\n",
      a.dir.c_str(), loaded, s.bad_chunks, (long long)s.games, (long long)s.positions, (long long)s.full_positions,
      (long long)s.positions_seen, t1 - t0, s.positions / std::max(1e-9, t1 - t0));
  if (a.samples > 0 && s.positions > 0) {
    std::mt19937_64 rng(1);
    std::vector<ReplaySample> out;
    double t2 = now_seconds();
    int n = buf.sample(rng, false, a.samples, out);
    double t3 = now_seconds();
    double plies = 0;
    for (auto& x : out) plies += x.ply;
    std::printf("sampled %d positions in %.3f s: %.0f samples/s (average ply %.1f)\n", n, t3 - t2,
                n / std::max(1e-9, t3 - t2), n ? plies / n : 0.0);
  }
  return 0;
}

int run_record(const RecordArgs& a) {
  if (!a.dir.empty()) return run_buffer(a);
  if (a.chunk.empty()) {
    return report_error("give --chunk FILE or --dir DIR");
  }
  if (a.format != "text" && a.format != "json" && a.format != "uci" && a.format != "gib" && a.format != "pgn") {
    return report_error("--format must be text, json, uci, gib or pgn");
  }
  ChunkHeader h;
  std::vector<GameRecord> games;
  std::string err;
  if (!read_chunk_file(a.chunk, h, games, &err)) {
    return report_error(err, 1);
  }
  if (a.game >= int(games.size())) {
    return report_error("--game " + std::to_string(a.game) + " out of range: the chunk holds " +
                        std::to_string(games.size()) + " games (0.." +
                        std::to_string(games.size() ? games.size() - 1 : 0) + ")");
  }
  if (a.summary)
    std::printf("chunk version %u, %u games, %u positions, created %llu ms, %llu -> %llu bytes\n", h.version,
                h.game_count, h.position_count, (unsigned long long)h.created_ms,
                (unsigned long long)h.uncompressed_size, (unsigned long long)h.payload_size);
  int bad = 0;
  for (int i = 0; i < int(games.size()); ++i) {
    if (a.game >= 0 && i != a.game) continue;
    const GameRecord& g = games[i];
    if (a.validate && !validate_game(g, &err)) {
      report_error("game " + std::to_string(i) + ": " + err);
      ++bad;
    }
    if (a.format == "gib" || a.format == "pgn") {
      std::vector<Move> moves;
      for (const PlyRecord& p : g.plies) moves.push_back(p.move);
      std::string text;
      bool ok = a.format == "gib" ? write_gib(g.start_fen, g.ruleset, moves, g.winner, g.ending, text, &err)
                                  : write_pgn(g.start_fen, g.ruleset, moves, g.winner, g.ending, text, &err);
      if (!ok) {
        report_error("game " + std::to_string(i) + ": " + err);
        ++bad;
        continue;
      }
      std::printf("%s%s", i > 0 && a.game < 0 ? "\n" : "", text.c_str());
    } else if (a.format == "json")
      std::printf("%s\n", game_to_json(g).c_str());
    else if (a.format == "uci")
      std::printf("%s\n", game_to_uci(g).c_str());
    else
      std::printf("%s%s", i > 0 && a.game < 0 ? "\n" : "", game_to_text(g).c_str());
  }
  return bad ? 1 : 0;
}

}  // namespace

void add_record(CLI::App& app, int& rc) {
  auto a = std::make_shared<RecordArgs>();
  CLI::App* cmd = app.add_subcommand("record", "Print the games of a replay chunk, or summarise a replay directory");
  auto* chunk = cmd->add_option("--chunk", a->chunk, "Replay chunk file (*.jzc)");
  cmd->add_option("--dir", a->dir, "Instead: load a replay directory like the trainer and report it")->excludes(chunk);
  cmd->add_option("--window", a->window, "With --dir: window size in positions");
  cmd->add_option("--samples", a->samples, "With --dir: draw this many samples and report the speed");
  cmd->add_option("--game", a->game, "Only this game (0-based index)");
  cmd->add_option("--format", a->format,
                  "text (PGN-like) | json (one line per game) | uci (position fen ... moves ...) | gib (Korean, "
                  "UTF-8) | pgn (pychess-variants style); gib, pgn and json read back with `import`");
  cmd->add_flag("--validate", a->validate, "Replay every game through the rules; non-zero exit if one is wrong");
  cmd->add_flag("--summary", a->summary, "Print the chunk header first");
  set_command(cmd, rc, [a] { return run_record(*a); });
}

}  // namespace jz::app
