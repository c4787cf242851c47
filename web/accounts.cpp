#include "web/accounts.h"

#include <sodium.h>

#include <stdexcept>
#include <thread>

#include "web/player_db.h"

namespace jz {

namespace {

const char* WRONG = "wrong name or password";

int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string hex(const unsigned char* p, size_t n) {
  std::string out(2 * n + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), p, n);
  out.pop_back();
  return out;
}

AccountReply refused(int status, const std::string& why) {
  AccountReply r;
  r.status = status;
  r.error = why;
  return r;
}

// Holds one of the hashing slots for its lifetime; waits up to 3 s for one (a burst of sign-ins
// queues briefly: each hash takes 64 MiB and ~0.1 s), then `ok` is false and the caller says busy.
struct HashGate {
  HashGate(std::mutex& m, std::condition_variable& cv, int& in_use, int max) : mutex(m), freed(cv), count(in_use) {
    std::unique_lock<std::mutex> lock(mutex);
    ok = freed.wait_for(lock, std::chrono::seconds(3), [&] { return count < max; });
    if (ok) ++count;
  }
  ~HashGate() {
    if (!ok) return;
    std::lock_guard<std::mutex> lock(mutex);
    --count;
    freed.notify_one();
  }
  std::mutex& mutex;
  std::condition_variable& freed;
  int& count;
  bool ok;
};

}  // namespace

Accounts::Accounts(PlayerDb* db, const AccountOptions& o) : db_(db), opts_(o) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  if (opts_.max_hashing <= 0) opts_.max_hashing = int(std::max(1u, std::thread::hardware_concurrency()));
  unsigned char random[16];
  randombytes_buf(random, sizeof random);
  if (!hash(hex(random, sizeof random), &dummy_hash_)) throw std::runtime_error("cannot hash a password (memory?)");
}

bool Accounts::valid_password(const std::string& password, std::string* error) {
  bool ok = password.size() >= 8 && password.size() <= 256 && password.find('\0') == std::string::npos;
  if (!ok && error) *error = "a password has 8 to 256 characters";
  return ok;
}

std::string Accounts::token_hash(const std::string& token) {
  unsigned char h[crypto_generichash_BYTES];
  crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
  return hex(h, sizeof h);
}

bool Accounts::hash(const std::string& password, std::string* out) {
  char buf[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(buf, password.data(), password.size(), opts_.hash_ops, opts_.hash_mem_bytes,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    return false;
  *out = buf;
  return true;
}

bool Accounts::verify(const std::string& stored, const std::string& password) {
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

int Accounts::limited_for(const std::string& address) {
  std::lock_guard<std::mutex> lock(failures_mutex_);
  auto it = failures_.find(address);
  if (it == failures_.end()) return 0;
  auto now = std::chrono::steady_clock::now();
  auto window = std::chrono::seconds(opts_.failure_window_s);
  auto& times = it->second;
  while (!times.empty() && now - times.front() >= window) times.pop_front();
  if (times.empty()) {
    failures_.erase(it);
    return 0;
  }
  if (int(times.size()) < opts_.max_failures) return 0;
  return int(std::chrono::duration_cast<std::chrono::seconds>(times.front() + window - now).count()) + 1;
}

void Accounts::count_failure(const std::string& address) {
  std::lock_guard<std::mutex> lock(failures_mutex_);
  // Bounded memory under a flood of addresses: forget the oldest records when there are too many.
  if (failures_.size() > 100000) failures_.clear();
  auto& times = failures_[address];
  times.push_back(std::chrono::steady_clock::now());
  while (int(times.size()) > opts_.max_failures) times.pop_front();
}

AccountReply Accounts::open_session(const std::string& name) {
  unsigned char random[32];
  randombytes_buf(random, sizeof random);
  AccountReply r;
  r.name = name;
  r.token = hex(random, sizeof random);
  std::string err;
  if (!db_->add_session(token_hash(r.token), name, unix_now() + int64_t(opts_.session_days) * 86400, &err))
    return refused(503, "cannot sign in now: " + err);
  return r;
}

AccountReply Accounts::register_player(const std::string& name, const std::string& password,
                                       const std::string& address) {
  std::string err;
  if (!PlayerDb::valid_name(name, &err) || !valid_password(password, &err)) return refused(400, err);
  if (int wait = limited_for(address)) {
    AccountReply r = refused(429, "too many failed attempts from this address: try again later");
    r.retry_after_s = wait;
    return r;
  }
  std::string stored, canonical;
  {
    HashGate gate(hash_mutex_, hash_freed_, hashing_, opts_.max_hashing);
    if (!gate.ok) return refused(503, "the server is busy: try again in a moment");
    if (!hash(password, &stored)) return refused(503, "cannot hash the password now");
  }
  PlayerDb::Claim claim;
  if (!db_->claim_name(name, stored, &claim, &canonical, &err)) return refused(503, err);
  if (claim == PlayerDb::Claim::taken) {
    count_failure(address);
    return refused(409, "the name '" + canonical + "' is taken: choose another, or sign in");
  }
  return open_session(canonical);
}

AccountReply Accounts::sign_in(const std::string& name, const std::string& password, const std::string& address) {
  if (int wait = limited_for(address)) {
    AccountReply r = refused(429, "too many failed attempts from this address: try again later");
    r.retry_after_s = wait;
    return r;
  }
  std::string canonical, stored, err;
  bool known = PlayerDb::valid_name(name, nullptr) && db_->password_hash(name, &canonical, &stored, &err);
  bool ok;
  {
    HashGate gate(hash_mutex_, hash_freed_, hashing_, opts_.max_hashing);
    if (!gate.ok) return refused(503, "the server is busy: try again in a moment");
    // An unknown or unclaimed name costs the same as a wrong password.
    ok = verify(known && !stored.empty() ? stored : dummy_hash_, password) && known && !stored.empty();
  }
  if (!ok) {
    count_failure(address);
    if (known && stored.empty())
      return refused(401, "'" + canonical + "' has no password yet: register the name to claim it");
    return refused(401, WRONG);
  }
  return open_session(canonical);
}

void Accounts::sign_out(const std::string& token) {
  if (!token.empty()) db_->delete_session(token_hash(token), nullptr);
}

std::string Accounts::player_of(const std::string& token) {
  // A session cookie is 64 hex digits; anything else is not looked up.
  if (token.size() != 64 || token.find_first_not_of("0123456789abcdef") != std::string::npos) return "";
  std::string name;
  return db_->session_player(token_hash(token), unix_now(), &name, nullptr) ? name : "";
}

}  // namespace jz
