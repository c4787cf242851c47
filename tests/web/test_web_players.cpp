// The web API's levels, players and ranked games over real HTTP, with a player database in a
// temporary data directory: level limits and points, name validation, the ranked-game rules (undo
// and hints end them, FEN starts and two-person games are refused), records and the leaderboard,
// export, and 50 games finishing concurrently with none lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <httplib.h>

#include <atomic>
#include <map>
#include <mutex>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>
#include <vector>

#include "web/games.h"
#include "web/player_db.h"
#include "web/server.h"

namespace jz {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

class WebPlayers : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("jz-webplayers-" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    std::string err;
    std::shared_ptr<PlayerDb> db = PlayerDb::open(PlayerDb::file_in(dir_->string()), &err);
    ASSERT_TRUE(db) << err;
    ServerOptions o;
    o.port = 0;
    o.max_games = 128;
    server_ = new WebServer(o, nullptr);
    AccountOptions cheap;  // the smallest Argon2id libsodium allows: every test player registers
    cheap.hash_ops = 1;
    cheap.hash_mem_bytes = 8192;
    server_->store().set_player_db(db, cheap);
    port_ = server_->bind(&err);
    ASSERT_GT(port_, 0) << err;
    thread_ = new std::thread([] { server_->run(); });
  }
  static void TearDownTestSuite() {
    server_->stop();
    thread_->join();
    delete thread_;
    delete server_;
    fs::remove_all(*dir_);
    delete dir_;
  }
  // Requests carry the session of the player this thread plays as (`as`); "" = a guest.
  static void as(const std::string& name) { as_ = name; }
  static std::string session_of(const std::string& name) {
    if (name.empty()) return "";
    static std::mutex mutex;
    static std::map<std::string, std::string> sessions;
    std::lock_guard<std::mutex> lock(mutex);
    if (sessions.count(name)) return sessions[name];
    httplib::Client c("127.0.0.1", port_);
    json creds{{"name", name}, {"password", "password of " + name}};
    auto r = c.Post("/api/account/register", creds.dump(), "application/json");
    if (r && r->status == 409) r = c.Post("/api/account/login", creds.dump(), "application/json");
    if (!r || r->status != 200) return "";
    std::string set = r->get_header_value("Set-Cookie");
    return sessions[name] = set.substr(0, set.find(';'));
  }
  static std::pair<int, json> call(const std::string& method, const std::string& path, const std::string& body = "") {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(60, 0);
    httplib::Headers h;
    if (!as_.empty()) h.emplace("Cookie", session_of(as_));
    auto r = method == "GET" ? c.Get(path.c_str(), h) : c.Post(path.c_str(), h, body, "application/json");
    if (!r) return {-1, json()};
    json j = json::parse(r->body, nullptr, false);
    if (j.is_discarded()) j = r->body;  // exports are text
    return {r->status, j};
  }
  static std::pair<int, json> post(const std::string& path, const json& body) {
    return call("POST", path, body.dump());
  }
  static std::pair<int, json> get(const std::string& path) { return call("GET", path); }
  // The first legal move of the state (a person's move).
  static std::string first_move(const json& s) {
    auto it = s["legal"].begin();
    return it.key() + (*it)[0].get<std::string>();
  }

  static fs::path* dir_;
  static WebServer* server_;
  static std::thread* thread_;
  static int port_;
  static thread_local std::string as_;
};
thread_local std::string WebPlayers::as_;
fs::path* WebPlayers::dir_ = nullptr;
WebServer* WebPlayers::server_ = nullptr;
std::thread* WebPlayers::thread_ = nullptr;
int WebPlayers::port_ = 0;

TEST_F(WebPlayers, InfoListsLevelsWithLimitsAndPoints) {
  auto [st, info] = get("/api/info");
  ASSERT_EQ(st, 200);
  EXPECT_TRUE(info["players"].get<bool>());
  EXPECT_NE(info["ranked_rule"].get<std::string>().find("no undo"), std::string::npos);
  std::map<std::string, int> points;
  for (auto& l : info["level_info"]) points[l["name"]] = l["points"];
  EXPECT_EQ(points, (std::map<std::string, int>{{"easy", 10}, {"normal", 30}, {"expert", 100}}));
  EXPECT_EQ(info["level_info"][2]["limit_ms"], 2000);
}

