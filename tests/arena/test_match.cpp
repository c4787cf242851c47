// Matches between players: complete legal games that replay to their stored results, paired colors,
// openings, records on disk, SPRT stops, the results store.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "arena/match.h"
#include "arena/results.h"
#include "core/movegen.h"
#include "core/setups.h"
#include "tests/support/test_support.h"

using namespace jz;

namespace {

// Every game: legal moves, the referee's verdict at the end equals the stored result.
void check_games(const MatchConfig& cfg, const MatchResult& r) {
  for (auto& g : r.games) {
    GameResult final_result;
    std::string err;
    ASSERT_TRUE(replay_record(g, final_result, &err)) << "game " << g.index << ": " << err;
    if (!g.reason.empty()) {
      EXPECT_TRUE(g.result.ending == Ending::ILLEGAL_MOVE || g.result.ending == Ending::TIME);
    } else if (g.result.ending == Ending::LENGTH_CAP) {
      EXPECT_FALSE(final_result.over());
      EXPECT_EQ(int(g.moves.size()), cfg.max_plies);
    } else {
      EXPECT_EQ(final_result.winner, g.result.winner) << "game " << g.index;
      EXPECT_EQ(final_result.ending, g.result.ending) << "game " << g.index;
      EXPECT_EQ(final_result.by_counting, g.result.by_counting) << "game " << g.index;
    }
  }
}

}  // namespace

