// The player database (web/player_db.h): a versioned SQLite file created on first start, migrated
// from older versions, refused (and left untouched) when corrupt, foreign or newer; points, records and
// games written safely from many threads; finished games exported as files `import` reads back.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/rules.h"
#include "play/game.h"
#include "records/importer.h"
#include "web/players_api.h"
#include "web/ranking.h"

namespace jz {
namespace {

namespace fs = std::filesystem;

RankInfo rank_for(const std::string& player, bool ranked) {
  RankInfo r;
  r.player = player;
  r.ranked = ranked;
  return r;
}

class PlayerDbTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("jz-playerdb-" + std::to_string(::getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = PlayerDb::file_in(dir_.string());
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // Runs SQL on a file directly (fixtures: older, newer or foreign files).
  static void sql(const std::string& path, const std::string& text) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* msg = nullptr;
    int rc = sqlite3_exec(db, text.c_str(), nullptr, nullptr, &msg);
    EXPECT_EQ(rc, SQLITE_OK) << (msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(db);
  }
  static FinishedGame game(const std::string& player, const std::string& level, const std::string& result, bool ranked,
                           int points) {
    FinishedGame g;
    g.game_id = "0123456789abcdef";
    g.player = player;
    g.level = level;
    g.human = "cho";
    g.rules = "janggi";
    g.setup = "inner-inner";
    Game start;
    start.start_setup("inner-inner", Ruleset::JANGGI, nullptr);
    g.start_fen = start.start_fen();
    g.winner = result == "win" ? "cho" : result == "loss" ? "han" : "draw";
    g.ending = "resignation";
    g.player_result = result;
    g.ranked = ranked;
    g.points = points;
    return g;
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(PlayerDbTest, CreatedOnFirstStartWithVersionAndWal) {
  std::string err;
  auto db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db) << err;
  EXPECT_EQ(db->schema_version(), PlayerDb::SCHEMA_VERSION);
  db.reset();
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &s, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)), "wal");
  sqlite3_finalize(s);
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA application_id", -1, &s, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(s, 0), PlayerDb::APPLICATION_ID);
  sqlite3_finalize(s);
  sqlite3_close(raw);
  // A second start opens the same file as it is.
  db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db) << err;
  EXPECT_EQ(db->schema_version(), PlayerDb::SCHEMA_VERSION);
}

TEST_F(PlayerDbTest, NamesAreValidated) {
  for (const char* good : {"kim", "Kim_99", "a.b-c", "김철수", "장기왕"})
    EXPECT_TRUE(PlayerDb::valid_name(good, nullptr)) << good;
  for (const char* bad : {"", "a", "abcdefghijklmnopqrstu", "two words", "<script>", "a'b", "x\xff", "\xc1\x81\xc1\x81",
                          "tab\tx", "漢字"})
    EXPECT_FALSE(PlayerDb::valid_name(bad, nullptr)) << bad;
  std::string err;
  auto db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db);
  PlayerStats s;
  EXPECT_FALSE(db->ensure_player("x", &s, &err));
  EXPECT_NE(err.find("2 to 20"), std::string::npos) << err;
  ASSERT_TRUE(db->ensure_player("Kim", &s, &err)) << err;
  ASSERT_TRUE(db->ensure_player("KIM", &s, &err)) << err;  // the same player
  EXPECT_EQ(s.name, "Kim");
  EXPECT_EQ(db->leaderboard(10, &err).size(), 1u);
}

TEST_F(PlayerDbTest, PointsRecordsAndLeaderboard) {
  std::string err;
  auto db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db) << err;
  std::vector<FinishedGame> gs = {game("kim", "expert", "win", true, 100), game("kim", "easy", "loss", true, 0),
                                  game("kim", "easy", "win", false, 10),  // unranked: no points, no record
                                  game("lee", "normal", "win", true, 30),  game("lee", "normal", "draw", true, 0),
                                  game("", "easy", "win", true, 10)};  // nobody named: stored only
  for (auto& g : gs) ASSERT_TRUE(db->record_game(g, &err)) << err;
  EXPECT_GT(gs[0].id, 0);
  EXPECT_FALSE(gs[0].finished_at.empty());
  EXPECT_EQ(gs[2].points, 0);
  PlayerStats kim;
  ASSERT_TRUE(db->player("kim", &kim, &err)) << err;
  EXPECT_EQ(kim.points, 100);
  EXPECT_EQ(kim.wins, 1);
  EXPECT_EQ(kim.losses, 1);
  EXPECT_EQ(kim.games, 3);
  ASSERT_EQ(kim.levels.size(), 2u);
  auto board = db->leaderboard(10, &err);
  ASSERT_EQ(board.size(), 2u);
  EXPECT_EQ(board[0].name, "kim");
  EXPECT_EQ(board[1].name, "lee");
  EXPECT_EQ(board[1].points, 30);
  EXPECT_EQ(board[1].draws, 1);
  std::vector<FinishedGame> all;
  ASSERT_TRUE(db->games("", 100, &all, &err));
  EXPECT_EQ(all.size(), 6u);
  ASSERT_TRUE(db->games("lee", 100, &all, &err));
  EXPECT_EQ(all.size(), 2u);
  EXPECT_FALSE(db->player("park", &kim, &err));
}

