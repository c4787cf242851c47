// The web API end to end: a server on an ephemeral loopback port, games played over HTTP, bad requests
// answered with 4xx + a JSON error, concurrent games, the embedded page.
#include <gtest/gtest.h>

#include <algorithm>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "nn/evaluator.h"
#include "play/engine.h"
#include "web/games.h"
#include "web/server.h"

namespace jz {
namespace {

using json = nlohmann::json;

class WebApi : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServerOptions o;
    o.port = 0;
    o.max_games = 64;
    o.max_think_ms = 1500;
    server_ = new WebServer(o, nullptr);
    std::string err;
    port_ = server_->bind(&err);
    ASSERT_GT(port_, 0) << err;
    thread_ = new std::thread([] { server_->run(); });
  }
  static void TearDownTestSuite() {
    server_->stop();
    thread_->join();
    delete thread_;
    delete server_;
  }

  static httplib::Client client() {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(30, 0);
    return c;
  }
  // POST JSON text; returns status and parsed body (every reply must be JSON).
  static std::pair<int, json> post(const std::string& path, const std::string& body) {
    auto c = client();
    auto r = c.Post(path.c_str(), body, "application/json");
    if (!r) return {-1, json()};
    json j = json::parse(r->body, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << path << " replied non-JSON: " << r->body;
    return {r->status, j};
  }
  static std::pair<int, json> get(const std::string& path) {
    auto c = client();
    auto r = c.Get(path.c_str());
    if (!r) return {-1, json()};
    json j = json::parse(r->body, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << path << " replied non-JSON: " << r->body;
    return {r->status, j};
  }

  static WebServer* server_;
  static std::thread* thread_;
  static int port_;
};
WebServer* WebApi::server_ = nullptr;
std::thread* WebApi::thread_ = nullptr;
int WebApi::port_ = 0;

// The engine's move must be legal in the position the state had before it.
bool legal_in(const std::string& fen, const std::string& rules, const std::string& uci) {
  Ruleset r;
  Position p;
  std::string err;
  Move m;
  return parse_ruleset(rules, r) && p.set_fen(fen, r, &err) && parse_legal_uci_move(p, uci, m, &err);
}

TEST_F(WebApi, InfoAndPage) {
  auto [st, info] = get("/api/info");
  ASSERT_EQ(st, 200);
  EXPECT_EQ(info["levels"].size(), 3u);  // no network loaded here
  EXPECT_EQ(info["setups"].size(), 4u);
  EXPECT_EQ(info["rules"], json({"janggi", "janggitraditional", "janggimodern", "janggicasual", "xiangqi"}));
  ASSERT_EQ(info["games"].size(), 2u);  // each game with its rule sets and levels
  EXPECT_EQ(info["games"][0]["rules"].size(), 4u);
  EXPECT_EQ(info["games"][1]["rules"], json({"xiangqi"}));
  auto c = client();
  auto page = c.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<svg id=\"board\""), std::string::npos);
  EXPECT_NE(page->get_header_value("Content-Type").find("text/html"), std::string::npos);
  auto js = c.Get("/board.js");  // the board drawing shared by the game and rules pages
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  EXPECT_NE(js->body.find("octagon"), std::string::npos);
  for (const char* path : {"/app.js", "/rules.html", "/rules.js", "/leaderboard.html", "/leaderboard.js"}) {
    auto r = c.Get(path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << path;
  }
  // The label fonts are served by the binary, as fonts.
  for (const char* path : {"/labels-sans.woff", "/labels-serif.woff"}) {
    auto f = c.Get(path);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->status, 200) << path;
    EXPECT_EQ(f->get_header_value("Content-Type"), "font/woff") << path;
    EXPECT_EQ(f->body.substr(0, 4), "wOFF") << path;
  }
  auto missing = c.Get("/nothing-here");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
}

