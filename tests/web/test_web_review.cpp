// The review of a finished game (web/review_api.h, web/analysis.h): mistakes are the moves that lost
// their mover's expected score, graded as lichess grades them; the background analysis evaluates every
// position at a fixed node budget (so twice gives the same numbers), a finished game's last position
// is worth its result, and a proven mate is a certain win; a game still on cannot be reviewed (a hint),
// and a stored game is reviewed after the server that played it is gone.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

#include "core/notation.h"
#include "web/analysis.h"
#include "web/api.h"
#include "web/games.h"
#include "web/player_db.h"

namespace jz {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

Game game_of(const std::string& fen, const std::vector<std::string>& moves) {
  Game g;
  std::string err;
  EXPECT_TRUE(g.start(fen, Ruleset::JANGGI, &err)) << err;
  for (const std::string& m : moves) {
    Move played;
    EXPECT_TRUE(g.play_text(m, &played, &err)) << m << ": " << err;
  }
  return g;
}

PositionEval eval(double score, const std::string& best) {
  PositionEval e;
  e.score = score;
  e.best = best;
  return e;
}

const char* START = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

TEST(Review, MistakesAreTheMoversLossesGradedAsLichessDoes) {
  Game g = game_of(START, {"a4b4", "a7b7", "i4h4", "i7h7"});
  // Cho's view: Cho's 1st move loses 0.35 (blunder), Han's 1st loses 0.22 of Han's score (mistake),
  // Cho's 2nd 0.05 (nothing), Han's 2nd 0.12 but it is the engine's own choice (nothing).
  std::vector<PositionEval> evals = {eval(0.60, "c4c5"), eval(0.25, "b7b6"), eval(0.47, "i4i5"), eval(0.42, "i7h7"),
                                     eval(0.54, "")};
  std::vector<Mistake> m = find_mistakes(g, evals);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].ply, 0);
  EXPECT_EQ(m[0].kind, "blunder");
  EXPECT_DOUBLE_EQ(m[0].drop, 0.35);
  EXPECT_EQ(m[0].played, "a4b4");
  EXPECT_EQ(m[0].best, "c4c5");
  EXPECT_EQ(m[1].ply, 1);
  EXPECT_EQ(m[1].kind, "mistake");
  EXPECT_EQ(m[1].best, "b7b6");
  evals[1].score = 0.48;  // an inaccuracy now: 0.12
  EXPECT_EQ(find_mistakes(g, evals)[0].kind, "inaccuracy");
}

json wait_done(Analyzer& a, const std::string& key, const Game& g) {
  json r;
  for (int i = 0; i < 6000; ++i) {  // a deadline: 60 s
    r = a.request(key, g);
    if (r["status"] == "done") return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ADD_FAILURE() << "analysis not done: " << r.dump();
  return r;
}

TEST(Review, AnalysisEvaluatesEveryPositionTheSameEachTime) {
  AnalysisOptions o;
  o.nodes = 3000;
  // Cho mates in 2 here; Cho plays a quiet move, then resigns.
  Game g = game_of("4k4/9/R8/9/9/9/9/9/3K5/1R7 w - - 0 1", {"b1b2", "e10f10"});
  g.resign(CHO);
  Analyzer a(o), b(o);
  json r1 = wait_done(a, "x", g), r2 = wait_done(b, "x", g);
  ASSERT_EQ(r1["evals"].size(), 3u);
  EXPECT_EQ(r1["total"], 3);
  EXPECT_EQ(r1["evals"], r2["evals"]);  // a node budget, not a clock
  EXPECT_GT(r1["evals"][0]["mate"].get<int>(), 0);  // the guard or the search proves Cho's mate
  EXPECT_EQ(r1["evals"][0]["score"], 1.0);
  EXPECT_EQ(r1["evals"][2]["score"], 0.0);  // after the resignation: Han won
  EXPECT_EQ(r1["evals"][2]["best"], "");
  EXPECT_EQ(r1["nodes"], 3000);
}

class WebReview : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("jz-review-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static json call(GameStore& s, const std::string& method, const std::string& path, const std::string& id,
                   const json& body, int* status) {
    WebRequest r;
    r.method = method;
    r.path = path;
    if (!id.empty()) r.params.emplace("id", id);
    r.body = body.dump();
    WebResponse w = handle_web_request(s, r);
    *status = w.status;
    return json::parse(w.body, nullptr, false);
  }
  fs::path dir_;
};

TEST_F(WebReview, AFinishedGameIsReviewedLiveOnesAreNotAndStoredOnesOutliveTheServer) {
  std::string err, id;
  int st = 0;
  {
    auto db = std::shared_ptr<PlayerDb>(PlayerDb::open(PlayerDb::file_in(dir_.string()), &err));
    ASSERT_TRUE(db) << err;
    GameStore store(ServerOptions{}, nullptr);
    store.set_player_db(db);
    json s = call(store, "POST", "/api/new", "", {{"level", "easy"}}, &st);
    ASSERT_EQ(st, 200);
    id = s["id"];
    ASSERT_EQ((call(store, "POST", "/api/move", "", {{"id", id}, {"move", "a4b4"}}, &st), st), 200);
    call(store, "GET", "/api/review", id, json(), &st);
    EXPECT_EQ(st, 409);  // still on
    call(store, "GET", "/api/review", "nope", json(), &st);
    EXPECT_EQ(st, 404);
    call(store, "GET", "/api/review", "", json(), &st);
    EXPECT_EQ(st, 400);
    ASSERT_EQ((call(store, "POST", "/api/resign", "", {{"id", id}}, &st), st), 200);
    json r = call(store, "GET", "/api/review", id, json(), &st);
    ASSERT_EQ(st, 200) << r.dump();
    ASSERT_EQ(r["moves"].size(), 1u);
    ASSERT_EQ(r["positions"].size(), 2u);
    EXPECT_EQ(r["positions"][0]["fen"], s["fen"]);
    EXPECT_EQ(r["positions"][0]["count"]["cho"], 72);
    EXPECT_EQ(r["positions"][0]["count"]["han"], 73.5);
    EXPECT_EQ(r["result"]["winner"], "han");
    EXPECT_NE(r["gib"].get<std::string>().find("대국결과"), std::string::npos);
    EXPECT_NE(r["pgn"].get<std::string>().find("[Variant \"Janggi\"]"), std::string::npos);
    EXPECT_TRUE(r["analysis"]["status"].is_string());
  }
  // A new server on the same data: the game comes back from the database, with its analysis.
  auto db = std::shared_ptr<PlayerDb>(PlayerDb::open(PlayerDb::file_in(dir_.string()), &err));
  ASSERT_TRUE(db) << err;
  GameStore store(ServerOptions{}, nullptr);
  store.set_player_db(db);
  json r;
  for (int i = 0; i < 6000; ++i) {
    r = call(store, "GET", "/api/review", id, json(), &st);
    if (st != 200 || r["analysis"]["status"] == "done") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(st, 200) << r.dump();
  EXPECT_EQ(r["moves"][0]["uci"], "a4b4");
  EXPECT_EQ(r["result"]["ending"], "resignation");
  EXPECT_EQ(r["analysis"]["status"], "done");
  EXPECT_EQ(r["analysis"]["evals"].size(), 2u);
}

}  // namespace
}  // namespace jz