TEST_F(WebPlayers, EndpointsValidateTheirParameters) {
  EXPECT_EQ(post("/api/player", {{"name", "kim"}}).first, 404);  // players are made by registering
  for (const json& bad : {json{{"name", "k"}}, json{{"name", "<b>"}}, json{{"name", 5}}, json::array(), json{}})
    EXPECT_EQ(post("/api/account/register", bad).first, 400) << bad.dump();
  EXPECT_EQ(get("/api/player?name=nobody").first, 404);
  EXPECT_EQ(get("/api/player?name=%3Cx%3E").first, 400);
  EXPECT_EQ(get("/api/player").first, 400);
  for (const char* q : {"?limit=0", "?limit=abc", "?limit=100000000", "?limit=-1"})
    EXPECT_EQ(get(std::string("/api/leaderboard") + q).first, 400) << q;
  EXPECT_EQ(get("/api/export?format=pdf").first, 400);
  EXPECT_EQ(get("/api/games?player=a%20b").first, 400);
  EXPECT_EQ(get("/api/games?order=sideways").first, 400);
  EXPECT_EQ(post("/api/leaderboard", json::object()).first, 404);
  auto [st, e] = post("/api/new", {{"player", "x y"}});
  EXPECT_EQ(st, 401);  // a guest may not name a player
  EXPECT_TRUE(e["error"].is_string());
}

