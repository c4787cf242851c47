// records/: the real .gib game (both encodings) against its reference UCI list, PGN (UCI and SAN),
// JSONL game records, bad records skipped with file/game/ply, .gib/PGN export round trips, and the
// imported chunks loading in the trainer's replay buffer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/notation.h"
#include "core/setups.h"
#include "records/gib.h"
#include "records/importer.h"
#include "records/pgn.h"
#include "records/text_decode.h"
#include "replay/chunk_writer.h"
#include "replay/game_record.h"
#include "replay/replay_buffer.h"
#include "tests/support/random_games.h"
#include "util/fileio.h"
#include "tests/support/test_support.h"

namespace jz {
namespace {

namespace fs = std::filesystem;
const std::string DATA = JZ_TEST_DATA;
const std::string REAL_FEN = "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1";

std::string slurp(const std::string& path) {
  std::string s, err;
  EXPECT_TRUE(read_file(path, s, &err)) << err;
  return s;
}

std::vector<std::string> reference_moves() {
  std::istringstream in(slurp(DATA + "/gib/friendly-2016-12-06.uci"));
  std::vector<std::string> out;
  for (std::string m; in >> m;) out.push_back(m);
  return out;
}

std::vector<std::string> uci_of(const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (Move m : moves) out.push_back(move_to_uci(m));
  return out;
}

// Imports bytes into memory; returns the games and the skip lines.
struct Collected {
  std::vector<GameRecord> games;
  std::vector<std::string> lines;
  ImportStats stats;
};
Collected import_text(const std::string& name, const std::string& bytes, ImportOptions o = {}) {
  Collected c;
  Importer imp(
      o,
      [&](GameRecord&& g, std::string*) {
        c.games.push_back(std::move(g));
        return true;
      },
      [&](const std::string& line) { c.lines.push_back(line); });
  std::string err;
  EXPECT_TRUE(imp.import_bytes(name, bytes, &err)) << err;
  c.stats = imp.stats();
  return c;
}

TEST(ImportGib, RealGameInBothEncodingsMatchesTheReferenceMoves) {
  std::vector<std::string> want = reference_moves();
  ASSERT_EQ(want.size(), 73u);
  for (const char* file : {"friendly-2016-12-06.utf8.gib", "friendly-2016-12-06.euckr.gib"}) {
    SCOPED_TRACE(file);
    std::string bytes = slurp(DATA + "/gib/" + file), text, enc, err;
    bool euckr = std::string(file).find("euckr") != std::string::npos;
    EXPECT_EQ(bytes.find("\r\n") != std::string::npos, euckr);  // the EUC-KR copy has CRLF line ends
    ASSERT_TRUE(decode_record_text(bytes, text, &enc, &err)) << err;
    EXPECT_EQ(enc, euckr ? "euc-kr" : "utf-8");
    EXPECT_EQ(text.find('\r'), std::string::npos);
    EXPECT_NE(text.find("[초차림 \"상마상마\"]"), std::string::npos);

    std::vector<ParsedGame> parsed = read_gib(text, Ruleset::JANGGI);
    ASSERT_EQ(parsed.size(), 1u);
    ASSERT_TRUE(parsed[0].ok()) << parsed[0].error;
    EXPECT_EQ(uci_of(parsed[0].moves), want);
    EXPECT_EQ(parsed[0].start_fen, REAL_FEN);

    Collected c = import_text(file, bytes);
    ASSERT_EQ(c.games.size(), 1u) << (c.lines.empty() ? "" : c.lines[0]);
    EXPECT_TRUE(c.lines.empty());
    const GameRecord& g = c.games[0];
    std::vector<Move> moves;
    for (const PlyRecord& p : g.plies) moves.push_back(p.move);
    EXPECT_EQ(uci_of(moves), want);
    EXPECT_EQ(g.start_fen, REAL_FEN);
    // Cho 상마상마 is "left" from Cho's side; Han's b,c,g,h = 상마상마 is "right" seen from Han.
    EXPECT_EQ(setup_name(g.setup), "left-right");
    EXPECT_EQ(describe_result(g.winner, g.ending, g.by_counting()), "Cho wins by resignation");
    EXPECT_EQ(g.source, GameSource::IMPORT);
    EXPECT_EQ(g.origin, std::string(file) + "#0");
    EXPECT_TRUE(validate_game(g, &err)) << err;
    // After the last move Han is to move with 13 legal moves (the README's check).
    Position pos;
    ASSERT_TRUE(replay_game(g, pos, -1, &err)) << err;
    MoveList legal;
    generate_legal(pos, legal);
    EXPECT_EQ(pos.side_to_move(), HAN);
    EXPECT_EQ(legal.size, 13);
    // Value target: the result from the side to move's view; policy: the move played.
    EXPECT_EQ(g.plies[0].wdl[0], 65535);  // Cho to move, Cho won
    EXPECT_EQ(g.plies[1].wdl[2], 65535);  // Han to move, Han lost
    EXPECT_TRUE(g.plies[5].full_search);
    ASSERT_EQ(g.plies[5].policy_size, 1);
    EXPECT_EQ(g.policy[g.plies[5].policy_begin].move, g.plies[5].move);
    EXPECT_EQ(g.policy[g.plies[5].policy_begin].prob, 65535);
  }
}

TEST(ImportGib, LabelSmoothingSpreadsOverTheLegalMoves) {
  ImportOptions o;
  o.label_smoothing = 0.2f;
  Collected c = import_text("g.gib", slurp(DATA + "/gib/friendly-2016-12-06.utf8.gib"), o);
  ASSERT_EQ(c.games.size(), 1u);
  const GameRecord& g = c.games[0];
  Position pos;
  std::string err;
  ASSERT_TRUE(pos.set_fen(g.start_fen, g.ruleset, &err));
  MoveList legal;
  generate_legal(pos, legal);
  const PlyRecord& p = g.plies[0];
  ASSERT_EQ(p.policy_size, legal.size);
  EXPECT_EQ(g.policy[p.policy_begin].move, p.move);
  EXPECT_NEAR(dequantize_prob(g.policy[p.policy_begin].prob), 0.8 + 0.2 / legal.size, 1e-4);
  EXPECT_NEAR(dequantize_prob(g.policy[p.policy_begin + 1].prob), 0.2 / legal.size, 1e-4);
  EXPECT_TRUE(validate_game(g, &err)) << err;
}

// One file with a good game, then one bad game of each kind: each is skipped with one line naming
// the file, the game and the ply, and the rest is imported.
TEST(ImportGib, BadGamesAreSkippedWithFileGameAndPly) {
  std::string good = slurp(DATA + "/gib/friendly-2016-12-06.utf8.gib");
  auto replace = [&](std::string s, const std::string& from, const std::string& to) {
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  std::string illegal = replace(good, "13. 74상42병", "13. 74상43병");  // no such elephant move
  std::string wrong_piece = replace(good, "5. 88포85", "5. 88차85");    // a cannon stands on 88
  std::string bad_header = replace(good, "[초차림 \"상마상마\"]", "[초차림 \"상상마마\"]");
  std::string truncated = good.substr(0, good.find("70. 25사35"));  // 총수 says 73
  std::string bad_result = replace(good, "초 완승", "초 뭔가");
  std::string text =
      good + "\n" + illegal + "\n" + wrong_piece + "\n" + bad_header + "\n" + bad_result + "\n" + truncated;
  Collected c = import_text("many.gib", text);
  EXPECT_EQ(c.stats.games_read, 6);
  EXPECT_EQ(c.stats.imported, 1);
  EXPECT_EQ(c.stats.skipped, 5);
  EXPECT_EQ(c.stats.positions, 73);
  ASSERT_EQ(c.lines.size(), 5u);
  EXPECT_EQ(c.lines[0].rfind("many.gib: game 2, ply 13: skipped: ", 0), 0u) << c.lines[0];
  EXPECT_EQ(c.lines[1].rfind("many.gib: game 3, ply 5: skipped: ", 0), 0u) << c.lines[1];
  EXPECT_EQ(c.lines[2].rfind("many.gib: game 4, header: skipped: bad setup", 0), 0u) << c.lines[2];
  EXPECT_EQ(c.lines[3].rfind("many.gib: game 5, header: skipped: bad 대국결과", 0), 0u) << c.lines[3];
  EXPECT_EQ(c.lines[4].rfind("many.gib: game 6, ply 70: skipped: 총수 says 73", 0), 0u) << c.lines[4];
}

TEST(ImportGib, WrongEncodingSkipsTheFile) {
  std::string junk = "[\xff\xfe\xff \"\x80\x80\"]\n1. \xff\xff\n";
  Collected c = import_text("junk.gib", junk);
  EXPECT_EQ(c.stats.bad_files, 1);
  EXPECT_EQ(c.stats.imported, 0);
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_NE(c.lines[0].find("neither UTF-8 nor EUC-KR"), std::string::npos) << c.lines[0];
  // A file cut in the middle of a two-byte EUC-KR character is not text either.
  std::string euc = slurp(DATA + "/gib/friendly-2016-12-06.euckr.gib");
  std::string cut = euc.substr(0, euc.find("\xc3\xca") + 1);  // first byte of 초 only
  ASSERT_LT(cut.size(), euc.size());
  std::string text, err;
  EXPECT_FALSE(decode_record_text(cut, text, nullptr, &err));
}

TEST(ImportGib, ExportRoundTrips) {
  // The real game: same moves, setup, result, and the same text the reader was given.
  std::string bytes = slurp(DATA + "/gib/friendly-2016-12-06.utf8.gib");
  Collected c = import_text("real.gib", bytes);
  ASSERT_EQ(c.games.size(), 1u);
  const GameRecord& g = c.games[0];
  std::vector<Move> moves;
  for (const PlyRecord& p : g.plies) moves.push_back(p.move);
  std::string out, err;
  ASSERT_TRUE(write_gib(g.start_fen, g.ruleset, moves, g.winner, g.ending, out, &err)) << err;
  EXPECT_NE(out.find("13. 74상42병"), std::string::npos);
  EXPECT_NE(out.find("62. 85포55장군"), std::string::npos);
  EXPECT_NE(out.find("[대국결과 \"초 완승\"]"), std::string::npos);
  std::string euc;
  ASSERT_TRUE(utf8_to_euckr(out, euc, &err)) << err;
  for (const std::string& form : {out, euc}) {
    Collected back = import_text("back.gib", form);
    ASSERT_EQ(back.games.size(), 1u);
    EXPECT_EQ(back.games[0].start_fen, g.start_fen);
    EXPECT_EQ(back.games[0].setup, g.setup);
    EXPECT_EQ(back.games[0].winner, g.winner);
    EXPECT_EQ(back.games[0].ending, g.ending);
    ASSERT_EQ(back.games[0].num_plies(), g.num_plies());
    for (int i = 0; i < g.num_plies(); ++i) EXPECT_EQ(back.games[0].plies[i].move, g.plies[i].move);
  }
  // Random games of every rule set (passes, checks, natural endings, custom starts), all at once.
  std::mt19937_64 rng(3);
  std::string many;
  std::vector<GameRecord> games;
  for (int i = 0; i < 40; ++i) {
    GameRecord r = test::random_game(rng, Ruleset(i % JANGGI_RULESET_NB), 30 + i * 5);
    if (r.ending == Ending::LENGTH_CAP) {  // a record says who won, not how: make it a resignation
      r.ending = Ending::RESIGNATION;
      r.flags = 0;
      if (r.winner == Winner::DRAW) r.winner = Winner::HAN;
    }
    if (i == 7)
      r.start_fen = "4k4/9/9/9/4c4/9/9/9/4R4/4K4 w - - 0 1", r.plies.clear(), r.winner = Winner::CHO,
      r.ending = Ending::RESIGNATION;
    std::vector<Move> m;
    for (const PlyRecord& p : r.plies) m.push_back(p.move);
    ASSERT_TRUE(write_gib(r.start_fen, r.ruleset, m, r.winner, r.ending, out, &err)) << err;
    many += out + "\n";
    games.push_back(r);
  }
  Collected back = import_text("many.gib", many);
  ASSERT_TRUE(back.lines.empty()) << back.lines[0];
  ASSERT_EQ(back.games.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(back.games[i].start_fen, games[i].start_fen);
    EXPECT_EQ(back.games[i].ruleset, games[i].ruleset);
    EXPECT_EQ(back.games[i].winner, games[i].winner) << i;
    EXPECT_EQ(back.games[i].ending, games[i].ending) << i;
    ASSERT_EQ(back.games[i].num_plies(), games[i].num_plies());
    for (int k = 0; k < games[i].num_plies(); ++k) EXPECT_EQ(back.games[i].plies[k].move, games[i].plies[k].move);
  }
}

TEST(ImportPgn, PychessStyleUciAndSanGamesAndAnIllegalMove) {
  Collected c = import_text("pychess-janggi.pgn", slurp(DATA + "/pgn/pychess-janggi.pgn"));
  EXPECT_EQ(c.stats.games_read, 3);
  EXPECT_EQ(c.stats.imported, 2);
  ASSERT_EQ(c.lines.size(), 1u);
  // Game 3's fourth move h10h9 is no horse move.
  EXPECT_EQ(c.lines[0].rfind("pychess-janggi.pgn: game 3, ply 4: skipped: illegal move 'h10h9'", 0), 0u) << c.lines[0];
  ASSERT_EQ(c.games.size(), 2u);
  std::vector<Move> a, b;
  for (const PlyRecord& p : c.games[0].plies) a.push_back(p.move);
  for (const PlyRecord& p : c.games[1].plies) b.push_back(p.move);
  EXPECT_EQ(uci_of(a), (std::vector<std::string>{"a4b4", "e9e9", "h1g3", "h10g8", "h3e3", "h8e8", "e4f4", "c10d8"}));
  EXPECT_EQ(describe_result(c.games[0].winner, c.games[0].ending, false), "Cho wins by resignation");
  // The SAN game is the real game's first 16 moves; the variation (8. Nc3) is skipped.
  std::vector<std::string> want = reference_moves();
  want.resize(16);
  EXPECT_EQ(uci_of(b), want);
  EXPECT_EQ(describe_result(c.games[1].winner, c.games[1].ending, false), "Han wins by time");
  EXPECT_EQ(c.games[1].start_fen, REAL_FEN);
}

TEST(ImportPgn, SanNeedsDisambiguationXiangqiReadsAndOtherVariantsAreRefused) {
  Position pos;
  std::string err;
  ASSERT_TRUE(pos.set_fen(Position::START_FEN, Ruleset::JANGGI, &err));
  Move m;
  EXPECT_FALSE(parse_pgn_move(pos, "Ae1", m, &err));  // both guards reach e1
  EXPECT_NE(err.find("ambiguous"), std::string::npos);
  ASSERT_TRUE(parse_pgn_move(pos, "Ade1", m, &err)) << err;
  EXPECT_EQ(move_to_uci(m), "d1e1");
  ASSERT_TRUE(parse_pgn_move(pos, "Rb1-a2", m, &err) == false);  // no chariot on b1
  ASSERT_TRUE(parse_pgn_move(pos, "pass", m, &err)) << err;
  EXPECT_TRUE(m.is_pass());
  Collected c = import_text(
      "x.pgn",
      "[Variant \"shogi\"]\n\n1. h2e2 *\n\n[Variant \"janggimodern\"]\n[Result \"*\"]\n\n1. a4b4 *\n\n"
      "[Variant \"Xiangqi\"]\n[Result \"1-0\"]\n\n1. h3e3 h10g8 2. h1g3 1-0\n");
  EXPECT_EQ(c.stats.skipped, 2);
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_NE(c.lines[0].find("game 1, header: skipped: variant 'shogi' is neither"), std::string::npos)
      << c.lines[0];
  EXPECT_NE(c.lines[1].find("game 2, header: skipped: no result"), std::string::npos) << c.lines[1];
  ASSERT_EQ(c.games.size(), 1u);  // Xiangqi's start position, its own moves (h2e2 above is Janggi's)
  EXPECT_EQ(c.games[0].ruleset, Ruleset::XIANGQI);
  EXPECT_EQ(c.games[0].start_fen, Position::XIANGQI_START_FEN);
  EXPECT_EQ(c.games[0].plies.size(), 3u);
}

TEST(ImportPgn, ExportRoundTrips) {  // every rule set, Xiangqi included (.gib refuses Xiangqi)
  std::mt19937_64 rng(9);
  std::string all, out, err;
  std::vector<GameRecord> games;
  for (int i = 0; i < 15; ++i) {
    GameRecord r = test::random_game(rng, Ruleset(i % RULESET_NB), 60);
    if (r.ending == Ending::LENGTH_CAP) r.ending = Ending::NONE, r.flags = 0;  // an adjudicated result
    std::vector<Move> m;
    for (const PlyRecord& p : r.plies) m.push_back(p.move);
    ASSERT_TRUE(write_pgn(r.start_fen, r.ruleset, m, r.winner, r.ending, out, &err)) << err;
    all += out + "\n";
    games.push_back(r);
    std::string gib;
    EXPECT_EQ(write_gib(r.start_fen, r.ruleset, m, r.winner, r.ending, gib, &err), r.ruleset != Ruleset::XIANGQI) << err;
  }
  Collected back = import_text("r.pgn", all);
  ASSERT_TRUE(back.lines.empty()) << back.lines[0];
  ASSERT_EQ(back.games.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(back.games[i].ruleset, games[i].ruleset);
    EXPECT_EQ(back.games[i].winner, games[i].winner);
    ASSERT_EQ(back.games[i].num_plies(), games[i].num_plies());
    for (int k = 0; k < games[i].num_plies(); ++k) EXPECT_EQ(back.games[i].plies[k].move, games[i].plies[k].move);
  }
}

TEST(ImportJsonl, OwnGameRecordsReadBack) {
  std::mt19937_64 rng(5);
  std::string text;
  std::vector<GameRecord> games;
  for (int i = 0; i < 8; ++i) {
    games.push_back(test::random_game(rng, Ruleset(i % JANGGI_RULESET_NB), 80));
    text += game_to_json(games.back()) + "\n";
  }
  text += "{\"fen\": \"" + setup_fen(0) +
          "\", \"moves\": [\"a4b4\", \"a7a6\", \"zz\"], \"winner\": \"cho\", \"ending\": \"resignation\"}\n";
  text += "not json\n";
  Collected c = import_text("games.jsonl", text);
  EXPECT_EQ(c.stats.games_read, 10);
  ASSERT_EQ(c.games.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(c.games[i].winner, games[i].winner);
    EXPECT_EQ(c.games[i].ending, games[i].ending);
    EXPECT_EQ(c.games[i].by_counting(), games[i].by_counting());
    EXPECT_EQ(c.games[i].final_margin, games[i].final_margin);
    ASSERT_EQ(c.games[i].num_plies(), games[i].num_plies());
    for (int k = 0; k < games[i].num_plies(); ++k) EXPECT_EQ(c.games[i].plies[k].move, games[i].plies[k].move);
  }
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_EQ(c.lines[0].rfind("games.jsonl: game 9, ply 3: skipped: malformed move 'zz'", 0), 0u) << c.lines[0];
  EXPECT_EQ(c.lines[1].rfind("games.jsonl: game 10, header: skipped: not a JSON object", 0), 0u) << c.lines[1];
}

// End to end through the chunk writer: complete chunks only, and the trainer's buffer loads them.
TEST(ImportChunks, ImportedChunksLoadInTheReplayBuffer) {
  test::TempDir tmp("import");
  fs::path dir = tmp.path;
  {
    ChunkWriter writer(dir.string(), "import", 1);
    ImportOptions o;
    o.label_smoothing = 0.1f;
    std::vector<std::string> lines;
    Importer imp(
        o, [&](GameRecord&& g, std::string* e) { return writer.add(std::move(g), e); },
        [&](const std::string& l) { lines.push_back(l); });
    std::vector<std::string> missing;
    std::vector<std::string> files = list_record_files({DATA + "/gib", DATA + "/pgn", DATA + "/nope"}, &missing);
    EXPECT_EQ(missing, std::vector<std::string>{DATA + "/nope"});
    ASSERT_EQ(files.size(), 3u);
    std::string err;
    for (const std::string& f : files) ASSERT_TRUE(imp.import_file(f, &err)) << err;
    ASSERT_TRUE(writer.flush(&err)) << err;
    EXPECT_EQ(imp.stats().imported, 4);
    EXPECT_EQ(writer.chunks_written(), 4u);
  }
  for (auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().extension(), ".jzc") << e.path();
  ReplayBuffer buf(dir.string(), 1 << 20);
  EXPECT_EQ(buf.refresh(), 4);
  EXPECT_EQ(buf.stats().bad_chunks, 0);
  EXPECT_EQ(buf.stats().positions, 73 * 2 + 8 + 16);
}

}  // namespace
}  // namespace jz
