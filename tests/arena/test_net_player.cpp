// net: players (MCTS + a network file): a tiny random network plays legal games against random.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "arena/match.h"
#include "arena/player.h"
#include "nn/checkpoint.h"

using namespace jz;

TEST(NetPlayer, PlaysLegalGames) {
  std::string path =
      std::filesystem::temp_directory_path().string() + "/jz_arena_net_" + std::to_string(getpid()) + ".model";
  ModelConfig cfg;
  std::string err;
  ASSERT_TRUE(ModelConfig::parse("2x16", cfg, &err)) << err;
  create_random_network(path, cfg, 7);
  MatchConfig m;
  m.player1 = "net:" + path + ",sims=8,device=cpu";
  m.player2 = "random";
  m.games = 2;
  m.max_plies = 40;
  MatchResult r;
  ASSERT_TRUE(run_match(m, r, &err)) << err;
  ASSERT_EQ(r.games.size(), 2u);
  EXPECT_GT(r.nodes_per_move(1), 1.0);  // network evaluations: the root and up to 8 simulations' leaves
  EXPECT_LE(r.nodes_per_move(1), 9.0);
  EXPECT_EQ(r.nodes_per_move(2), -1.0);
  for (auto& g : r.games) {
    EXPECT_TRUE(g.reason.empty()) << g.reason;
    GameResult fin;
    EXPECT_TRUE(replay_record(g, fin, &err)) << err;
  }
  // A movetime player keeps its tree between moves (Tree::reach) and batches 8 leaves: legal games too.
  m.player1 = "net:" + path + ",movetime=10,device=cpu";
  m.max_plies = 30;
  ASSERT_TRUE(run_match(m, r, &err)) << err;
  for (auto& g : r.games) {
    EXPECT_TRUE(g.reason.empty()) << g.reason;
    GameResult fin;
    EXPECT_TRUE(replay_record(g, fin, &err)) << err;
  }
  EXPECT_FALSE(check_player_spec("net:" + path + ",movetime=10,reuse=2", &err));
  EXPECT_NE(err.find("reuse must be"), std::string::npos) << err;
  EXPECT_FALSE(check_player_spec("net:" + path + ",sims=0", &err));
  EXPECT_NE(err.find("sims must be"), std::string::npos) << err;
  EXPECT_FALSE(check_player_spec("net:" + path + ",device=tpu", &err));
  EXPECT_TRUE(check_player_spec("net:" + path + ",sims=8,score=0.1", &err)) << err;
  for (const char* bad : {"score=abc", "score=-1", "score=0.1x", "score=nan"}) {
    EXPECT_FALSE(check_player_spec("net:" + path + ",sims=8," + bad, &err)) << bad;
    EXPECT_NE(err.find("score must be a number"), std::string::npos) << err;
  }
  EXPECT_TRUE(check_player_spec("net:" + path + ",sims=8,cpuct=2.5,cpuct_growth=0.5,fpu=0.3", &err)) << err;
  EXPECT_TRUE(check_player_spec("net:" + path + ",movetime=10,batch=16,vvisit=1,collisions=16", &err)) << err;
  for (const char* bad : {"cpuct=0", "cpuct=x", "fpu=-0.1", "cpuct_growth=-1", "vvisit=2", "collisions=-1"}) {
    EXPECT_FALSE(check_player_spec("net:" + path + ",sims=8," + bad, &err)) << bad;
    EXPECT_NE(err.find(std::string(bad).substr(0, std::string(bad).find('='))), std::string::npos) << err;
  }
  EXPECT_TRUE(check_player_spec("net:" + path + ",movetime=10,guard=0", &err)) << err;
  EXPECT_TRUE(check_player_spec("net:" + path + ",sims=8,guard=1", &err)) << err;
  for (const char* bad : {"guard=2", "guard=-1", "guard=x"}) {
    EXPECT_FALSE(check_player_spec("net:" + path + ",sims=8," + bad, &err)) << bad;
    EXPECT_NE(err.find("guard"), std::string::npos) << err;
  }
  EXPECT_TRUE(check_player_spec("net:" + path + ",movetime=10,verify=0", &err)) << err;
  EXPECT_TRUE(check_player_spec("net:" + path + ",sims=8,guard=0,verify=1", &err)) << err;
  for (const char* bad : {"verify=2", "verify=-1", "verify=x"}) {
    EXPECT_FALSE(check_player_spec("net:" + path + ",sims=8," + bad, &err)) << bad;
    EXPECT_NE(err.find("verify"), std::string::npos) << err;
  }
  EXPECT_TRUE(check_player_spec("net:" + path + ",movetime=10,tactics=0", &err)) << err;
  EXPECT_TRUE(check_player_spec("net:" + path + ",sims=8,tactics=4,tactics_margin=300", &err)) << err;
  for (const char* bad : {"tactics=9", "tactics=-1", "tactics_margin=x"}) {
    EXPECT_FALSE(check_player_spec("net:" + path + ",sims=8," + bad, &err)) << bad;
    EXPECT_NE(err.find("tactics"), std::string::npos) << err;
  }
  // A file that is not a model: a clear error when the player is made.
  std::string junk = path + ".junk";
  { std::ofstream(junk) << "not a model"; }
  EXPECT_FALSE(make_player("net:" + junk, 1, &err));
  EXPECT_NE(err.find(junk), std::string::npos) << err;
  std::filesystem::remove(path);
  std::filesystem::remove(junk);
}