TEST(Match, RandomVsRandomPairedAndReplayable) {
  MatchConfig cfg;
  cfg.player1 = "random";
  cfg.player2 = "random:seed=5,name=other";
  cfg.games = 10;
  cfg.concurrency = 2;
  cfg.opening_plies = 4;
  cfg.seed = 11;
  cfg.max_plies = 300;
  jz::test::TempDir tmp("arena_match");
  std::string dir = tmp.path;
  cfg.records_path = dir + "/games.jsonl";
  MatchResult r;
  std::string err;
  ASSERT_TRUE(run_match(cfg, r, &err)) << err;
  ASSERT_EQ(r.games.size(), 10u);
  EXPECT_EQ(r.wdl.n(), 10);
  EXPECT_EQ(r.penta.n(), 5);
  EXPECT_EQ(r.name1, "random");
  EXPECT_EQ(r.name2, "other");
  check_games(cfg, r);
  double pts = 0;
  for (auto& g : r.games) pts += g.player1_points();
  EXPECT_DOUBLE_EQ(pts, r.wdl.w + 0.5 * r.wdl.d);
  for (int k = 0; k < 5; ++k) {
    const MatchRecord &a = r.games[size_t(2 * k)], &b = r.games[size_t(2 * k + 1)];
    EXPECT_EQ(a.index, 2 * k);
    EXPECT_EQ(a.pair, k);
    EXPECT_EQ(b.pair, k);
    EXPECT_TRUE(a.player1_cho);
    EXPECT_FALSE(b.player1_cho);
    EXPECT_EQ(a.cho, "random");
    EXPECT_EQ(a.han, "other");
    EXPECT_EQ(b.cho, "other");
    EXPECT_EQ(b.han, "random");
    EXPECT_EQ(a.start_fen, b.start_fen);
    EXPECT_EQ(a.opening_plies, 4);
    ASSERT_GE(a.moves.size(), 4u);
    ASSERT_GE(b.moves.size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(a.moves[size_t(i)], b.moves[size_t(i)]);
    int setup;
    ASSERT_TRUE(parse_setup(a.setup, setup));
    EXPECT_EQ(setup_fen(setup), a.start_fen);
  }
  // Five pairs draw five different setups (each round visits every setup once).
  std::set<std::string> setups;
  for (auto& g : r.games) setups.insert(g.setup);
  EXPECT_EQ(setups.size(), 5u);

  std::vector<MatchRecord> back;
  ASSERT_TRUE(read_records(cfg.records_path, back, &err)) << err;
  ASSERT_EQ(back.size(), r.games.size());
  for (size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(record_to_json(back[i]), record_to_json(r.games[i]));
    EXPECT_EQ(back[i].moves, r.games[i].moves);
  }
}

TEST(Match, SameSeedSameGames) {
  MatchConfig cfg;
  cfg.player1 = "random";
  cfg.player2 = "random";
  cfg.games = 4;
  cfg.concurrency = 2;
  cfg.opening_plies = 2;
  cfg.max_plies = 120;
  cfg.rules = Ruleset::MODERN;
  MatchResult a, b;
  std::string err;
  ASSERT_TRUE(run_match(cfg, a, &err)) << err;
  ASSERT_TRUE(run_match(cfg, b, &err)) << err;
  EXPECT_EQ(a.name2, "random (2)");
  for (size_t i = 0; i < a.games.size(); ++i) {
    EXPECT_EQ(a.games[i].moves, b.games[i].moves);
    EXPECT_EQ(a.games[i].rules, Ruleset::MODERN);
  }
  check_games(cfg, a);
}

TEST(Match, OpeningsAreLegalAndReproducible) {
  MatchConfig cfg;
  cfg.opening_plies = 8;
  cfg.setups = {3, 9};
  for (int p = 0; p < 6; ++p) {
    Opening o = make_opening(cfg, p), again = make_opening(cfg, p);
    EXPECT_EQ(o.moves, again.moves);
    EXPECT_TRUE(o.setup == 3 || o.setup == 9);
    ASSERT_EQ(o.moves.size(), 8u);
    Position pos;
    std::string err;
    ASSERT_TRUE(pos.set_fen(o.fen, cfg.rules, &err));
    for (Move m : o.moves) {
      ASSERT_TRUE(is_legal(pos, m));
      EXPECT_FALSE(m.is_pass());
      pos.do_move(m);
    }
    EXPECT_FALSE(game_result(pos).over());
  }
  EXPECT_NE(make_opening(cfg, 0).setup, make_opening(cfg, 1).setup);  // a round covers both setups
}

TEST(Match, BadConfigIsAnError) {
  MatchConfig cfg;
  cfg.player1 = "random";
  cfg.player2 = "nonsense:1";
  MatchResult r;
  std::string err;
  EXPECT_FALSE(run_match(cfg, r, &err));
  EXPECT_NE(err.find("unknown kind 'nonsense'"), std::string::npos);
  cfg.player2 = "random";
  cfg.games = 0;
  EXPECT_FALSE(run_match(cfg, r, &err));
  cfg.games = 2;
  cfg.setups = {16};
  EXPECT_FALSE(run_match(cfg, r, &err));
}

// Two deterministic players from one setup without random openings play each colour's game again and
// again; the match says how many games are repeats. Random openings make every pair's start its own.
TEST(Match, RepeatedGamesAreCounted) {
  MatchConfig cfg;
  cfg.player1 = "alphabeta:depth=1";
  cfg.player2 = "alphabeta:depth=1";
  cfg.games = 6;
  cfg.max_plies = 30;
  cfg.setups = {3};
  MatchResult r;
  std::string err;
  ASSERT_TRUE(run_match(cfg, r, &err)) << err;
  EXPECT_EQ(r.repeated_games(), 4);  // three pairs, one distinct game per colour
  EXPECT_NE(r.summary().find("Repeated: 4 of 6 games"), std::string::npos) << r.summary();
  cfg.opening_plies = 6;
  ASSERT_TRUE(run_match(cfg, r, &err)) << err;
  EXPECT_EQ(r.repeated_games(), 0);
  EXPECT_EQ(r.summary().find("Repeated"), std::string::npos);
}

// Each side's search effort (network evaluations or nodes per move) is summed per game, survives the records file
// and reaches the result file; players that search nothing report nothing.
TEST(Match, SearchEffortIsRecorded) {
  MatchConfig cfg;
  cfg.player1 = "alphabeta:depth=1,name=ab";
  cfg.player2 = "random";
  cfg.games = 2;
  cfg.opening_plies = 2;
  cfg.max_plies = 40;
  jz::test::TempDir tmp("arena_nodes");
  cfg.records_path = tmp.path + "/games.jsonl";
  MatchResult r;
  std::string err;
  ASSERT_TRUE(run_match(cfg, r, &err)) << err;
  for (auto& g : r.games) {
    Color ab = g.player1_cho ? CHO : HAN;
    int ab_moves = 0;  // plies after the opening played by the alpha-beta side
    for (size_t i = size_t(g.opening_plies); i < g.moves.size(); ++i) ab_moves += Color(i % 2) == ab;
    EXPECT_EQ(g.searched_moves[ab], ab_moves);
    EXPECT_GE(g.nodes[ab], int64_t(ab_moves));
    EXPECT_EQ(g.searched_moves[~ab], 0);
    EXPECT_EQ(g.nodes[~ab], 0);
  }
  EXPECT_GE(r.nodes_per_move(1), 1.0);
  EXPECT_EQ(r.nodes_per_move(2), -1.0);
  EXPECT_NE(r.summary().find("Search per move (network evaluations or nodes): ab "), std::string::npos);
  std::vector<MatchRecord> back;
  ASSERT_TRUE(read_records(cfg.records_path, back, &err)) << err;
  ASSERT_EQ(back.size(), 2u);
  for (size_t i = 0; i < 2; ++i)
    for (int c : {0, 1}) {
      EXPECT_EQ(back[i].nodes[c], r.games[i].nodes[c]);
      EXPECT_EQ(back[i].searched_moves[c], r.games[i].searched_moves[c]);
    }
  std::string json = match_result_json(cfg, r, "games.jsonl");
  EXPECT_NE(json.find("\"nodes_per_move\""), std::string::npos);
  EXPECT_NE(json.find("\"player1\": " + std::to_string(std::lround(r.nodes_per_move(1)))), std::string::npos);
  // A record with a negative count is refused.
  std::string line = record_to_json(r.games[0]);
  line.replace(line.find("\"cho\":", line.find("\"nodes\"")), 6, "\"cho\":-5,\"x\":");
  MatchRecord bad;
  EXPECT_FALSE(record_from_json(line, bad, &err)) << line;
}

// A stop request (evaluate's SIGINT) ends the match early: no game starts after it, games in progress are
// dropped, and what is stored and rated are complete games only.
TEST(Match, StopRatesOnlyFinishedGames) {
  MatchConfig cfg;
  cfg.player1 = "random";
  cfg.player2 = "random:seed=5,name=other";
  cfg.max_plies = 300;
  std::atomic<int> stop{SIGINT};
  cfg.stop = &stop;
  cfg.games = 4;
  MatchResult r;
  std::string err;
  ASSERT_TRUE(run_match(cfg, r, &err)) << err;
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(r.games.empty());

  stop = 0;
  cfg.games = 1000000;  // far more than two threads play before the stop below
  cfg.concurrency = 2;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = SIGINT;
  });
  bool ok = run_match(cfg, r, &err);
  stopper.join();
  ASSERT_TRUE(ok) << err;
  EXPECT_TRUE(r.interrupted);
  EXPECT_LT(r.games.size(), size_t(cfg.games));
  EXPECT_EQ(r.wdl.n(), int64_t(r.games.size()));
  EXPECT_LE(2 * r.penta.n(), r.wdl.n());
  check_games(cfg, r);
  for (auto& g : r.games) EXPECT_TRUE(g.result.over()) << "game " << g.index;
  auto j = nlohmann::json::parse(match_result_json(cfg, r, "games.jsonl"));
  EXPECT_EQ(j["games"].get<int64_t>(), r.wdl.n());
  EXPECT_EQ(j["interrupted"]["planned_games"].get<int>(), cfg.games);

  // Played to the end, a match is not interrupted even with the stop flag wired.
  stop = 0;
  cfg.games = 2;
  ASSERT_TRUE(run_match(cfg, r, &err)) << err;
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.games.size(), 2u);
  EXPECT_FALSE(nlohmann::json::parse(match_result_json(cfg, r, "games.jsonl")).contains("interrupted"));
}

