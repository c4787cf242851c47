#include "web/player_db.h"

#include <sqlite3.h>

#include <filesystem>

#include "core/types.h"
#include "web/sqlite_util.h"

namespace jz {

using sql::exec;
using sql::fail;
using sql::scalar;
using sql::Stmt;
using sql::Transaction;

namespace {

// Schema steps: MIGRATIONS[v - 1] takes a file from version v - 1 to v. Never edit a step once
// released; add one and raise SCHEMA_VERSION.
const char* const MIGRATIONS[] = {
    // 1: players and their finished games (each with its points).
    "CREATE TABLE players("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));"
    "CREATE TABLE games("
    "  id INTEGER PRIMARY KEY,"
    "  game_id TEXT NOT NULL,"
    "  player_id INTEGER REFERENCES players(id),"
    "  level TEXT NOT NULL, human TEXT NOT NULL, rules TEXT NOT NULL, setup TEXT NOT NULL,"
    "  start_fen TEXT NOT NULL, moves TEXT NOT NULL, winner TEXT NOT NULL, ending TEXT NOT NULL,"
    "  by_counting INTEGER NOT NULL, player_result TEXT NOT NULL, ranked INTEGER NOT NULL,"
    "  points INTEGER NOT NULL,"
    "  finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));",
    // 2: the ranked record per player and level, kept up to date as games finish (summed from the
    // games of a version-1 file), and an index for one player's games.
    "CREATE TABLE player_levels("
    "  player_id INTEGER NOT NULL REFERENCES players(id),"
    "  level TEXT NOT NULL,"
    "  points INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0,"
    "  losses INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY(player_id, level)) WITHOUT ROWID;"
    "INSERT INTO player_levels(player_id, level, points, wins, losses, draws)"
    "  SELECT player_id, level, SUM(points), SUM(player_result = 'win'), SUM(player_result = 'loss'),"
    "         SUM(player_result = 'draw')"
    "  FROM games WHERE player_id IS NOT NULL AND ranked = 1 GROUP BY player_id, level;"
    "CREATE INDEX games_player ON games(player_id, id);",
    // 3: accounts. A player's password as libsodium's Argon2id string (NULL: a name from before
    // accounts, claimed by the first who sets a password), and sign-in sessions by the hash of their
    // cookie (the cookie itself is never stored).
    "ALTER TABLE players ADD COLUMN password_hash TEXT;"
    "CREATE TABLE sessions("
    "  token_hash TEXT PRIMARY KEY,"
    "  player_id INTEGER NOT NULL REFERENCES players(id),"
    "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),"
    "  expires_at INTEGER NOT NULL) WITHOUT ROWID;",
    // 4: a ladder per game (Janggi, Xiangqi): the ranked record per player, game and level. Every
    // earlier row is Janggi's (the page played nothing else).
    "CREATE TABLE player_levels_v4("
    "  player_id INTEGER NOT NULL REFERENCES players(id),"
    "  game TEXT NOT NULL,"
    "  level TEXT NOT NULL,"
    "  points INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0,"
    "  losses INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY(player_id, game, level)) WITHOUT ROWID;"
    "INSERT INTO player_levels_v4(player_id, game, level, points, wins, losses, draws)"
    "  SELECT player_id, 'janggi', level, points, wins, losses, draws FROM player_levels;"
    "DROP TABLE player_levels;"
    "ALTER TABLE player_levels_v4 RENAME TO player_levels;",
};
static_assert(sizeof(MIGRATIONS) / sizeof(MIGRATIONS[0]) == size_t(PlayerDb::SCHEMA_VERSION), "one step per version");