TEST_F(PlayerDbTest, CorruptFileIsRefusedAndNotOverwritten) {
  std::string junk(8192, '\0');
  for (size_t i = 0; i < junk.size(); ++i) junk[i] = char((i * 7919) % 251);
  std::ofstream(path_, std::ios::binary) << junk;
  std::string err;
  EXPECT_FALSE(PlayerDb::open(path_, &err));
  EXPECT_NE(err.find("refusing the database"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
  EXPECT_TRUE(slurp(path_) == junk) << "the file was changed";
  EXPECT_FALSE(fs::exists(path_ + "-wal"));
}

TEST_F(PlayerDbTest, DamagedDatabaseIsRefused) {
  std::string err;
  {
    auto db = PlayerDb::open(path_, &err);
    ASSERT_TRUE(db) << err;
    for (int i = 0; i < 300; ++i) {
      FinishedGame g = game("kim", "easy", "win", true, 10);
      ASSERT_TRUE(db->record_game(g, &err));
    }
  }
  sql(path_, "PRAGMA wal_checkpoint(TRUNCATE)");
  std::string bytes = slurp(path_);
  ASSERT_GT(bytes.size(), 3 * 4096u);
  // Every b-tree page after the first gets a bad page header (page type 0x5a); the schema on page 1 still reads.
  for (size_t page = 4096; page + 8 <= bytes.size(); page += 4096)
    for (size_t i = page; i < page + 8; ++i) bytes[i] = char(0x5a);
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_FALSE(PlayerDb::open(path_, &err));
  EXPECT_NE(err.find("refusing"), std::string::npos) << err;
  EXPECT_TRUE(slurp(path_) == bytes) << "the file was changed";
}

TEST_F(PlayerDbTest, NewerOrForeignFileIsRefusedUntouched) {
  sql(path_, "CREATE TABLE future(x); PRAGMA application_id=" + std::to_string(PlayerDb::APPLICATION_ID) +
                 "; PRAGMA user_version=" + std::to_string(PlayerDb::SCHEMA_VERSION + 1));
  std::string before = slurp(path_), err;
  EXPECT_FALSE(PlayerDb::open(path_, &err));
  EXPECT_NE(err.find("newer"), std::string::npos) << err;
  EXPECT_TRUE(slurp(path_) == before) << "the file was changed";
  std::string other = (dir_ / "other.sqlite").string();
  sql(other, "CREATE TABLE notes(text)");
  before = slurp(other);
  EXPECT_FALSE(PlayerDb::open(other, &err));
  EXPECT_NE(err.find("not a janggi-zero database"), std::string::npos) << err;
  EXPECT_TRUE(slurp(other) == before) << "the file was changed";
}

// A file written by a version-1 server (its schema exactly as released) is migrated: the ranked
// record per level is summed from its games.
TEST_F(PlayerDbTest, MigratesAVersion1File) {
  sql(path_,
      "CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
      " created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));"
      "CREATE TABLE games(id INTEGER PRIMARY KEY, game_id TEXT NOT NULL, player_id INTEGER REFERENCES players(id),"
      " level TEXT NOT NULL, human TEXT NOT NULL, rules TEXT NOT NULL, setup TEXT NOT NULL, start_fen TEXT NOT NULL,"
      " moves TEXT NOT NULL, winner TEXT NOT NULL, ending TEXT NOT NULL, by_counting INTEGER NOT NULL,"
      " player_result TEXT NOT NULL, ranked INTEGER NOT NULL, points INTEGER NOT NULL,"
      " finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));"
      "INSERT INTO players(name) VALUES ('kim');"
      "INSERT INTO games(game_id, player_id, level, human, rules, setup, start_fen, moves, winner, ending,"
      " by_counting, player_result, ranked, points) VALUES"
      " ('a', 1, 'expert', 'cho', 'janggi', 'inner-inner', 'x', '', 'cho', 'checkmate', 0, 'win', 1, 100),"
      " ('b', 1, 'expert', 'cho', 'janggi', 'inner-inner', 'x', '', 'han', 'checkmate', 0, 'loss', 1, 0),"
      " ('c', 1, 'easy', 'cho', 'janggi', 'inner-inner', 'x', '', 'cho', 'checkmate', 0, 'win', 0, 0);"
      "PRAGMA application_id=" +
          std::to_string(PlayerDb::APPLICATION_ID) + "; PRAGMA user_version=1;");
  std::string err;
  auto db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db) << err;
  EXPECT_EQ(db->schema_version(), PlayerDb::SCHEMA_VERSION);
  PlayerStats kim;
  ASSERT_TRUE(db->player("kim", &kim, &err)) << err;
  EXPECT_EQ(kim.points, 100);
  EXPECT_EQ(kim.wins, 1);
  EXPECT_EQ(kim.losses, 1);
  EXPECT_EQ(kim.games, 3);
  ASSERT_EQ(kim.levels.size(), 1u);
  EXPECT_EQ(kim.levels[0].level, "expert");
}

TEST_F(PlayerDbTest, ManyGamesFinishAtOnce) {
  std::string err;
  auto db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db) << err;
  const int threads = 8, per = 25;
  std::vector<std::thread> ts;
  std::atomic<int> failures{0};
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < per; ++i) {
        FinishedGame g = game(t % 2 ? "kim" : "p" + std::to_string(t), "normal", "win", true, 30);
        std::string e;
        if (!db->record_game(g, &e)) ++failures;
      }
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(failures.load(), 0);
  std::vector<FinishedGame> all;
  ASSERT_TRUE(db->games("", 100000, &all, &err));
  EXPECT_EQ(int(all.size()), threads * per);
  PlayerStats kim;
  ASSERT_TRUE(db->player("kim", &kim, &err));
  EXPECT_EQ(kim.points, 4 * per * 30);
  EXPECT_EQ(kim.wins, 4 * per);
}

