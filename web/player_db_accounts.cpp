// PlayerDb's account rows: passwords and sessions (web/player_db.h). Hashing and policy live in
// web/accounts.cpp; this file only stores, with bound parameters.
#include <sqlite3.h>

#include "web/player_db.h"
#include "web/sqlite_util.h"

namespace jz {

using sql::fail;
using sql::Stmt;
using sql::Transaction;

bool PlayerDb::claim_name(const std::string& name, const std::string& password_hash, Claim* result,
                          std::string* canonical, std::string* error) {
  if (!valid_name(name, error)) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  Transaction t(db_, error);
  if (!t.ok()) return false;
  Stmt q(db_, "SELECT name, password_hash IS NOT NULL FROM players WHERE name = ?");
  q.bind(1, name);
  int rc = q.step();
  if (rc == SQLITE_ROW && q.i64(1)) {
    *result = Claim::taken;
    *canonical = q.text(0);
    return true;
  }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return fail(error, q.error());
  bool exists = rc == SQLITE_ROW;
  *canonical = exists ? q.text(0) : name;
  Stmt w(db_, exists ? "UPDATE players SET password_hash = ?1 WHERE name = ?2 AND password_hash IS NULL"
                     : "INSERT INTO players(name, password_hash) VALUES (?2, ?1)");
  w.bind(1, password_hash).bind(2, name);
  if (w.step() != SQLITE_DONE) return fail(error, w.error());
  *result = exists ? Claim::claimed : Claim::created;
  return t.commit(error);
}

bool PlayerDb::password_hash(const std::string& name, std::string* canonical, std::string* hash,
                             std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stmt q(db_, "SELECT name, coalesce(password_hash, '') FROM players WHERE name = ?");
  q.bind(1, name);
  int rc = q.step();
  if (rc == SQLITE_DONE) return fail(error, "unknown player '" + name + "'");
  if (rc != SQLITE_ROW) return fail(error, q.error());
  *canonical = q.text(0);
  *hash = q.text(1);
  return true;
}

bool PlayerDb::add_session(const std::string& token_hash, const std::string& name, int64_t expires_unix,
                           std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stmt s(db_, "INSERT INTO sessions(token_hash, player_id, expires_at) SELECT ?1, id, ?3 FROM players WHERE name = ?2");
  s.bind(1, token_hash).bind(2, name).bind(3, expires_unix);
  if (s.step() != SQLITE_DONE) return fail(error, s.error());
  return sqlite3_changes(db_) == 1 || fail(error, "unknown player '" + name + "'");
}

bool PlayerDb::session_player(const std::string& token_hash, int64_t now_unix, std::string* name,
                              std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stmt purge(db_, "DELETE FROM sessions WHERE expires_at <= ?");
  purge.bind(1, now_unix);
  if (purge.step() != SQLITE_DONE) return fail(error, purge.error());
  Stmt q(db_, "SELECT p.name FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?");
  q.bind(1, token_hash);
  int rc = q.step();
  if (rc == SQLITE_DONE) return fail(error, "no such session");
  if (rc != SQLITE_ROW) return fail(error, q.error());
  *name = q.text(0);
  return true;
}

bool PlayerDb::delete_session(const std::string& token_hash, std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stmt s(db_, "DELETE FROM sessions WHERE token_hash = ?");
  s.bind(1, token_hash);
  return s.step() == SQLITE_DONE || fail(error, s.error());
}

}  // namespace jz