TEST_F(WebApi, PlayAGameWithBadRequests) {
  auto [st, s] =
      post("/api/new", R"({"cho_setup":"outer","han_setup":"left","rules":"janggi","human":"cho","level":"easy"})");
  ASSERT_EQ(st, 200) << s.dump();
  std::string id = s["id"];
  EXPECT_EQ(s["turn"], "cho");
  EXPECT_EQ(s["setup"], "outer-left");
  EXPECT_EQ(s["pieces"].size(), 32u);
  EXPECT_FALSE(s["legal"].empty());
  EXPECT_FALSE(s["pass"].is_null());

  // Legal move in UCI, then the engine replies with a legal move.
  auto [st1, s1] = post("/api/move", json{{"id", id}, {"move", "a4b4"}}.dump());
  ASSERT_EQ(st1, 200) << s1.dump();
  EXPECT_EQ(s1["turn"], "han");
  EXPECT_EQ(s1["moves"].size(), 1u);
  std::string fen = s1["fen"];
  auto [st2, e] = post("/api/engine", json{{"id", id}}.dump());
  ASSERT_EQ(st2, 200) << e.dump();
  EXPECT_TRUE(legal_in(fen, "janggi", e["move"])) << e["move"];
  EXPECT_EQ(e["state"]["moves"].size(), 2u);
  EXPECT_EQ(e["state"]["turn"], "cho");
  EXPECT_TRUE(e["eval"]["wdl"].is_array());

  // Illegal moves, the engine's turn, malformed JSON, missing fields, unknown ids.
  EXPECT_EQ(post("/api/move", json{{"id", id}, {"move", "a1a9"}}.dump()).first, 422);
  EXPECT_EQ(post("/api/move", json{{"id", id}, {"move", "zz99"}}.dump()).first, 422);
  auto [st3, bad] = post("/api/move", "{\"id\": \"" + id + "\", \"move\": ");
  EXPECT_EQ(st3, 400);
  EXPECT_TRUE(bad.contains("error"));
  EXPECT_EQ(post("/api/move", "[1,2,3]").first, 400);
  EXPECT_EQ(post("/api/move", json{{"id", id}}.dump()).first, 400);
  EXPECT_EQ(post("/api/move", json{{"id", id}, {"move", 42}}.dump()).first, 400);
  EXPECT_EQ(post("/api/move", json{{"id", "nope"}, {"move", "a1a2"}}.dump()).first, 404);
  EXPECT_EQ(get("/api/state?id=nope").first, 404);
  EXPECT_EQ(post("/api/new", R"({"rules":"chess"})").first, 400);
  EXPECT_EQ(post("/api/new", R"({"cho_setup":"sideways"})").first, 400);
  EXPECT_EQ(post("/api/new", R"({"level":"net"})").first, 400);  // no network loaded
  EXPECT_EQ(post("/api/new", R"({"fen":"9/9 w"})").first, 400);
  EXPECT_EQ(post("/api/nowhere", "{}").first, 404);

  // Korean notation and the pass; then it is the engine's turn: a person's move is refused.
  auto [st4, s4] = get("/api/state?id=" + id);
  ASSERT_EQ(st4, 200);
  EXPECT_EQ(s4["moves"].size(), 2u);
  auto [st5, s5] = post("/api/move", json{{"id", id}, {"move", "pass"}}.dump());
  ASSERT_EQ(st5, 200) << s5.dump();
  EXPECT_EQ(post("/api/move", json{{"id", id}, {"move", "pass"}}.dump()).first, 409);

  // Legal moves of one square.
  auto [st6, lg] = get("/api/legal?id=" + id + "&from=a10");
  ASSERT_EQ(st6, 200);
  for (auto& m : lg["moves"]) EXPECT_EQ(m["uci"].get<std::string>().substr(0, 3), "a10");
  EXPECT_EQ(get("/api/legal?id=" + id + "&from=z99").first, 400);

  // Undo goes back to the person's turn; the record replays.
  auto [st7, u] = post("/api/undo", json{{"id", id}}.dump());
  ASSERT_EQ(st7, 200) << u.dump();
  EXPECT_EQ(u["turn"], "cho");
  EXPECT_EQ(u["moves"].size(), 2u);
  EXPECT_EQ(post("/api/undo", json{{"id", id}, {"plies", -3}}.dump()).first, 400);
  auto c = client();
  auto rec = c.Get(("/api/record?id=" + id).c_str());
  ASSERT_TRUE(rec);
  ASSERT_EQ(rec->status, 200);
  json r = json::parse(rec->body);
  EXPECT_EQ(r["moves"].size(), 2u);
  EXPECT_EQ(r["setup"], "outer-left");
  EXPECT_NE(rec->get_header_value("Content-Disposition").find("attachment"), std::string::npos);

  // Resignation ends the game; moves are refused afterwards.
  auto [st8, rs] = post("/api/resign", json{{"id", id}}.dump());
  ASSERT_EQ(st8, 200);
  EXPECT_TRUE(rs["result"]["over"].get<bool>());
  EXPECT_EQ(rs["result"]["winner"], "han");
  EXPECT_EQ(post("/api/move", json{{"id", id}, {"move", "a1a2"}}.dump()).first, 409);
  EXPECT_EQ(post("/api/engine", json{{"id", id}}.dump()).first, 409);
  // Undo does not bring a finished game back to life.
  auto [st9, un] = post("/api/undo", json{{"id", id}}.dump());
  EXPECT_EQ(st9, 409);
  EXPECT_NE(un["error"].get<std::string>().find("over"), std::string::npos) << un.dump();
  EXPECT_TRUE(get("/api/state?id=" + id).second["result"]["over"].get<bool>());
}

