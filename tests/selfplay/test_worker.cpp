#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "mcts/stub_evaluator.h"
#include "replay/chunk_reader.h"
#include "replay/game_record.h"
#include "selfplay/worker.h"
#include "tests/support/chunks.h"
#include "tests/support/test_support.h"

namespace jz {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

SelfPlayOptions small_options() {
  SelfPlayOptions o;
  o.games_per_thread = 3;
  o.leaves_per_game = 2;
  o.games_per_chunk = 2;
  o.full_simulations = 12;
  o.cheap_simulations = 4;
  o.full_fraction = 0.5;
  o.max_plies = 50;
  o.random_opening_plies = 2;
  o.resign = false;
  o.seed = 7;
  return o;
}

std::vector<GameRecord> read_all(const std::string& dir) { return test::read_all_chunks(dir); }

// A network sure that Cho loses: Cho wants to resign as soon as it may.
class LosingEvaluator : public UniformEvaluator {
 public:
  void evaluate(const EvalInput* in, int n, Evaluation* out) override {
    UniformEvaluator::evaluate(in, n, out);
    for (int i = 0; i < n; ++i) {
      bool cho = in[i].pos->side_to_move() == CHO;
      out[i].wdl[0] = cho ? 0.f : 1.f;
      out[i].wdl[1] = 0;
      out[i].wdl[2] = cho ? 1.f : 0.f;
    }
  }
  std::string id() const override { return "losing"; }
};

TEST(SelfPlayWorker, PlaysValidGamesThatReplayToTheirResults) {
  TempDir dir("valid");
  SelfPlayOptions o = small_options();
  {
    ChunkWriter writer(dir.path, "t", o.games_per_chunk);
    SelfPlayWorker w(o, std::make_shared<MaterialEvaluator>(1.0f), writer);
    w.start(2, 10);
    w.join();
    EXPECT_TRUE(w.done());
    EXPECT_EQ(w.error(), "");
    SelfPlayStats s = w.stats();
    EXPECT_EQ(s.games, 10u);
    EXPECT_GT(s.leaf_evals, 0u);
    EXPECT_GT(s.full_positions, 0u);
    EXPECT_LT(s.full_positions, s.positions);
    EXPECT_LE(s.moves, s.positions);
    EXPECT_GE(s.moves + 10 * 2, s.positions);  // all but the random opening plies (<= 2 a game)
    EXPECT_GT(s.avg_batch(), 1.0);
    EXPECT_GE(s.eval_share(), 0.0);
    EXPECT_LE(s.eval_share(), 1.0);
    EXPECT_EQ(s.concurrent_games, 0u);
    uint64_t wins = 0;
    for (auto n : s.winners) wins += n;
    EXPECT_EQ(wins, 10u);
  }
  std::vector<GameRecord> games = read_all(dir.path);
  ASSERT_EQ(games.size(), 10u);
  for (const GameRecord& g : games) {
    std::string err;
    EXPECT_TRUE(validate_game(g, &err)) << err;
    EXPECT_EQ(g.network_id, "material");
    EXPECT_LE(g.num_plies(), 50);
    EXPECT_NE(g.ending, Ending::RESIGNATION);
    EXPECT_LT(g.setup, 16);
  }
}

TEST(SelfPlayWorker, ResignsAndProbesFalseResignations) {
  TempDir dir("resign");
  SelfPlayOptions o = small_options();
  o.resign = true;
  o.resign_threshold = 0.9;
  o.resign_consecutive = 2;
  o.resign_min_ply = 4;
  o.random_opening_plies = 0;
  o.resign_playout_fraction = 0.5;
  o.max_plies = 30;
  SelfPlayStats s;
  {
    ChunkWriter writer(dir.path, "t", 4);
    SelfPlayWorker w(o, std::make_shared<LosingEvaluator>(), writer);
    w.start(1, 12);
    w.join();
    s = w.stats();
  }
  int resigned = 0, probes = 0;
  for (const GameRecord& g : read_all(dir.path)) {
    std::string err;
    EXPECT_TRUE(validate_game(g, &err)) << err;
    if (g.flags & GAME_FLAG_NO_RESIGN) {
      ++probes;
      EXPECT_NE(g.ending, Ending::RESIGNATION);
      EXPECT_TRUE(g.flags & GAME_FLAG_WOULD_RESIGN);
      EXPECT_EQ(g.would_resign, CHO);  // Cho reaches its second losing search first (ply 6)
    } else {
      ++resigned;
      EXPECT_EQ(g.ending, Ending::RESIGNATION);
      EXPECT_EQ(g.winner, Winner::HAN);
      EXPECT_EQ(g.num_plies(), 6);
    }
  }
  EXPECT_EQ(resigned + probes, 12);
  EXPECT_GT(resigned, 0);
  EXPECT_GT(probes, 0);
  EXPECT_EQ(s.probe_games, uint64_t(probes));
  EXPECT_EQ(s.probe_would_resign, uint64_t(probes));
  EXPECT_EQ(s.endings[int(Ending::RESIGNATION)], uint64_t(resigned));
}

TEST(SelfPlayWorker, SwitchesNetworkBetweenMovesWithoutStopping) {
  TempDir dir("switch");
  SelfPlayOptions o = small_options();
  o.max_plies = 40;
  ChunkWriter writer(dir.path, "t", 1);
  SelfPlayWorker w(o, std::make_shared<UniformEvaluator>(), writer);
  w.start(1);
  // Polls end at a deadline, so a worker that stalls fails the test instead of hanging it.
  auto wait_for_games = [&](uint64_t n) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (w.stats().games < n && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return w.stats().games >= n;
  };
  EXPECT_TRUE(wait_for_games(3));
  w.set_evaluator(std::make_shared<MaterialEvaluator>());
  uint64_t at_switch = w.stats().games;
  EXPECT_TRUE(wait_for_games(at_switch + 9));
  w.stop();
  w.join();
  writer.flush(nullptr);
  int uniform = 0, material = 0;
  for (const GameRecord& g : read_all(dir.path)) {
    std::string err;
    EXPECT_TRUE(validate_game(g, &err)) << err;
    uniform += g.network_id == "uniform";
    material += g.network_id == "material";
  }
  EXPECT_GE(uniform, 3);
  // A game takes the network at the start of each move: the 3 games running at the switch may end with a
  // move searched on the old one, every later move uses the new one. So of the 9 games that end after the
  // switch, at least 6 record the new network.
  EXPECT_GE(material, 6);
}

TEST(SelfPlayOptions, ConfigKeysAndBadValues) {
  Config c;
  std::string err;
  ASSERT_TRUE(
      c.parse("selfplay:\n  rules: janggimodern\n  full_simulations: 99\nsearch:\n  gumbel: true\n"
              "  gumbel_m: 8\n",
              "t.yaml", &err))
      << err;
  SelfPlayOptions o;
  ASSERT_TRUE(load_selfplay_options(c, o, &err)) << err;
  EXPECT_EQ(o.ruleset, Ruleset::MODERN);
  EXPECT_EQ(o.full_simulations, 99);
  EXPECT_TRUE(o.search.gumbel);
  EXPECT_EQ(o.search.gumbel_m, 8);
  EXPECT_TRUE(c.unused_keys().empty());
  for (const char* bad : {"selfplay:\n  rules: chess\n", "selfplay:\n  full_fraction: 2\n",
                          "selfplay:\n  setup_weights: [1, 2]\n", "selfplay:\n  max_plies: x\n"}) {
    Config b;
    ASSERT_TRUE(b.parse(bad, "b.yaml", &err));
    SelfPlayOptions ob;
    EXPECT_FALSE(load_selfplay_options(b, ob, &err)) << bad;
    EXPECT_NE(err.find("b.yaml"), std::string::npos) << err;
  }
  EXPECT_DOUBLE_EQ(temperature_at(o, 0), o.temperature_start);
  EXPECT_NEAR(temperature_at(o, 100000), o.temperature_end, 1e-9);
}

}  // namespace
}  // namespace jz
