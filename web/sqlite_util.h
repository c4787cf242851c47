// SQLite helpers for the web's database files (web/player_db.cpp, web/player_db_accounts.cpp):
// prepared statements with bound parameters only, one-shot statements, and a transaction that
// rolls back unless committed.
#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace jz::sql {

// A prepared statement; text parameters are always bound, never pasted into SQL.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) { rc_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Stmt() { sqlite3_finalize(s_); }
  bool ok() const { return rc_ == SQLITE_OK; }
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& bind_null(int i) {
    sqlite3_bind_null(s_, i);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return rc_ = s_ ? sqlite3_step(s_) : rc_; }
  int64_t i64(int c) { return sqlite3_column_int64(s_, c); }
  std::string text(int c) {
    const unsigned char* t = sqlite3_column_text(s_, c);
    return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(s_, c))) : std::string();
  }
  std::string error() const { return sqlite3_errmsg(db_); }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
  int rc_;
};

inline bool exec(sqlite3* db, const char* sql, std::string* error) {
  char* msg = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &msg) == SQLITE_OK) return true;
  if (error) *error = msg ? msg : sqlite3_errmsg(db);
  sqlite3_free(msg);
  return false;
}

// One integer from a statement without parameters (pragmas); false on error.
inline bool scalar(sqlite3* db, const char* sql, int64_t& out, std::string* error) {
  Stmt s(db, sql);
  if (!s.ok() || s.step() != SQLITE_ROW) {
    if (error) *error = sqlite3_errmsg(db);
    return false;
  }
  out = s.i64(0);
  return true;
}

// Rolls back unless committed.
class Transaction {
 public:
  Transaction(sqlite3* db, std::string* error) : db_(db) { ok_ = exec(db, "BEGIN IMMEDIATE", error); }
  ~Transaction() {
    if (ok_ && !done_) exec(db_, "ROLLBACK", nullptr);
  }
  bool ok() const { return ok_; }
  bool commit(std::string* error) { return done_ = exec(db_, "COMMIT", error); }

 private:
  sqlite3* db_;
  bool ok_ = false, done_ = false;
};

inline bool fail(std::string* error, const std::string& msg) {
  if (error) *error = msg;
  return false;
}

}  // namespace jz::sql