// A ranked game from a near-mate position, finished by the person's checkmate, earns the level's
// points; the same game after an undo earns none. (The server refuses to start a ranked game from a
// FEN; this drives the ranking code below that check.)
TEST_F(PlayerDbTest, RankedWinByCheckmateEarnsTheLevelsPoints) {
  std::string err;
  auto db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db) << err;
  // Cho's chariot a1 to a10 mates: the one on b9 holds rank 9.
  const std::string fen = "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1";
  Game g;
  ASSERT_TRUE(g.start(fen, Ruleset::JANGGI, &err)) << err;
  MoveList list;
  generate_legal(g.pos(), list);
  Move mate = Move::none();
  for (Move m : list) {
    Position p = g.pos();
    p.do_move(m);
    if (game_result(p).ending == Ending::CHECKMATE) mate = m;
  }
  ASSERT_FALSE(mate.is_none()) << "the fixture needs a mate in one";
  RankInfo won = rank_for("kim", true);
  ASSERT_TRUE(g.play(mate, &err));
  record_if_finished(g, "g1", "normal", "cho", won, db.get());
  EXPECT_TRUE(won.recorded);
  EXPECT_EQ(won.points, 30);
  EXPECT_EQ(won.result, "win");
  record_if_finished(g, "g1", "normal", "cho", won, db.get());  // stored once
  RankInfo undone = rank_for("kim", true);
  unrank(undone, "a move was taken back");
  record_if_finished(g, "g2", "normal", "cho", undone, db.get());
  EXPECT_EQ(undone.points, 0);
  PlayerStats kim;
  ASSERT_TRUE(db->player("kim", &kim, &err));
  EXPECT_EQ(kim.points, 30);
  EXPECT_EQ(kim.wins, 1);
  EXPECT_EQ(kim.games, 2);
  EXPECT_EQ(ranked_points(g.result(), "han", 30), 0);  // the engine's win earns nothing
}

// Exported games are training data: `import`'s readers take every one back.
TEST_F(PlayerDbTest, ExportedGamesImportBack) {
  std::string err;
  auto db = PlayerDb::open(path_, &err);
  ASSERT_TRUE(db) << err;
  for (int n = 0; n < 3; ++n) {
    Game g;
    ASSERT_TRUE(g.start_setup("outer-inner", Ruleset::JANGGI, &err));
    for (int i = 0; i < 6 + n; ++i) {
      MoveList list;
      generate_legal(g.pos(), list);
      ASSERT_TRUE(g.play(list[(i * 5 + n) % list.size], &err)) << err;
    }
    g.resign(n % 2 ? CHO : HAN);
    RankInfo r = rank_for("kim", false);
    record_if_finished(g, "g" + std::to_string(n), "easy", "cho", r, db.get());
    ASSERT_TRUE(r.recorded && r.record_error.empty()) << r.record_error;
  }
  std::vector<FinishedGame> games;
  ASSERT_TRUE(db->games("kim", 100, &games, &err));
  for (const char* format : {"jsonl", "gib"}) {
    std::string text;
    ASSERT_TRUE(export_games(games, format, &text, &err)) << err;
    ImportOptions opts;
    std::vector<ParsedGame> parsed;
    ASSERT_TRUE(read_record_bytes(std::string("games.") + format, text, opts, parsed, &err)) << err;
    ASSERT_EQ(parsed.size(), 3u) << format;
    for (size_t i = 0; i < parsed.size(); ++i) {
      EXPECT_TRUE(parsed[i].ok()) << format << ": " << parsed[i].error;
      EXPECT_EQ(parsed[i].moves.size(), 6 + i);
      GameRecord rec;
      int bad = -1;
      EXPECT_TRUE(make_training_game(parsed[i], 0.0f, "web", rec, &bad, &err)) << format << ": " << err;
    }
  }
  std::string text;
  EXPECT_FALSE(export_games(games, "pgn", &text, &err));
}

}  // namespace
}  // namespace jz