TEST_F(WebPlayers, RankedGameRules) {
  as("");
  EXPECT_EQ(post("/api/new", {{"ranked", true}}).first, 401);  // a guest
  as("lee");
  EXPECT_EQ(post("/api/new", {{"ranked", "yes"}, {"player", "lee"}}).first, 400);
  EXPECT_EQ(post("/api/new", {{"ranked", true}, {"player", "lee"}, {"human", "both"}}).first, 400);
  EXPECT_EQ(post("/api/new", {{"ranked", true}, {"player", "lee"}, {"rules", "janggicasual"}}).first, 400);
  EXPECT_EQ(
      post("/api/new", {{"ranked", true}, {"player", "lee"}, {"fen", "3k5/R8/R8/9/9/9/9/9/9/4K4 w - - 0 1"}}).first,
      400);
  // Undo ends a ranked game's claim to points.
  auto [st, s] = post("/api/new", {{"ranked", true}, {"player", "lee"}, {"level", "easy"}});
  ASSERT_EQ(st, 200) << s.dump();
  EXPECT_TRUE(s["rank"]["ranked"].get<bool>());
  EXPECT_EQ(s["rank"]["player"], "lee");
  std::string id = s["id"];
  ASSERT_EQ(post("/api/move", {{"id", id}, {"move", first_move(s)}}).first, 200);
  auto [est, e] = post("/api/engine", {{"id", id}});
  ASSERT_EQ(est, 200) << e.dump();
  EXPECT_TRUE(e["state"]["rank"]["ranked"].get<bool>());
  // A ranked game shows no evaluation or line (they would be hints): who answered and how fast only.
  for (const json& ev : {e["eval"], e["state"]["eval"]}) {
    EXPECT_TRUE(ev["hidden"].get<bool>()) << ev.dump();
    EXPECT_FALSE(ev.contains("pv") || ev.contains("cp") || ev.contains("wdl") || ev.contains("mate")) << ev.dump();
    EXPECT_EQ(ev["by"], "easy");
    EXPECT_TRUE(ev["think_ms"].is_number());
  }
  EXPECT_FALSE(get("/api/state?id=" + id).second["eval"].contains("pv"));
  auto [ust, u] = post("/api/undo", {{"id", id}});
  ASSERT_EQ(ust, 200);
  EXPECT_FALSE(u["rank"]["ranked"].get<bool>());
  EXPECT_NE(u["rank"]["note"].get<std::string>().find("taken back"), std::string::npos);
  // So does the engine moving on the person's turn.
  s = post("/api/new", {{"ranked", true}, {"player", "lee"}, {"level", "easy"}}).second;
  e = post("/api/engine", {{"id", s["id"]}}).second;
  EXPECT_FALSE(e["state"]["rank"]["ranked"].get<bool>());
  EXPECT_TRUE(e["eval"].contains("pv"));  // unranked: the whole report
  // And a hint, which shows the level's move without playing it.
  s = post("/api/new", {{"ranked", true}, {"player", "lee"}, {"level", "easy"}}).second;
  auto [hst, h] = post("/api/hint", {{"id", s["id"]}});
  ASSERT_EQ(hst, 200) << h.dump();
  const std::string hint = h["hint"];
  const size_t to = std::isdigit(static_cast<unsigned char>(hint[2])) ? 3 : 2;  // "a10b10": two-digit ranks
  const json& legal = s["legal"][hint.substr(0, to)];
  EXPECT_TRUE(std::find(legal.begin(), legal.end(), json(hint.substr(to))) != legal.end()) << hint;
  EXPECT_EQ(h["state"]["ply"], 0);
  EXPECT_FALSE(h["state"]["rank"]["ranked"].get<bool>());
  EXPECT_NE(h["state"]["rank"]["note"].get<std::string>().find("hint"), std::string::npos);
  ASSERT_EQ(post("/api/move", {{"id", s["id"]}, {"move", hint}}).first, 200);
  EXPECT_EQ(post("/api/hint", {{"id", s["id"]}}).first, 409);  // the engine's turn
  EXPECT_EQ(post("/api/hint", {{"id", "nope"}}).first, 404);
  EXPECT_EQ(post("/api/hint", json::array()).first, 400);
  // A ranked game lost by resignation is stored and counted, with no points.
  s = post("/api/new", {{"ranked", true}, {"player", "lee"}, {"level", "normal"}, {"human", "han"}}).second;
  id = s["id"];
  ASSERT_EQ(post("/api/engine", {{"id", id}}).first, 200);
  auto [rst, r] = post("/api/resign", {{"id", id}});
  ASSERT_EQ(rst, 200);
  EXPECT_TRUE(r["rank"]["recorded"].get<bool>());
  EXPECT_EQ(r["rank"]["result"], "loss");
  EXPECT_TRUE(r["eval"].contains("pv")) << r["eval"].dump();  // over: the evaluation returns
  EXPECT_EQ(r["rank"]["points"], 0);
  // A ranked game left while it is on (a new game by the same player) counts as lost.
  as("park");
  s = post("/api/new", {{"ranked", true}, {"player", "park"}, {"level", "easy"}}).second;
  const std::string left = s["id"];
  ASSERT_EQ(post("/api/move", {{"id", left}, {"move", first_move(s)}}).first, 200);
  ASSERT_EQ(post("/api/new", {{"player", "park"}, {"level", "easy"}}).first, 200);
  auto gone = get("/api/state?id=" + left).second;
  EXPECT_TRUE(gone["result"]["over"].get<bool>()) << gone.dump();
  EXPECT_TRUE(gone["rank"]["recorded"].get<bool>());
  EXPECT_EQ(gone["rank"]["result"], "loss");
  EXPECT_EQ(get("/api/player?name=park").second["losses"], 1);
  // An unranked or unstarted one is not: the new game above has no move and is not ranked.
  ASSERT_EQ(post("/api/new", {{"player", "park"}, {"level", "easy"}}).first, 200);
  EXPECT_EQ(get("/api/player?name=park").second["losses"], 1);
  as("");
  auto [pst, p] = get("/api/player?name=lee");
  ASSERT_EQ(pst, 200);
  EXPECT_EQ(p["losses"], 1);
  EXPECT_EQ(p["levels"]["normal"]["losses"], 1);
  EXPECT_EQ(p["points"], 0);
  auto board = get("/api/leaderboard").second;
  bool listed = false;
  for (auto& row : board["players"]) listed = listed || row["name"] == "lee";
  EXPECT_TRUE(listed);
  auto games = get("/api/games?player=lee").second["games"];
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0]["result"], "loss");
  EXPECT_EQ(games[0]["level"], "normal");
  EXPECT_EQ(games[0]["setup"], "inner-inner");
  auto [xst, x] = get("/api/export?format=jsonl&player=lee");
  ASSERT_EQ(xst, 200);
  // One game: the export is one JSON line, which parses as a whole.
  ASSERT_TRUE(x.is_object()) << x.dump();
  EXPECT_EQ(x["winner"], "cho");
  EXPECT_EQ(x["ending"], "resignation");
  auto [gst, gib] = get("/api/export?format=gib&player=lee");
  ASSERT_EQ(gst, 200);
  EXPECT_NE(gib.get<std::string>().find("대국결과"), std::string::npos);
}