TEST(Match, ResultsStoreFeedsRatings) {
  jz::test::TempDir tmp("arena_store");
  std::string dir = tmp.path;
  for (int k = 0; k < 3; ++k) {  // two Janggi matches and a Xiangqi one
    MatchConfig cfg;
    cfg.player1 = k == 0 ? "random:seed=1,name=r1" : "random:seed=2,name=r2";
    cfg.player2 = "random";
    if (k == 2) cfg.rules = Ruleset::XIANGQI;
    cfg.games = 2;
    cfg.max_plies = 60;
    MatchResult r;
    std::string err, stem;
    ASSERT_TRUE(run_match(cfg, r, &err)) << err;
    ASSERT_TRUE(new_match_stem(dir, r, stem, &err)) << err;
    ASSERT_TRUE(write_match_result(stem + ".result.json", cfg, r, stem + ".games.jsonl", &err)) << err;
  }
  // Two matches of the same players started in the same second get different stems, each with its
  // games file claimed at once.
  MatchResult same;
  same.name1 = "a", same.name2 = "b";
  std::string err, s1, s2;
  ASSERT_TRUE(new_match_stem(dir, same, s1, &err)) << err;
  ASSERT_TRUE(new_match_stem(dir, same, s2, &err)) << err;
  EXPECT_NE(s1, s2);
  EXPECT_TRUE(std::filesystem::exists(s1 + ".games.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(s2 + ".games.jsonl"));
  std::vector<PairResult> res;
  int files = 0, other = 0;
  ASSERT_TRUE(load_results(dir, res, &files, &err, GameKind::XIANGQI, &other)) << err;
  EXPECT_EQ(files, 3);
  EXPECT_EQ(res.size(), 1u);  // r2 of Xiangqi is not r2 of Janggi
  EXPECT_EQ(other, 2);
  res.clear();
  ASSERT_TRUE(load_results(dir, res, &files, &err, GameKind::JANGGI, &other)) << err;
  EXPECT_EQ(other, 1);
  ASSERT_EQ(res.size(), 2u);
  std::vector<Rating> ratings;
  ASSERT_TRUE(fit_ratings(res, RatingOptions(), ratings, &err)) << err;
  EXPECT_EQ(ratings.size(), 3u);
  // A corrupt result file is a clear error, not a crash.
  std::ofstream(dir + "/bad.result.json") << "{\"player1\": 3";
  EXPECT_FALSE(load_results(dir, res, &files, &err));
  EXPECT_NE(err.find("bad.result.json"), std::string::npos);
  EXPECT_FALSE(load_results(dir + "/missing", res, &files, &err));
}
