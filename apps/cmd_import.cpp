// `janggi-zero import`: game collections (.gib, PGN, JSONL game records) into replay chunks, and
// `janggi-zero bench import`: import speed on a generated collection. The work is in records/.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/movegen.h"
#include "core/setups.h"
#include "records/gib.h"
#include "records/importer.h"
#include "records/pgn.h"
#include "replay/chunk_writer.h"
#include "util/log.h"
#include "util/process.h"

namespace jz::app {

namespace {

struct ImportArgs {
  std::vector<std::string> inputs;
  std::string out, format = "auto", rules = "janggi";
  float label_smoothing = 0;
  int games_per_chunk = 256;
  bool quiet = false;
};

// Exit codes: 0 at least one game imported; 1 bad usage, missing input or an output error;
// 2 nothing importable (every game skipped, or no games at all).
int run_import(const ImportArgs& a) {
  ImportOptions o;
  o.label_smoothing = a.label_smoothing;
  if (!parse_record_format(a.format, o.format)) return report_error("--format must be auto, gib, pgn or jsonl");
  if (!parse_ruleset(a.rules, o.gib_rules)) return report_error("unknown rule set '" + a.rules + "'");
  std::vector<std::string> missing;
  std::vector<std::string> files = list_record_files(a.inputs, &missing);
  for (const std::string& m : missing) report_error("'" + m + "' does not exist");
  if (!missing.empty()) return 1;
  ChunkWriter writer(a.out, "import", a.games_per_chunk);
  bool quiet = a.quiet;
  Importer imp(
      o, [&](GameRecord&& g, std::string* err) { return writer.add(std::move(g), err); },
      [quiet](const std::string& line) {
        if (!quiet) std::fprintf(stderr, "skip: %s\n", line.c_str());
      });
  double t0 = now_seconds(), c0 = self_cpu_seconds(), last = t0;
  std::string err;
  for (const std::string& f : files) {
    if (!imp.import_file(f, &err)) return report_error("writing chunks: " + err);
    if (now_seconds() - last > 10) {
      last = now_seconds();
      const ImportStats& s = imp.stats();
      std::fprintf(stderr, "import: %lld games read, %lld imported, %lld skipped...\n", (long long)s.games_read,
                   (long long)s.imported, (long long)s.skipped);
    }
  }
  if (!writer.flush(&err)) return report_error("writing chunks: " + err);
  double wall = now_seconds() - t0, cpu = self_cpu_seconds() - c0;
  const ImportStats& s = imp.stats();
  std::printf(
      "import: %lld files (%lld unreadable), %lld games read, %lld imported, %lld skipped, %lld positions; "
      "%llu chunks in %s; %.2f s, %.0f positions/s (%.0f per CPU second)\n",
      (long long)s.files, (long long)s.bad_files, (long long)s.games_read, (long long)s.imported, (long long)s.skipped,
      (long long)s.positions, (unsigned long long)writer.chunks_written(), a.out.c_str(), wall,
      s.positions / std::max(1e-9, wall), s.positions / std::max(1e-9, cpu));
  return s.imported > 0 ? 0 : 2;
}

// A random legal game that ends by the rules, or by a random resignation at a random length.
void random_game(std::mt19937_64& rng, std::vector<Move>& moves, std::string& fen, Winner& winner, Ending& ending) {
  fen = setup_fen(int(rng() % SETUP_NB));
  Position pos;
  pos.set_fen(fen, Ruleset::JANGGI, nullptr);
  moves.clear();
  int cap = 60 + int(rng() % 140);
  MoveList legal;
  for (;;) {
    generate_legal(pos, legal);
    GameResult r = game_result(pos, legal.size);
    if (r.over()) {
      winner = r.winner;
      ending = r.ending;
      return;
    }
    if (int(moves.size()) >= cap) break;
    Move m = legal[int(rng() % legal.size)];
    for (int t = 0; t < 3 && (m.is_pass() || pos.piece_on(m.to()) == NO_PIECE); ++t) m = legal[int(rng() % legal.size)];
    pos.do_move(m);
    moves.push_back(m);
  }
  winner = rng() % 2 ? Winner::CHO : Winner::HAN;
  ending = Ending::RESIGNATION;
}

int run_bench_import(int games, int seed, float smoothing, const std::string& keep_dir) {
  std::mt19937_64 rng{uint64_t(seed)};
  std::string gib, pgn, one, err;
  std::vector<Move> moves;
  std::string fen;
  Winner w;
  Ending e;
  for (int i = 0; i < games; ++i) {
    random_game(rng, moves, fen, w, e);
    if (!write_gib(fen, Ruleset::JANGGI, moves, w, e, one, &err)) return report_error(err);
    gib += one + "\n";
    random_game(rng, moves, fen, w, e);
    if (!write_pgn(fen, Ruleset::JANGGI, moves, w, e, one, &err)) return report_error(err);
    pgn += one + "\n";
  }
  std::string dir = keep_dir;
  if (dir.empty()) {
    char tmpl[] = "/tmp/jz-bench-import-XXXXXX";
    if (!mkdtemp(tmpl)) return report_error("cannot create a temporary directory");
    dir = tmpl;
  }
  ImportOptions o;
  o.label_smoothing = smoothing;
  int rc = 0;
  for (const char* kind : {"gib", "pgn"}) {
    ChunkWriter writer(dir + "/" + kind, "bench", 256);
    int64_t bad = 0;
    Importer imp(
        o, [&](GameRecord&& g, std::string* er) { return writer.add(std::move(g), er); },
        [&](const std::string& line) {
          if (bad++ < 3) std::fprintf(stderr, "skip: %s\n", line.c_str());
        });
    double t0 = now_seconds(), c0 = self_cpu_seconds();
    bool ok = imp.import_bytes(std::string("bench.") + kind, kind[0] == 'g' ? gib : pgn, &err) && writer.flush(&err);
    double wall = now_seconds() - t0, cpu = self_cpu_seconds() - c0;
    if (!ok) return report_error(err);
    const ImportStats& s = imp.stats();
    std::printf(
        "bench import %s: %lld games (%lld skipped), %lld positions, %.1f MB of text, %llu chunks: "
        "%.2f s wall, %.2f s CPU, %.0f positions/s per core (label smoothing %.2f)\n",
        kind, (long long)s.imported, (long long)s.skipped, (long long)s.positions,
        (kind[0] == 'g' ? gib : pgn).size() / 1e6, (unsigned long long)writer.chunks_written(), wall, cpu,
        s.positions / std::max(1e-9, cpu), smoothing);
    if (s.skipped) rc = 1;
  }
  if (keep_dir.empty()) std::filesystem::remove_all(dir);
  return rc;
}

}  // namespace

void add_import(CLI::App& app, int& rc) {
  auto a = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand("import", "Import game records (.gib, PGN, JSONL) as replay chunks");
  cmd->add_option("inputs", a->inputs, "Record files, or directories searched for *.gib, *.pgn, *.jsonl")->required();
  cmd->add_option("--out", a->out, "Directory for the replay chunks")->required();
  cmd->add_option("--format", a->format, "auto (by extension, else content) | gib | pgn | jsonl");
  cmd->add_option("--rules", a->rules, "Rule set to check .gib games under (they do not say)");
  cmd->add_option("--label-smoothing", a->label_smoothing, "Policy target: this share spread over the legal moves")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--games-per-chunk", a->games_per_chunk, "Games per chunk file")->check(CLI::Range(1, 100000));
  cmd->add_flag("--quiet", a->quiet, "Do not print a line per skipped game");
  set_command(cmd, rc, [a] { return run_import(*a); });
}

void add_bench_import(CLI::App& bench, int& rc) {
  struct Opts {
    int games = 2000, seed = 1;
    float smoothing = 0;
    std::string keep;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd =
      bench.add_subcommand("import", "Import speed: random legal games written as .gib and PGN, imported into chunks");
  cmd->add_option("--games", o->games, "Games per format")->check(CLI::Range(1, 10000000));
  cmd->add_option("--seed", o->seed, "Random seed");
  cmd->add_option("--label-smoothing", o->smoothing, "As for import")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--keep", o->keep, "Write the chunks here and keep them (default: a temporary directory)");
  set_command(cmd, rc, [o] { return run_bench_import(o->games, o->seed, o->smoothing, o->keep); });
}

}  // namespace jz::app