// The engine never keeps a person waiting past the level's limit. The bound here is twice the limit: a unit
// test on a loaded machine cannot hold a wall-clock promise to the millisecond, but it catches a search that
// ignores the limit (an unbounded expert search runs for minutes).
TEST_F(WebPlayers, EngineRepliesWithinTheLevelsLimit) {
  for (auto [level, limit] : {std::pair<const char*, int>{"easy", 300}, {"expert", 2000}}) {
    auto s = post("/api/new", {{"human", "none"}, {"level", level}}).second;
    for (int i = 0; i < 2; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      auto [st, e] = post("/api/engine", {{"id", s["id"]}});
      int ms =
          int(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
      ASSERT_EQ(st, 200) << e.dump();
      EXPECT_EQ(e["eval"]["by"], level);
      EXPECT_EQ(e["eval"]["limit_ms"], limit);
      EXPECT_LE(e["eval"]["think_ms"].get<int>(), limit * 2) << level;  // the engine itself
      EXPECT_LE(ms, limit * 2 + 500) << level;
    }
  }
}

TEST_F(WebPlayers, FiftyConcurrentGamesAllStored) {
  int before = int(get("/api/games?limit=10000").second["games"].size());
  std::atomic<int> errors{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 10; ++t)
    ts.emplace_back([&, t] {
      as("load" + std::to_string(t));
      for (int i = 0; i < 5; ++i) {
        auto [st, s] = post("/api/new", {{"ranked", true}, {"player", "load" + std::to_string(t)}, {"level", "easy"}});
        if (st != 200) {
          ++errors;
          continue;
        }
        std::string id = s["id"];
        if (post("/api/move", {{"id", id}, {"move", first_move(s)}}).first != 200) ++errors;
        // Ten games ask at once on a machine of few cores: "busy" (503) is the server's answer then,
        // and the page asks again, as here.
        std::pair<int, json> e;
        for (int tries = 0; tries < 50 && (e = post("/api/engine", {{"id", id}})).first == 503; ++tries)
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (e.first != 200) ADD_FAILURE() << e.first << " " << e.second.dump(), ++errors;
        if (post("/api/resign", {{"id", id}}).first != 200) ++errors;
      }
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(int(get("/api/games?limit=10000").second["games"].size()), before + 50);
  EXPECT_EQ(get("/api/player?name=load3").second["losses"], 5);
  // A player's history: their newest games first.
  auto newest = get("/api/games?player=load3&order=newest&limit=2").second["games"];
  auto oldest = get("/api/games?player=load3&limit=5").second["games"];
  ASSERT_EQ(newest.size(), 2u);
  ASSERT_EQ(oldest.size(), 5u);
  EXPECT_EQ(newest[0]["id"], oldest[4]["id"]);
  EXPECT_GT(newest[0]["id"].get<int64_t>(), newest[1]["id"].get<int64_t>());
}

}  // namespace
}  // namespace jz
