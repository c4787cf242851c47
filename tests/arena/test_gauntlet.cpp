// The learning-curve gauntlet: which networks it rates, the rows and markers it leaves, resuming.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "arena/gauntlet.h"
#include "nn/checkpoint.h"
#include "tests/support/test_support.h"

using namespace jz;
namespace fs = std::filesystem;
using jz::test::slurp;

namespace {

struct TempRun {
  jz::test::TempDir tmp{"gauntlet"};
  std::string root = tmp.path;
  TempRun() {
    fs::create_directories(root + "/models");
    ModelConfig cfg;
    std::string err;
    EXPECT_TRUE(ModelConfig::parse("1x8", cfg, &err)) << err;
    for (int step : {0, 100, 150}) {
      char name[64];
      std::snprintf(name, sizeof name, "/models/net-%08d.jzn", step);
      create_random_network(root + name, cfg, uint64_t(step + 1));
    }
  }
  GauntletOptions options() const {
    GauntletOptions o;
    o.models_dir = root + "/models";
    o.eval_dir = root + "/eval";
    o.opponents = {"random", "random:seed=9,name=random9"};
    o.net_options = "sims=2";
    o.games = 2;
    o.opening_plies = 0;
    o.every = 100;
    return o;
  }
};

}  // namespace

TEST(Gauntlet, SplitsOpponentsOnSemicolons) {
  auto v = split_opponents(" random ;alphabeta:depth=2,movetime=50;; uci:/bin/x a b ");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], "random");
  EXPECT_EQ(v[1], "alphabeta:depth=2,movetime=50");
  EXPECT_EQ(v[2], "uci:/bin/x a b");
  EXPECT_TRUE(split_opponents(" ; ").empty());
}

TEST(Gauntlet, RejectsBadOptions) {
  TempRun run;
  std::string err;
  GauntletOptions o = run.options();
  EXPECT_TRUE(check_gauntlet(o, &err)) << err;
  o.opponents = {"randomm"};
  EXPECT_FALSE(check_gauntlet(o, &err));
  o = run.options();
  o.opponents.clear();
  EXPECT_FALSE(check_gauntlet(o, &err));
  o = run.options();
  o.net_options = "sims=2,speed=3";
  EXPECT_FALSE(check_gauntlet(o, &err));
  EXPECT_NE(err.find("speed"), std::string::npos) << err;
}

TEST(Gauntlet, RatesMultiplesNewestFirstAndResumes) {
  TempRun run;
  GauntletOptions o = run.options();
  auto pending = gauntlet_pending(o);
  ASSERT_EQ(pending.size(), 2u);  // 100 and 0; 150 is not a multiple of 100
  EXPECT_EQ(pending[0].first, 100);
  EXPECT_EQ(pending[1].first, 0);
  o.latest = true;
  EXPECT_EQ(gauntlet_pending(o).front().first, 150);
  o.latest = false;

  std::vector<std::string> lines;
  auto log = [&](const std::string& l) { lines.push_back(l); };
  std::string err;
  ASSERT_EQ(gauntlet_step(o, log, &err), 2) << err;  // net 100 vs both opponents
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("net-00000100 vs random"), std::string::npos) << lines[0];
  EXPECT_TRUE(fs::exists(o.eval_dir + "/done/net-00000100@random"));
  EXPECT_TRUE(fs::exists(o.eval_dir + "/done/net-00000100@random9"));

  // A lost marker means that pair is played again, and only that one.
  fs::remove(o.eval_dir + "/done/net-00000100@random9");
  ASSERT_EQ(gauntlet_pending(o).front().first, 100);
  ASSERT_EQ(gauntlet_step(o, log, &err), 1) << err;
  ASSERT_EQ(gauntlet_step(o, log, &err), 2) << err;  // then net 0
  EXPECT_EQ(gauntlet_step(o, log, &err), 0) << err;  // nothing left
  EXPECT_TRUE(gauntlet_pending(o).empty());

  // Rows in the eval CSV contract, one per match; results in the store.
  std::string csv = slurp(o.eval_dir + "/gauntlet.csv");
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header, "network,step,games,opponent,score,elo,elo_lo,elo_hi");
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 7) << line;
    EXPECT_NE(line.find(",2,random"), std::string::npos) << line;
  }
  EXPECT_EQ(rows, 5);
  EXPECT_NE(csv.find("net-00000000,0,2,random,"), std::string::npos) << csv;
  int results = 0;
  for (auto& e : fs::directory_iterator(o.eval_dir + "/store"))
    results += e.path().string().find(".result.json") != std::string::npos;
  EXPECT_EQ(results, 5);
}

TEST(Gauntlet, CpuHourMarksPickTheNetworkExportedByThen) {
  // train.csv rows: step and cumulative CPU hours; networks every 100 steps.
  std::vector<double> steps = {25, 50, 100, 150, 200, 250, 300}, cpu = {0.1, 0.2, 0.4, 0.5, 0.7, 0.9, 1.05};
  std::vector<int64_t> nets = {0, 100, 200, 300};
  // 0.25 h first reached at step 100; 0.5 at 150 (newest net 100, already listed); 1.0 at 300; 2.0 never.
  EXPECT_EQ(steps_at_marks({0.25, 0.5, 1.0, 2.0}, steps, cpu, nets), (std::vector<int64_t>{100, 300}));
  EXPECT_EQ(steps_at_marks({0.05}, steps, cpu, nets), (std::vector<int64_t>{0}));
  EXPECT_TRUE(steps_at_marks({0.5}, {}, {}, nets).empty());
}