TEST_F(WebApi, MatedPositionAndGameEnd) {
  // Han is mated: no legal moves, the game is over at once.
  auto [st, s] = post("/api/new", R"({"fen":"R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1","human":"both"})");
  ASSERT_EQ(st, 200) << s.dump();
  EXPECT_TRUE(s["result"]["over"].get<bool>());
  EXPECT_EQ(s["result"]["ending"], "checkmate");
  EXPECT_TRUE(s["legal"].empty());
  EXPECT_EQ(post("/api/engine", json{{"id", s["id"]}}.dump()).first, 409);
}

TEST_F(WebApi, RequestsThatAreNotUtf8GetJsonErrors) {
  // Echoed ids and paths with invalid UTF-8 once made the JSON writer throw: a 500 for the API, and
  // an exception inside the server's error handler for an unknown route.
  auto [st, s] = get("/api/state?id=%FF%FE");
  EXPECT_EQ(st, 404);
  EXPECT_TRUE(s.contains("error")) << s.dump();
  auto [st2, s2] = post("/api/%FF", "{}");
  EXPECT_EQ(st2, 404);
  EXPECT_TRUE(s2.contains("error")) << s2.dump();
  auto c = client();
  auto r = c.Put("/%FF", "{}", "application/json");
  ASSERT_TRUE(r) << "the server did not answer";
  EXPECT_EQ(r->status, 404);
  EXPECT_FALSE(json::parse(r->body, nullptr, false).is_discarded()) << r->body;
  EXPECT_EQ(get("/api/info").first, 200);  // still serving
}

