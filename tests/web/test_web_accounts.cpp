// Accounts and sessions (web/accounts.h, web/accounts_api.h) through the socket-free router, as an
// attacker would try them: wrong passwords and their limit per address, a name taken by someone else,
// forged, stolen-then-logged-out and foreign cookies, another player's game, cross-site posts, SQL and
// script in every field; and a name from before accounts claimed once, its points kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>
#include <unistd.h>

#include "web/api.h"
#include "web/games.h"
#include "web/player_db.h"

namespace jz {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

class WebAccounts : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("jz-accounts-" + std::to_string(::getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string err;
    db_ = PlayerDb::open(PlayerDb::file_in(dir_.string()), &err);
    ASSERT_TRUE(db_) << err;
    store_ = std::make_unique<GameStore>(ServerOptions{}, nullptr);
    AccountOptions cheap;  // the smallest Argon2id libsodium allows: the tests hash often
    cheap.hash_ops = 1;
    cheap.hash_mem_bytes = 8192;
    store_->set_player_db(db_, cheap);
  }
  void TearDown() override {
    store_.reset();
    db_.reset();
    fs::remove_all(dir_);
  }

  struct Reply {
    int status;
    json body;
    std::string set_cookie, retry_after;
  };
  Reply call(const std::string& method, const std::string& path, const json& body, const std::string& cookie = "",
             const std::string& address = "10.0.0.1", const std::string& origin = "") {
    WebRequest r;
    r.method = method;
    size_t q = path.find('?');
    r.path = path.substr(0, q);
    for (size_t i = q; i != std::string::npos && i + 1 < path.size();) {  // a=b&c=d (tests send no escapes)
      size_t end = path.find('&', i + 1), eq = path.find('=', i + 1);
      r.params.emplace(path.substr(i + 1, eq - i - 1), path.substr(eq + 1, end == std::string::npos ? end : end - eq - 1));
      i = end;
    }
    r.body = body.is_string() ? body.get<std::string>() : body.dump(-1, ' ', false, json::error_handler_t::replace);
    r.cookie = cookie;
    r.origin = origin;
    r.host = "jz.example:8080";
    r.remote_addr = address;
    WebResponse w = handle_web_request(other_ ? *other_ : *store_, r);
    Reply out{w.status, json::parse(w.body, nullptr, false), "", ""};
    for (auto& [k, v] : w.headers) {
      if (k == "Set-Cookie") out.set_cookie = v;
      if (k == "Retry-After") out.retry_after = v;
    }
    return out;
  }
  // "jz_session=..." as the browser sends it back, from a Set-Cookie header.
  static std::string cookie_of(const Reply& r) { return r.set_cookie.substr(0, r.set_cookie.find(';')); }
  std::string sign_up(const std::string& name, const std::string& password) {
    Reply r = call("POST", "/api/account/register", {{"name", name}, {"password", password}});
    EXPECT_EQ(r.status, 200) << r.body.dump();
    return cookie_of(r);
  }
  std::string who(const std::string& cookie) {
    Reply r = call("GET", "/api/account", json(""), cookie);
    return r.body.value("signed_in", false) ? r.body["name"].get<std::string>() : "";
  }
  std::string file_bytes() {
    std::stringstream ss;
    for (const char* suffix : {"", "-wal"}) {
      std::ifstream in(PlayerDb::file_in(dir_.string()) + suffix, std::ios::binary);
      ss << in.rdbuf();
    }
    return ss.str();
  }

  fs::path dir_;
  std::shared_ptr<PlayerDb> db_;
  std::unique_ptr<GameStore> store_;
  GameStore* other_ = nullptr;  // call() asks this store instead when set
};

TEST_F(WebAccounts, RegisterSetsAnHttpOnlySessionAndStoresOnlyAnArgon2idHash) {
  Reply r = call("POST", "/api/account/register", {{"name", "alice"}, {"password", "correct horse"}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  EXPECT_EQ(r.body["name"], "alice");
  for (const char* attr : {"jz_session=", "HttpOnly", "SameSite=Strict", "Path=/", "Max-Age="})
    EXPECT_NE(r.set_cookie.find(attr), std::string::npos) << r.set_cookie;
  EXPECT_EQ(r.set_cookie.find("Secure"), std::string::npos);  // plain HTTP unless --secure-cookies
  std::string cookie = cookie_of(r);
  EXPECT_EQ(cookie.size(), std::string("jz_session=").size() + 64);
  EXPECT_EQ(who(cookie), "alice");
  EXPECT_EQ(who(""), "");
  std::string canonical, hash, err;
  ASSERT_TRUE(db_->password_hash("alice", &canonical, &hash, &err)) << err;
  EXPECT_EQ(hash.rfind("$argon2id$", 0), 0u) << hash;
  std::string bytes = file_bytes();
  EXPECT_EQ(bytes.find("correct horse"), std::string::npos);               // never in clear
  EXPECT_EQ(bytes.find(cookie.substr(11)), std::string::npos);            // nor the session cookie
  EXPECT_NE(bytes.find("$argon2id$"), std::string::npos);                 // the check can see the file
  // Sign out ends the session: the same cookie, replayed (stolen) afterwards, is a guest's.
  Reply out = call("POST", "/api/account/logout", json::object(), cookie);
  EXPECT_EQ(out.status, 200);
  EXPECT_NE(out.set_cookie.find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(who(cookie), "");
  Reply in = call("POST", "/api/account/login", {{"name", "ALICE"}, {"password", "correct horse"}});
  ASSERT_EQ(in.status, 200) << in.body.dump();
  EXPECT_EQ(in.body["name"], "alice");  // as registered
  EXPECT_NE(cookie_of(in), cookie);     // a fresh session
}

TEST_F(WebAccounts, WrongPasswordsAreLimitedPerAddress) {
  sign_up("bob", "bob's password");
  Reply wrong = call("POST", "/api/account/login", {{"name", "bob"}, {"password", "guess0000"}});
  EXPECT_EQ(wrong.status, 401);
  EXPECT_TRUE(wrong.set_cookie.empty());
  Reply unknown = call("POST", "/api/account/login", {{"name", "nobody"}, {"password", "guess0000"}});
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(unknown.body["error"], wrong.body["error"]);  // a wrong name reads like a wrong password
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(call("POST", "/api/account/login", {{"name", "bob"}, {"password", "guess" + std::to_string(i) + "xyz"}})
                  .status,
              401);
  // Five failures from 10.0.0.1: now even the right password is refused there, with a time to wait.
  Reply limited = call("POST", "/api/account/login", {{"name", "bob"}, {"password", "bob's password"}});
  EXPECT_EQ(limited.status, 429);
  EXPECT_GT(std::stoi(limited.retry_after), 0);
  EXPECT_TRUE(limited.set_cookie.empty());
  // Another address is not affected.
  Reply other = call("POST", "/api/account/login", {{"name", "bob"}, {"password", "bob's password"}}, "", "10.0.0.2");
  EXPECT_EQ(other.status, 200);
}

TEST_F(WebAccounts, ATakenNameCannotBeRegisteredAgain) {
  sign_up("carol", "carol's secret");
  for (const char* name : {"carol", "CAROL", "Carol"}) {
    Reply r = call("POST", "/api/account/register", {{"name", name}, {"password", "attacker's pw"}}, "", "10.9.9.9");
    EXPECT_EQ(r.status, 409) << name;
    EXPECT_TRUE(r.set_cookie.empty());
  }
  EXPECT_EQ(call("POST", "/api/account/login", {{"name", "carol"}, {"password", "attacker's pw"}}).status, 401);
  EXPECT_EQ(call("POST", "/api/account/login", {{"name", "carol"}, {"password", "carol's secret"}}).status, 200);
}

TEST_F(WebAccounts, ForgedCookiesAreGuests) {
  std::string real = sign_up("dave", "dave's password");
  std::string value = real.substr(11);
  std::string flipped = value;
  flipped[0] = flipped[0] == 'a' ? 'b' : 'a';
  for (const std::string& c : std::vector<std::string>{"jz_session=" + flipped, "jz_session=" + std::string(64, '0'), std::string("jz_session=dave"),
                               "jz_session=" + value.substr(0, 63), "jz_session=" + value + "00",
                               "jz_session=' OR '1'='1", "other=" + value, std::string(4000, ';')})
    EXPECT_EQ(who(c), "") << c;
  EXPECT_EQ(who("theme=dark; " + real + "; lang=ko"), "dave");  // among other cookies
}

TEST_F(WebAccounts, RankedGamesAreForSignedInPlayersAndOnlyTheyMoveInThem) {
  EXPECT_EQ(call("POST", "/api/new", {{"ranked", true}, {"level", "easy"}}).status, 401);  // a guest
  EXPECT_EQ(call("POST", "/api/new", {{"player", "erin"}, {"level", "easy"}}).status, 401);  // naming someone
  Reply guest = call("POST", "/api/new", {{"level", "easy"}});
  ASSERT_EQ(guest.status, 200);
  EXPECT_EQ(guest.body["rank"]["player"], "");
  std::string erin = sign_up("erin", "erin's password"), frank = sign_up("frank", "frank's password");
  EXPECT_EQ(call("POST", "/api/new", {{"player", "frank"}, {"ranked", true}}, erin).status, 401);
  Reply game = call("POST", "/api/new", {{"ranked", true}, {"level", "easy"}}, erin);
  ASSERT_EQ(game.status, 200) << game.body.dump();
  EXPECT_EQ(game.body["rank"]["player"], "erin");
  EXPECT_TRUE(game.body["rank"]["ranked"].get<bool>());
  std::string id = game.body["id"];
  auto legal = game.body["legal"].begin();
  std::string move = legal.key() + (*legal)[0].get<std::string>();
  // Someone who knows the id cannot play, resign, undo or ask for a hint in it.
  for (const std::string& cookie : {std::string(), frank, std::string("jz_session=") + std::string(64, 'f')})
    for (const char* path : {"/api/move", "/api/resign", "/api/undo", "/api/hint", "/api/engine"}) {
      Reply r = call("POST", path, {{"id", id}, {"move", move}}, cookie);
      EXPECT_EQ(r.status, 403) << path << " " << cookie;
    }
  EXPECT_EQ(call("GET", "/api/state?id=" + id, json("")).status, 200);  // watching is open
  EXPECT_EQ(call("POST", "/api/move", {{"id", id}, {"move", move}}, erin).status, 200);
  // A guest's game is anyone's who holds its id (as before accounts).
  std::string gid = guest.body["id"];
  EXPECT_EQ(call("POST", "/api/resign", {{"id", gid}}, frank).status, 200);
}

TEST_F(WebAccounts, CrossSitePostsAreRefused) {
  std::string cookie = sign_up("gina", "gina's password");
  Reply evil = call("POST", "/api/new", {{"level", "easy"}}, cookie, "10.0.0.1", "https://evil.example");
  EXPECT_EQ(evil.status, 403);
  EXPECT_EQ(call("POST", "/api/account/logout", json::object(), cookie, "10.0.0.1", "http://evil.example:8080").status,
            403);
  EXPECT_EQ(who(cookie), "gina");
  EXPECT_EQ(call("POST", "/api/new", {{"level", "easy"}}, cookie, "10.0.0.1", "http://jz.example:8080").status, 200);
}

TEST_F(WebAccounts, SqlAndScriptInEveryFieldAreInertOrRefused) {
  const std::vector<std::string> hostile = {"x' OR '1'='1", "'); DROP TABLE players;--", "<script>alert(1)</script>",
                                            "\"><img src=x onerror=alert(1)>", std::string("a\0b", 3), "\xff\xfe"};
  for (const std::string& h : hostile) {
    EXPECT_EQ(call("POST", "/api/account/register", {{"name", h}, {"password", "long enough"}}).status, 400) << h;
    Reply in = call("POST", "/api/account/login", {{"name", h}, {"password", h + "12345678"}}, "", "10.1.1." + std::to_string(h.size()));
    EXPECT_EQ(in.status, 401) << h;
    for (const char* field : {"rules", "level", "human", "cho_setup", "han_setup", "fen", "rule_options", "player"}) {
      Reply r = call("POST", "/api/new", {{field, h}});
      EXPECT_TRUE(r.status == 400 || r.status == 401) << field << " " << r.status;
      EXPECT_TRUE(r.body.is_object()) << field;  // JSON (served as application/json with nosniff)
    }
  }
  // As a password, SQL is just characters: it hashes, signs in, and the tables stay.
  std::string pw = "'); DROP TABLE players;--";
  sign_up("henry", pw);
  EXPECT_EQ(call("POST", "/api/account/login", {{"name", "henry"}, {"password", pw}}).status, 200);
  EXPECT_EQ(call("GET", "/api/player?name=henry", json("")).status, 200);
  EXPECT_EQ(call("GET", "/api/leaderboard", json("")).status, 200);
  for (const json& bad : {json("{nope"), json(json::array()), json{{"name", "ivan"}}, json{{"name", 5}, {"password", "x"}},
                          json{{"name", "ivan"}, {"password", "short"}}})
    EXPECT_EQ(call("POST", "/api/account/register", bad).status, 400) << bad.dump();
}

TEST_F(WebAccounts, ANameFromBeforeAccountsIsClaimedOnceWithItsPoints) {
  // A ranked win stored for "kim" with no account: as an older database holds its players.
  FinishedGame g;
  g.game_id = "0123456789abcdef", g.player = "kim", g.level = "easy", g.human = "cho", g.rules = "janggi";
  g.setup = "inner-inner", g.start_fen = "x", g.winner = "cho", g.ending = "resignation";
  g.player_result = "win", g.ranked = true, g.points = 10;
  std::string err;
  ASSERT_TRUE(db_->record_game(g, &err)) << err;
  Reply in = call("POST", "/api/account/login", {{"name", "kim"}, {"password", "anything1"}});
  EXPECT_EQ(in.status, 401);
  EXPECT_NE(in.body["error"].get<std::string>().find("register"), std::string::npos);
  Reply claim = call("POST", "/api/account/register", {{"name", "Kim"}, {"password", "kim's new password"}});
  ASSERT_EQ(claim.status, 200) << claim.body.dump();
  EXPECT_EQ(claim.body["name"], "kim");
  EXPECT_EQ(call("GET", "/api/player?name=kim", json("")).body["points"], 10);
  EXPECT_EQ(call("POST", "/api/account/register", {{"name", "kim"}, {"password", "second claim"}}).status, 409);
}

TEST_F(WebAccounts, ARankedGameWithoutAMoveForTheLimitCountsAsLost) {
  ServerOptions o;
  o.abandon_seconds = 1;
  GameStore store(o, nullptr);
  AccountOptions cheap;
  cheap.hash_ops = 1;
  cheap.hash_mem_bytes = 8192;
  store.set_player_db(db_, cheap);
  other_ = &store;
  std::string cookie = sign_up("ida", "ida's password");
  Reply game = call("POST", "/api/new", {{"ranked", true}, {"level", "easy"}}, cookie);
  ASSERT_EQ(game.status, 200) << game.body.dump();
  std::string id = game.body["id"];
  auto legal = game.body["legal"].begin();
  ASSERT_EQ(call("POST", "/api/move", {{"id", id}, {"move", legal.key() + (*legal)[0].get<std::string>()}}, cookie).status,
            200);
  json s;
  for (int i = 0; i < 100; ++i) {  // a deadline: 10 s
    s = call("GET", "/api/state?id=" + id, json("")).body;
    if (s["result"]["over"].get<bool>()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  other_ = nullptr;
  ASSERT_TRUE(s["result"]["over"].get<bool>()) << s.dump();
  EXPECT_EQ(s["rank"]["result"], "loss");
  EXPECT_NE(s["rank"]["note"].get<std::string>().find("abandoned"), std::string::npos);
  EXPECT_EQ(call("GET", "/api/player?name=ida", json("")).body["losses"], 1);
}

}  // namespace
}  // namespace jz
