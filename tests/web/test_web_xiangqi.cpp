// Xiangqi through the web API (GameStore and the player routes, no sockets): a new game and its state in
// Chinese characters and notation, legal and illegal moves, the engine's reply, a finished game and its
// review, Janggi-only options refused with 400, the network level only with a Xiangqi network, and a
// ladder per game.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "core/movegen.h"
#include "core/notation.h"
#include "nn/evaluator.h"
#include "play/engine.h"
#include "web/api.h"
#include "web/games.h"
#include "web/player_db.h"
#include "web/players_api.h"

namespace jz {
namespace {

using json = nlohmann::json;

json body_of(const ApiReply& r) { return json::parse(r.body); }

// Uniform policy and an even value, for one game: enough for MCTS to play legal moves.
class UniformNet : public Evaluator {
 public:
  explicit UniformNet(GameKind g) : game_(g) {}
  void evaluate(const EvalInput* in, int n, Evaluation* out) override {
    for (int i = 0; i < n; ++i) out[i].policy.assign(in[i].moves->size, 1.0f / float(in[i].moves->size));
  }
  std::string id() const override { return std::string("uniform-") + game_name(game_); }
  GameKind game() const override { return game_; }

 private:
  GameKind game_;
};

TEST(WebXiangqi, NewGameShowsTheBoardInChineseCharacters) {
  GameStore store(ServerOptions(), nullptr);
  ApiReply r = store.new_game(R"({"rules":"xiangqi","human":"red","level":"easy"})");
  ASSERT_EQ(r.status, 200) << r.body;
  json s = body_of(r);
  EXPECT_EQ(s["game"], "xiangqi");
  EXPECT_EQ(s["rules"], "xiangqi");
  EXPECT_EQ(s["human"], "cho");  // Red, who moves first
  EXPECT_EQ(s["turn"], "cho");
  EXPECT_EQ(s["fen"], "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
  ASSERT_EQ(s["pieces"].size(), 32u);
  std::multiset<std::string> red, black;
  for (const json& p : s["pieces"]) (p["color"] == "cho" ? red : black).insert(p["label"].get<std::string>());
  EXPECT_EQ(red, std::multiset<std::string>({"帥", "仕", "仕", "相", "相", "傌", "傌", "俥", "俥", "炮", "炮", "兵", "兵",
                                             "兵", "兵", "兵"}));
  EXPECT_EQ(black, std::multiset<std::string>({"將", "士", "士", "象", "象", "馬", "馬", "車", "車", "砲", "砲", "卒",
                                               "卒", "卒", "卒", "卒"}));
  size_t moves = 0;
  for (auto& [from, to] : s["legal"].items()) moves += to.size();
  EXPECT_EQ(moves, 44u);  // Xiangqi's start position
  EXPECT_TRUE(s["pass"].is_null());
  EXPECT_FALSE(s["bikjang"]);
  // The variant's name (UCI_Variant's word) is another name for the rules.
  EXPECT_EQ(body_of(store.new_game(R"({"variant":"xiangqi"})"))["game"], "xiangqi");
}

TEST(WebXiangqi, MovesCarryChineseNotationAndWxf) {
  GameStore store(ServerOptions(), nullptr);
  json s = body_of(store.new_game(R"({"rules":"xiangqi","human":"both"})"));
  std::string id = s["id"];
  ApiReply r = store.move(json{{"id", id}, {"move", "h3e3"}}.dump());  // the central cannon
  ASSERT_EQ(r.status, 200) << r.body;
  json m = body_of(r)["moves"][0];
  EXPECT_EQ(m["uci"], "h3e3");
  EXPECT_EQ(m["chinese"], "炮二平五");
  EXPECT_EQ(m["notation"], "炮二平五");
  EXPECT_EQ(m["wxf"], "C2.5");
  EXPECT_FALSE(m.contains("korean"));
  // Black answers in Chinese notation, read as the page or a person writes it.
  r = store.move(json{{"id", id}, {"move", "馬8進7"}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json after = body_of(r);
  EXPECT_EQ(after["moves"][1]["uci"], "h10g8");
  EXPECT_EQ(after["moves"][1]["wxf"], "H8+7");
  // Illegal text, a move against the rules, Janggi's pass: 422, the game unchanged.
  for (const char* bad : {"h1h5", "pass", "e2e3x", "炮九進十"})
    EXPECT_EQ(store.move(json{{"id", id}, {"move", bad}}.dump()).status, 422) << bad;
  EXPECT_EQ(body_of(store.state(id))["ply"], 2);
  ApiReply legal = store.legal(id, "b3");
  ASSERT_EQ(legal.status, 200) << legal.body;
  for (const json& l : body_of(legal)["moves"]) EXPECT_TRUE(l.contains("chinese") && l.contains("wxf")) << l;
}

TEST(WebXiangqi, TheEngineRepliesWithALegalMove) {
  GameStore store(ServerOptions(), nullptr);
  json s = body_of(store.new_game(R"({"rules":"xiangqi","human":"black","level":"easy"})"));
  EXPECT_EQ(s["human"], "han");
  ApiReply r = store.engine_move(json{{"id", s["id"]}}.dump());  // Red (the engine) opens
  ASSERT_EQ(r.status, 200) << r.body;
  json e = body_of(r);
  Position pos;
  std::string err;
  ASSERT_TRUE(pos.set_fen(s["fen"], Ruleset::XIANGQI, &err)) << err;
  Move m;
  ASSERT_TRUE(parse_any_move(pos, e["move"], m, &err)) << err;
  EXPECT_TRUE(is_legal(pos, m));
  EXPECT_EQ(e["state"]["ply"], 1);
  EXPECT_EQ(e["state"]["turn"], "han");
  EXPECT_FALSE(e["chinese"].get<std::string>().empty());
  EXPECT_EQ(e["eval"]["by"], "easy");
  EXPECT_EQ(store.engine_move(json{{"id", s["id"]}}.dump()).status, 200);  // the engine for the person: unranked
}

TEST(WebXiangqi, AFinishedGameIsOverAndReviewed) {
  GameStore store(ServerOptions(), nullptr);
  // Red mates with the chariot on the back rank: the other chariot holds rank 9, the general the e-file.
  json s = body_of(store.new_game(R"({"rules":"xiangqi","human":"both","fen":"3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"})"));
  std::string id = s["id"];
  ApiReply r = store.move(json{{"id", id}, {"move", "b1b10"}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json over = body_of(r);
  EXPECT_TRUE(over["result"]["over"]);
  EXPECT_EQ(over["result"]["winner"], "cho");
  EXPECT_EQ(over["result"]["ending"], "checkmate");
  EXPECT_TRUE(over["legal"].empty());
  EXPECT_EQ(store.move(json{{"id", id}, {"move", "d10d9"}}.dump()).status, 409);
  EXPECT_EQ(store.undo(json{{"id", id}}.dump()).status, 409);
  GameStore::Finished f;
  ApiReply fail;
  ASSERT_TRUE(store.finished(id, &f, &fail)) << fail.body;
  EXPECT_EQ(f.game.rules(), Ruleset::XIANGQI);
  std::string name;
  EXPECT_EQ(store.record(id, &name).status, 200);
  EXPECT_EQ(name, "xiangqi-" + id + ".json");
  WebRequest req{"GET", "/api/review", {{"id", id}}, "", "", "", "127.0.0.1", "127.0.0.1"};
  WebResponse review = handle_web_request(store, req);
  ASSERT_EQ(review.status, 200) << review.body;
  json rv = json::parse(review.body);
  EXPECT_EQ(rv["game"], "xiangqi");
  ASSERT_EQ(rv["moves"].size(), 1u);
  EXPECT_EQ(rv["moves"][0]["chinese"], "俥八進九");  // the b-file is Red's eighth from its right
  EXPECT_EQ(rv["positions"].size(), 2u);
}

TEST(WebXiangqi, JanggiOnlyOptionsAndBadInputAreRefused) {
  GameStore store(ServerOptions(), nullptr);
  for (const char* bad : {
           R"({"rules":"xiangqi","cho_setup":"inner"})",
           R"({"rules":"xiangqi","han_setup":"outer"})",
           R"({"rules":"xiangqi","rule_options":"soldier-promotion"})",
           R"({"rules":"xiangqi","level":"net"})",
           R"({"rules":"xiangqi","level":"grandmaster"})",
           R"({"rules":"xiangqi","human":"purple"})",
           R"({"rules":"janggi","variant":"xiangqi"})",
           R"({"variant":7})",
           R"({"rules":"xiangqi","fen":"rnbakabnr/9/9 w"})",
           R"({"rules":"xiangqi","ranked":true,"player":"kim"})",             // no player database here
       }) {
    ApiReply r = store.new_game(bad);
    EXPECT_EQ(r.status, 400) << bad << " -> " << r.body;
    EXPECT_TRUE(body_of(r).contains("error")) << r.body;
  }
  EXPECT_NE(body_of(store.new_game(R"({"rules":"xiangqi","cho_setup":"inner"})"))["error"].get<std::string>().find(
                "one start position"),
            std::string::npos);
  EXPECT_NE(body_of(store.new_game(R"({"rules":"xiangqi","level":"net"})"))["error"].get<std::string>().find(
                "no network is loaded for xiangqi"),
            std::string::npos);
  EXPECT_EQ(store.new_game(std::string(R"({"rules":")") + std::string(100000, 'x') + "\"}").status, 400);
}

// The network level belongs to a game: a Janggi network plays Janggi only, a Xiangqi one Xiangqi only.
TEST(WebXiangqi, TheNetworkLevelIsOfferedPerGame) {
  ServerOptions o;
  o.simulations = 32;
  o.max_think_ms = 300;
  GameStore store(o, std::make_shared<UniformNet>(GameKind::JANGGI));
  json info = body_of(store.info());
  EXPECT_EQ(info["games"][0]["levels"].size(), 4u);
  EXPECT_EQ(info["games"][1]["levels"].size(), 3u);
  EXPECT_TRUE(info["games"][1]["network"].is_null());
  EXPECT_EQ(store.new_game(R"({"rules":"xiangqi","level":"net"})").status, 400);
  store.add_network(std::make_shared<UniformNet>(GameKind::XIANGQI));
  info = body_of(store.info());
  EXPECT_EQ(info["games"][1]["network"], "uniform-xiangqi");
  EXPECT_EQ(info["games"][1]["levels"].size(), 4u);
  EXPECT_EQ(info["games"][0]["network"], "uniform-janggi");  // Janggi's network stays
  if (!play_has_mcts()) GTEST_SKIP() << "this build has no network search";
  for (const char* rules : {"xiangqi", "janggi"}) {
    ApiReply g = store.new_game(json{{"rules", rules}, {"level", "net"}, {"human", "han"}}.dump());
    ASSERT_EQ(g.status, 200) << g.body;
    ApiReply r = store.engine_move(json{{"id", body_of(g)["id"]}}.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(body_of(r)["eval"]["by"], "net");
  }
}

// Each game ranks on its own ladder: a Xiangqi result counts on Xiangqi's leaderboard only.
TEST(WebXiangqi, RankedGamesCountOnTheGamesOwnLadder) {
  std::string err;
  std::shared_ptr<PlayerDb> db = PlayerDb::open(":memory:", &err);
  ASSERT_TRUE(db) << err;
  GameStore store(ServerOptions(), nullptr);
  store.set_player_db(db);
  json s = body_of(store.new_game(R"({"rules":"xiangqi","human":"cho","level":"easy","player":"kim","ranked":true})"));
  ASSERT_TRUE(s["rank"]["ranked"]) << s.dump();
  ASSERT_EQ(store.resign(json{{"id", s["id"]}}.dump()).status, 200);
  FinishedGame won;  // a Xiangqi win at expert, as record_if_finished stores one
  won.game_id = "x1", won.player = "lee", won.level = "expert", won.human = "cho", won.rules = "xiangqi";
  won.start_fen = "x", won.winner = "cho", won.ending = "checkmate", won.player_result = "win";
  won.ranked = true, won.points = 100;
  ASSERT_TRUE(db->record_game(won, &err)) << err;
  auto board = [&](const std::string& game) {
    WebRequest req{"GET", "/api/leaderboard", {{"game", game}}, "", "", "", "", ""};
    WebResponse out;
    EXPECT_TRUE(handle_player_request(db.get(), req, &out));
    EXPECT_EQ(out.status, 200) << out.body;
    return json::parse(out.body);
  };
  json x = board("xiangqi"), j = board("janggi");
  EXPECT_EQ(x["game"], "xiangqi");
  ASSERT_EQ(x["players"].size(), 2u);
  EXPECT_EQ(x["players"][0]["name"], "lee");
  EXPECT_EQ(x["players"][0]["points"], 100);
  EXPECT_EQ(x["players"][1]["name"], "kim");
  EXPECT_EQ(x["players"][1]["losses"], 1);
  for (const json& p : j["players"]) EXPECT_EQ(p["points"], 0) << p;
  for (const json& p : j["players"]) EXPECT_EQ(p["losses"], 0) << p;
  PlayerStats kim;
  ASSERT_TRUE(db->player("kim", &kim, &err, "janggi")) << err;
  EXPECT_EQ(kim.losses, 0);
  EXPECT_EQ(kim.games, 1);  // the stored games are of every game
  WebRequest bad{"GET", "/api/leaderboard", {{"game", "chess"}}, "", "", "", "", ""};
  WebResponse out;
  ASSERT_TRUE(handle_player_request(db.get(), bad, &out));
  EXPECT_EQ(out.status, 400);
}

}  // namespace
}  // namespace jz