// Decodes one UTF-8 code point at s[i]; -1 on a bad sequence.
int32_t next_code_point(const std::string& s, size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
  if (n < 0 || i + n >= s.size() + (n ? 0 : 1)) return -1;
  int32_t cp = n == 0 ? c : c & (0x3F >> n);
  for (int k = 1; k <= n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (d & 0x3F);
  }
  static const int32_t MIN_CP[4] = {0, 0x80, 0x800, 0x10000};  // shortest form only
  if (cp < MIN_CP[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  i += n + 1;
  return cp;
}

}  // namespace

std::string game_of_rules(const std::string& rules) {
  Ruleset r;
  return game_name(parse_ruleset(rules, r) ? game_of(r) : GameKind::JANGGI);
}

std::string PlayerDb::file_in(const std::string& data_dir) {
  return (std::filesystem::path(data_dir) / "janggi-zero.sqlite").string();
}

std::unique_ptr<PlayerDb> PlayerDb::open(const std::string& path, std::string* error) {
  std::unique_ptr<PlayerDb> p(new PlayerDb());
  auto refuse = [&](const std::string& why) {
    if (error) *error = "refusing the database " + path + ": " + why;
    return nullptr;
  };
  int rc = sqlite3_open_v2(path.c_str(), &p->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) return refuse(p->db_ ? sqlite3_errmsg(p->db_) : "cannot open");
  sqlite3* db = p->db_;
  sqlite3_busy_timeout(db, 5000);
  std::string err;
  int64_t app = 0, version = 0, objects = 0;
  // Reads only: a file that is not a database fails here, before anything could be written to it.
  if (!scalar(db, "PRAGMA application_id", app, &err) || !scalar(db, "PRAGMA user_version", version, &err) ||
      !scalar(db, "SELECT count(*) FROM sqlite_master", objects, &err))
    return refuse("not a readable SQLite database (" + err + ")");
  bool fresh = app == 0 && version == 0 && objects == 0;
  if (!fresh && app != APPLICATION_ID) return refuse("not a janggi-zero database (another application's SQLite file)");
  if (version > SCHEMA_VERSION)
    return refuse("schema version " + std::to_string(version) + " is newer than this binary's (" +
                  std::to_string(SCHEMA_VERSION) + "); use a newer janggi-zero");
  if (!fresh) {
    Stmt check(db, "PRAGMA quick_check");
    if (!check.ok() || check.step() != SQLITE_ROW) return refuse("integrity check failed (" + check.error() + ")");
    std::string verdict = check.text(0);
    if (verdict != "ok") return refuse("integrity check failed (" + verdict + ")");
  }
  if (!exec(db, "PRAGMA journal_mode=WAL", &err) || !exec(db, "PRAGMA synchronous=NORMAL", &err) ||
      !exec(db, "PRAGMA foreign_keys=ON", &err))
    return refuse(err);
  {
    Transaction t(db, &err);
    if (!t.ok()) return refuse(err);
    // Another server may have migrated the file meanwhile: read the version again under the lock.
    if (!scalar(db, "PRAGMA user_version", version, &err)) return refuse(err);
    if (version > SCHEMA_VERSION) return refuse("schema version " + std::to_string(version) + " is newer");
    for (int64_t v = version + 1; v <= SCHEMA_VERSION; ++v)
      if (!exec(db, MIGRATIONS[v - 1], &err))
        return refuse("migration to schema version " + std::to_string(v) + " failed: " + err);
    // Pragmas take no bound parameters; both values are this file's constants.
    std::string set = "PRAGMA application_id=" + std::to_string(APPLICATION_ID) +
                      "; PRAGMA user_version=" + std::to_string(SCHEMA_VERSION);
    if (!exec(db, set.c_str(), &err) || !t.commit(&err)) return refuse(err);
  }
  return p;
}

PlayerDb::~PlayerDb() { sqlite3_close_v2(db_); }

int PlayerDb::schema_version() {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t v = 0;
  return scalar(db_, "PRAGMA user_version", v, nullptr) ? int(v) : -1;
}

bool PlayerDb::valid_name(const std::string& name, std::string* error) {
  size_t i = 0;
  int n = 0;
  while (i < name.size()) {
    int32_t cp = next_code_point(name, i);
    bool ok = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') || cp == '_' ||
              cp == '-' || cp == '.' || (cp >= 0xAC00 && cp <= 0xD7A3);
    if (!ok) return fail(error, "a name may hold only letters a-z, digits, Hangul syllables, '_', '-' and '.'");
    ++n;
  }
  if (n < 2 || n > 20) return fail(error, "a name has 2 to 20 characters");
  return true;
}

bool PlayerDb::fill_levels(int64_t player_id, const std::string& game, PlayerStats* out, std::string* error) {
  Stmt s(db_,
         "SELECT level, points, wins, losses, draws FROM player_levels WHERE player_id = ? AND game = ?"
         " ORDER BY level");
  s.bind(1, player_id).bind(2, game);
  out->game = game;
  out->levels.clear();
  out->points = out->wins = out->losses = out->draws = 0;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) {
    LevelStats l{s.text(0), int(s.i64(1)), int(s.i64(2)), int(s.i64(3)), int(s.i64(4))};
    out->points += l.points, out->wins += l.wins, out->losses += l.losses, out->draws += l.draws;
    out->levels.push_back(l);
  }
  if (rc != SQLITE_DONE) return fail(error, s.error());
  Stmt g(db_, "SELECT count(*) FROM games WHERE player_id = ?");
  g.bind(1, player_id);
  if (g.step() != SQLITE_ROW) return fail(error, g.error());
  out->games = int(g.i64(0));
  return true;
}

