// `janggi-zero record`: prints the games of a replay chunk as text, JSON lines or UCI position
// commands, and can check that every game replays through the rules to its stored result.
#include <cstdio>
#include <memory>

#include "apps/commands.h"
#include "selfplay/chunk_reader.h"
#include "selfplay/game_record.h"

namespace jz::app {

namespace {

struct RecordArgs {
  std::string chunk, format = "text";
  int game = -1;
  bool validate = false, summary = false;
};

int run_record(const RecordArgs& a) {
  if (a.format != "text" && a.format != "json" && a.format != "uci") {
    std::fprintf(stderr, "error: --format must be text, json or uci\n");
    return 1;
  }
  ChunkHeader h;
  std::vector<GameRecord> games;
  std::string err;
  if (!read_chunk_file(a.chunk, h, games, &err)) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  if (a.game >= int(games.size())) {
    std::fprintf(stderr, "error: --game %d out of range: the chunk holds %zu games (0..%zu)\n", a.game, games.size(),
                 games.size() ? games.size() - 1 : 0);
    return 1;
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
      std::fprintf(stderr, "error: game %d: %s\n", i, err.c_str());
      ++bad;
    }
    if (a.format == "json") std::printf("%s\n", game_to_json(g).c_str());
    else if (a.format == "uci") std::printf("%s\n", game_to_uci(g).c_str());
    else std::printf("%s%s", i > 0 && a.game < 0 ? "\n" : "", game_to_text(g).c_str());
  }
  return bad ? 1 : 0;
}

}  // namespace

void add_record(CLI::App& app, int& rc) {
  auto a = std::make_shared<RecordArgs>();
  CLI::App* cmd = app.add_subcommand("record", "Print the games of a replay chunk");
  cmd->add_option("--chunk", a->chunk, "Replay chunk file (*.jzc)")->required();
  cmd->add_option("--game", a->game, "Only this game (0-based index)");
  cmd->add_option("--format", a->format, "text (PGN-like) | json (one line per game) | uci (position fen ... moves ...)");
  cmd->add_flag("--validate", a->validate, "Replay every game through the rules; non-zero exit if one is wrong");
  cmd->add_flag("--summary", a->summary, "Print the chunk header first");
  cmd->callback([a, &rc] { rc = run_record(*a); });
}

}  // namespace jz::app
