// Players, their points and their finished games in one SQLite file (`serve --data-dir DIR`:
// DIR/janggi-zero.sqlite). The file carries application_id 'JZDB' and a schema version
// (PRAGMA user_version, SCHEMA_VERSION now); opening migrates an older file step by step in one
// transaction, and refuses, without writing a byte, a file that is not a SQLite database, fails its
// integrity check, belongs to another application, or has a newer schema. WAL mode; one connection
// behind a mutex, so any number of games may finish at once; every statement with outside data is a
// prepared statement with bound parameters. Schema: docs/architecture.md.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct sqlite3;

namespace jz {

// A finished game as the database keeps it.
struct FinishedGame {
  int64_t id = 0;       // row id (set by the database)
  std::string game_id;  // the web game's id
  std::string player;   // "" = nobody named
  std::string level;    // easy, normal, expert, net
  std::string human;    // cho, han, both, none
  std::string rules;    // rule set name
  std::string setup;    // setup name, "" for a FEN start
  std::string start_fen;
  std::string moves;   // UCI moves, space-separated
  std::string winner;  // cho, han, draw
  std::string ending;  // core/rules.h ending_name
  bool by_counting = false;
  std::string player_result;  // win, loss, draw from the player's view ("" without one person vs the engine)
  bool ranked = false;        // counted in the player's ranked record
  int points = 0;             // points it earned
  std::string finished_at;    // UTC, ISO 8601 (set by the database)
};

struct LevelStats {
  std::string level;
  int points = 0, wins = 0, losses = 0, draws = 0;
};

// A player's record on one game's ladder (Janggi and Xiangqi rank apart).
struct PlayerStats {
  std::string name;
  std::string created_at;
  std::string game = "janggi";                      // the ladder: janggi or xiangqi
  int points = 0, wins = 0, losses = 0, draws = 0;  // over all levels of that game (ranked games)
  int games = 0;                                    // finished games of any kind, of every game
  std::vector<LevelStats> levels;
};

// The ladder a stored game's rule set belongs to: "xiangqi" or "janggi" (any Janggi rule set).
std::string game_of_rules(const std::string& rules);

class PlayerDb {
 public:
  static constexpr int SCHEMA_VERSION = 4;
  static constexpr int APPLICATION_ID = 0x4A5A4442;  // "JZDB"

  // Opens (creating it if absent) the database at `path` (":memory:" for a private one).
  // nullptr + one line in *error when the file is refused.
  static std::unique_ptr<PlayerDb> open(const std::string& path, std::string* error);
  // The file name inside a data directory.
  static std::string file_in(const std::string& data_dir);
  ~PlayerDb();
  PlayerDb(const PlayerDb&) = delete;
  PlayerDb& operator=(const PlayerDb&) = delete;

  // 2..20 characters: letters a-z A-Z, digits, Hangul syllables, '_', '-', '.'; false + reason.
  static bool valid_name(const std::string& name, std::string* error);

  // Creates the player if new (names are unique regardless of ASCII case). False + *error.
  bool ensure_player(const std::string& name, PlayerStats* out, std::string* error);
  // A player's record on `game`'s ladder; false: unknown or error.
  bool player(const std::string& name, PlayerStats* out, std::string* error, const std::string& game = "janggi");
  // Stores a finished game and, for a ranked one with a player, adds its result and points to the
  // player's record, all in one transaction. Sets g.id and g.finished_at.
  bool record_game(FinishedGame& g, std::string* error);
  // Players by points on `game`'s ladder (then wins, then name), at most `limit`.
  std::vector<PlayerStats> leaderboard(int limit, std::string* error, const std::string& game = "janggi");
  // Finished games, oldest first (or the newest `limit` newest first), optionally one player's only ("" = all).
  bool games(const std::string& player, int limit, std::vector<FinishedGame>* out, std::string* error,
             bool newest_first = false);

  // The stored game of a web game id (the newest, should one id be stored twice); false when none.
  bool game_by_web_id(const std::string& game_id, FinishedGame* out, std::string* error);

  int schema_version();

  // Accounts (web/player_db_accounts.cpp; web/accounts.h hashes and decides). `password_hash` is
  // libsodium's encoded Argon2id string; a player from before accounts has none until claimed.
  enum class Claim { created, claimed, taken };
  // Gives `name` this password: a new player (created), a player without a password (claimed), or
  // none when someone holds it (taken). *canonical: the name as first registered.
  bool claim_name(const std::string& name, const std::string& password_hash, Claim* result, std::string* canonical,
                  std::string* error);
  // The stored hash ("" when unclaimed); false for an unknown name or an error (*error says which).
  bool password_hash(const std::string& name, std::string* canonical, std::string* hash, std::string* error);
  bool add_session(const std::string& token_hash, const std::string& name, int64_t expires_unix, std::string* error);
  // The player of a live session; false when there is none (expired ones are deleted).
  bool session_player(const std::string& token_hash, int64_t now_unix, std::string* name, std::string* error);
  bool delete_session(const std::string& token_hash, std::string* error);

 private:
  PlayerDb() = default;
  bool fill_levels(int64_t player_id, const std::string& game, PlayerStats* out, std::string* error);
  std::mutex mutex_;
  sqlite3* db_ = nullptr;
};

}  // namespace jz