TEST_F(WebApi, ConcurrentGames) {
  constexpr int N = 4;
  std::vector<std::thread> threads;
  std::vector<int> ok(N, 0);
  for (int i = 0; i < N; ++i)
    threads.emplace_back([i, &ok] {
      auto [st, s] = post("/api/new", R"({"human":"none","level":"easy"})");
      if (st != 200) return;
      std::string id = s["id"];
      // Engine against engine for a few plies, each reply checked against the previous state.
      for (int k = 0; k < 4; ++k) {
        std::string fen = s["fen"];
        auto [st2, e] = post("/api/engine", json{{"id", id}}.dump());
        if (st2 != 200 || !legal_in(fen, "janggi", e["move"])) return;
        s = e["state"];
      }
      ok[i] = s["moves"].size() == 4;
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < N; ++i) EXPECT_TRUE(ok[i]) << "game " << i;
  EXPECT_GE(server_->store().size(), size_t(N));
}

// The engine of a game that names none, and the page's preselection, is ServerOptions::default_level
// (serve sets it from play/default_engine.h); "net" without a network falls back to expert.
TEST(WebDefaultLevel, NewGamesAndInfoUseTheDefault) {
  ServerOptions o;
  EXPECT_EQ(o.default_level, "expert");
  o.default_level = "net";
  o.default_reason = "a record that says so";
  GameStore no_net(o, nullptr);
  json info = json::parse(no_net.info().body);
  EXPECT_EQ(info["default_level"], "expert");
  EXPECT_EQ(info["default_reason"], "a record that says so");
  EXPECT_EQ(json::parse(no_net.new_game("{}").body)["level"], "expert");
  o.default_level = "normal";
  GameStore normal(o, nullptr);
  EXPECT_EQ(json::parse(normal.info().body)["default_level"], "normal");
  EXPECT_EQ(json::parse(normal.new_game("{}").body)["level"], "normal");
  EXPECT_EQ(json::parse(normal.new_game(R"({"level":"easy"})").body)["level"], "easy");
}

// Rule options (docs/rules.md): listed by info, named in the new-game request, echoed in the state;
// an unknown name, or the elephant-chariot setup without its option, is a bad request.
TEST(WebRuleOptions, NewGameTakesAndEchoesThem) {
  GameStore store(ServerOptions(), nullptr);
  EXPECT_EQ(json::parse(store.info().body)["rule_options"].size(), size_t(RULE_OPTION_NB));
  ApiReply r = store.new_game(
      R"({"cho_setup":"elephant-chariot","rule_options":"elephant-chariot,soldier-promotion","human":"both"})");
  ASSERT_EQ(r.status, 200) << r.body;
  json s = json::parse(r.body);
  EXPECT_EQ(s["rule_options"], "elephant-chariot,soldier-promotion");
  EXPECT_EQ(s["setup"], "elephant-chariot-inner");
  EXPECT_EQ(json::parse(store.new_game("{}").body)["rule_options"], "");
  EXPECT_EQ(store.new_game(R"({"rule_options":"flying-general"})").status, 400);
  EXPECT_EQ(store.new_game(R"({"cho_setup":"elephant-chariot"})").status, 400);
  // The page's simplified rules: janggicasual with facing-draw.
  json simple = json::parse(store.new_game(R"({"rules":"janggicasual","rule_options":"facing-draw"})").body);
  EXPECT_EQ(simple["rules"], "janggicasual");
  EXPECT_EQ(simple["rule_options"], "facing-draw");
}

// With soldier-promotion the state lists a soldier's promotions apart, so that the page can ask which.
TEST(WebRuleOptions, PromotionsAreListedAndPlayed) {
  GameStore store(ServerOptions(), nullptr);
  json s = json::parse(store.new_game(
      R"({"fen":"4k4/2P6/9/9/9/9/9/9/4A4/4K4 w - - 0 1","rule_options":"soldier-promotion","human":"both"})").body);
  ASSERT_TRUE(s["promotions"].contains("c9c10")) << s.dump();
  EXPECT_EQ(s["promotions"]["c9c10"], json({"c9c10r", "c9c10c", "c9c10n", "c9c10b"}));
  const json& to = s["legal"]["c9"];
  EXPECT_EQ(std::count(to.begin(), to.end(), json("c10")), 1);  // the plain move once
  ApiReply r = store.move(json{{"id", s["id"]}, {"move", "c9c10c"}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  bool cannon = false;
  json after = json::parse(r.body);
  for (auto& p : after["pieces"]) cannon = cannon || (p["sq"] == "c10" && p["type"] == "C");
  EXPECT_TRUE(cannon) << r.body;
  EXPECT_TRUE(json::parse(store.new_game(R"({"human":"both"})").body)["promotions"].empty());
}

// A network whose every evaluation fails, as a LibTorch error during play would.
class FailingNet : public Evaluator {
 public:
  void evaluate(const EvalInput*, int, Evaluation*) override { throw std::runtime_error("device lost"); }
  std::string id() const override { return "failing"; }
};

// The failing engine costs its game one 5xx answer; the store keeps serving that game and the others.
TEST(WebEngineFailure, AnswersServerErrorAndKeepsServing) {
  if (!play_has_mcts()) GTEST_SKIP() << "this build has no network search";
  GameStore store(ServerOptions(), std::make_shared<FailingNet>());
  ApiReply g = store.new_game(R"({"level":"net","human":"han"})");
  ASSERT_EQ(g.status, 200) << g.body;
  std::string id = json::parse(g.body)["id"];
  ApiReply r = store.engine_move(json{{"id", id}}.dump());
  EXPECT_EQ(r.status, 500) << r.body;
  EXPECT_NE(json::parse(r.body)["error"].get<std::string>().find("device lost"), std::string::npos) << r.body;
  EXPECT_EQ(store.engine_move(json{{"id", id}, {"level", "easy"}}.dump()).status, 200);
  ApiReply other = store.new_game(R"({"level":"easy","human":"han"})");
  ASSERT_EQ(other.status, 200) << other.body;
  EXPECT_EQ(store.engine_move(json{{"id", json::parse(other.body)["id"]}}.dump()).status, 200);
}

}  // namespace
}  // namespace jz
