// Accounts of the web page: register and sign in with a name and a password, sessions by cookie.
// Passwords are hashed with Argon2id (libsodium's crypto_pwhash_str: memory-hard, salted, its
// parameters inside the stored string) and never stored or logged in clear; a session cookie is 32
// random bytes of which the database keeps only a BLAKE2b hash. Failed sign-ins are limited per
// address. Storage: web/player_db.h; HTTP (cookies, routes): web/accounts_api.h.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace jz {

class PlayerDb;

struct AccountOptions {
  uint64_t hash_ops = 2;            // Argon2id passes (libsodium's "interactive" level)
  size_t hash_mem_bytes = 64 << 20;  // Argon2id memory per hash (interactive: 64 MiB)
  int session_days = 30;
  int max_failures = 5;          // failed sign-ins from one address within the window, then refused
  int failure_window_s = 900;
  int max_hashing = 0;  // password hashes at once (0: one per core); more are told "busy"
  bool secure_cookie = false;  // the session cookie only over HTTPS (a server behind TLS)
};

struct AccountReply {
  int status = 200;       // 200, or 400 bad input, 401 wrong name/password, 409 taken, 429 limited, 503 busy
  std::string error;      // one line for the player
  std::string name;       // the player signed in, as registered
  std::string token;      // the new session's cookie value
  int retry_after_s = 0;  // with 429
};

class Accounts {
 public:
  Accounts(PlayerDb* db, const AccountOptions& o);
  // A new name, or one from before accounts that nobody has claimed: sets its password, signs in.
  AccountReply register_player(const std::string& name, const std::string& password, const std::string& address);
  AccountReply sign_in(const std::string& name, const std::string& password, const std::string& address);
  void sign_out(const std::string& token);
  // The signed-in player of a session cookie; "" for none, an expired or a forged one.
  std::string player_of(const std::string& token);

  const AccountOptions& options() const { return opts_; }

  static bool valid_password(const std::string& password, std::string* error);
  // BLAKE2b-256 of a cookie, hex: what the database keeps.
  static std::string token_hash(const std::string& token);

 private:
  // Failed attempts per address in the window; seconds until the address may try again (0: now).
  int limited_for(const std::string& address);
  void count_failure(const std::string& address);
  bool hash(const std::string& password, std::string* out);
  bool verify(const std::string& stored, const std::string& password);
  AccountReply open_session(const std::string& name);

  PlayerDb* db_;
  AccountOptions opts_;
  std::mutex hash_mutex_;
  std::condition_variable hash_freed_;
  int hashing_ = 0;  // hashes in flight
  std::string dummy_hash_;  // verified against for unknown names, so timing does not tell names apart
  std::mutex failures_mutex_;
  std::unordered_map<std::string, std::deque<std::chrono::steady_clock::time_point>> failures_;
};

}  // namespace jz