bool PlayerDb::player(const std::string& name, PlayerStats* out, std::string* error, const std::string& game) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stmt s(db_, "SELECT id, name, created_at FROM players WHERE name = ?");
  s.bind(1, name);
  int rc = s.step();
  if (rc == SQLITE_DONE) return fail(error, "unknown player '" + name + "'");
  if (rc != SQLITE_ROW) return fail(error, s.error());
  out->name = s.text(1);
  out->created_at = s.text(2);
  return fill_levels(s.i64(0), game, out, error);
}

bool PlayerDb::ensure_player(const std::string& name, PlayerStats* out, std::string* error) {
  if (!valid_name(name, error)) return false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Stmt s(db_, "INSERT INTO players(name) VALUES (?) ON CONFLICT(name) DO NOTHING");
    s.bind(1, name);
    if (s.step() != SQLITE_DONE) return fail(error, s.error());
  }
  return player(name, out, error);
}

bool PlayerDb::record_game(FinishedGame& g, std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Transaction t(db_, error);
  if (!t.ok()) return false;
  int64_t player_id = 0;
  if (!g.player.empty()) {
    Stmt ins(db_, "INSERT INTO players(name) VALUES (?) ON CONFLICT(name) DO NOTHING");
    ins.bind(1, g.player);
    if (ins.step() != SQLITE_DONE) return fail(error, ins.error());
    Stmt q(db_, "SELECT id FROM players WHERE name = ?");
    q.bind(1, g.player);
    if (q.step() != SQLITE_ROW) return fail(error, q.error());
    player_id = q.i64(0);
  }
  Stmt s(db_,
         "INSERT INTO games(game_id, player_id, level, human, rules, setup, start_fen, moves, winner, ending,"
         " by_counting, player_result, ranked, points) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
         " RETURNING id, finished_at");
  s.bind(1, g.game_id);
  if (player_id)
    s.bind(2, player_id);
  else
    s.bind_null(2);
  s.bind(3, g.level).bind(4, g.human).bind(5, g.rules).bind(6, g.setup).bind(7, g.start_fen).bind(8, g.moves);
  s.bind(9, g.winner).bind(10, g.ending).bind(11, int64_t(g.by_counting)).bind(12, g.player_result);
  s.bind(13, int64_t(g.ranked && player_id)).bind(14, int64_t(g.ranked && player_id ? g.points : 0));
  if (s.step() != SQLITE_ROW) return fail(error, s.error());
  g.id = s.i64(0);
  g.finished_at = s.text(1);
  if (s.step() != SQLITE_DONE) return fail(error, s.error());
  if (g.ranked && player_id) {
    Stmt u(db_,
           "INSERT INTO player_levels(player_id, game, level, points, wins, losses, draws) VALUES (?,?,?,?,?,?,?)"
           " ON CONFLICT(player_id, game, level) DO UPDATE SET points = points + excluded.points,"
           " wins = wins + excluded.wins, losses = losses + excluded.losses, draws = draws + excluded.draws");
    u.bind(1, player_id).bind(2, game_of_rules(g.rules)).bind(3, g.level).bind(4, int64_t(g.points));
    u.bind(5, int64_t(g.player_result == "win")).bind(6, int64_t(g.player_result == "loss"));
    u.bind(7, int64_t(g.player_result == "draw"));
    if (u.step() != SQLITE_DONE) return fail(error, u.error());
  } else {
    g.points = 0;
  }
  return t.commit(error);
}

std::vector<PlayerStats> PlayerDb::leaderboard(int limit, std::string* error, const std::string& game) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PlayerStats> out;
  Stmt s(db_,
         "SELECT p.id, p.name, p.created_at, coalesce(sum(l.points), 0) AS pts, coalesce(sum(l.wins), 0) AS w"
         " FROM players p LEFT JOIN player_levels l ON l.player_id = p.id AND l.game = ?"
         " GROUP BY p.id ORDER BY pts DESC, w DESC, p.name COLLATE NOCASE LIMIT ?");
  s.bind(1, game).bind(2, int64_t(limit));
  std::vector<int64_t> ids;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) {
    PlayerStats p;
    p.name = s.text(1);
    p.created_at = s.text(2);
    ids.push_back(s.i64(0));
    out.push_back(p);
  }
  if (rc != SQLITE_DONE) {
    fail(error, s.error());
    return {};
  }
  for (size_t i = 0; i < out.size(); ++i)
    if (!fill_levels(ids[i], game, &out[i], error)) return {};
  return out;
}

namespace {

const char* GAME_COLUMNS =
    "SELECT g.id, g.game_id, coalesce(p.name, ''), g.level, g.human, g.rules, g.setup, g.start_fen, g.moves,"
    " g.winner, g.ending, g.by_counting, g.player_result, g.ranked, g.points, g.finished_at"
    " FROM games g LEFT JOIN players p ON p.id = g.player_id ";

FinishedGame game_row(Stmt& s) {
  FinishedGame g;
  g.id = s.i64(0), g.game_id = s.text(1), g.player = s.text(2), g.level = s.text(3), g.human = s.text(4);
  g.rules = s.text(5), g.setup = s.text(6), g.start_fen = s.text(7), g.moves = s.text(8), g.winner = s.text(9);
  g.ending = s.text(10), g.by_counting = s.i64(11) != 0, g.player_result = s.text(12), g.ranked = s.i64(13) != 0;
  g.points = int(s.i64(14)), g.finished_at = s.text(15);
  return g;
}

}  // namespace

bool PlayerDb::games(const std::string& player, int limit, std::vector<FinishedGame>* out, std::string* error,
                     bool newest_first) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string order = newest_first ? "ORDER BY g.id DESC" : "ORDER BY g.id";
  Stmt s(db_, (std::string(GAME_COLUMNS) + "WHERE ?1 = '' OR p.name = ?1 " + order + " LIMIT ?2").c_str());
  s.bind(1, player).bind(2, int64_t(limit));
  out->clear();
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) out->push_back(game_row(s));
  return rc == SQLITE_DONE || fail(error, s.error());
}

bool PlayerDb::game_by_web_id(const std::string& game_id, FinishedGame* out, std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stmt s(db_, (std::string(GAME_COLUMNS) + "WHERE g.game_id = ? ORDER BY g.id DESC LIMIT 1").c_str());
  s.bind(1, game_id);
  int rc = s.step();
  if (rc == SQLITE_DONE) return fail(error, "no finished game '" + game_id + "'");
  if (rc != SQLITE_ROW) return fail(error, s.error());
  *out = game_row(s);
  return true;
}

}  // namespace jz
