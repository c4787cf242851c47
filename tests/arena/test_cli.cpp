// `janggi-zero evaluate` and `janggi-zero ratings` end to end: files written, bad input rejected.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "arena/record.h"
#include "tests/support/test_support.h"

namespace {

int run(const std::string& cmd, std::string& out) { return jz::test::run_shell(cmd, &out); }

const std::string BIN = JZ_BINARY;

}  // namespace

TEST(Cli, EvaluateThenRatings) {
  std::string dir = std::filesystem::temp_directory_path().string() + "/jz_arena_cli_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::string out;
  ASSERT_EQ(run(BIN +
                    " evaluate --player1 random:seed=1,name=r1 --player2 random --games 4 --concurrency 2 "
                    "--openings 2 --seed 3 --out " +
                    dir,
                out),
            0)
      << out;
  EXPECT_NE(out.find("Elo (trinomial)"), std::string::npos) << out;
  ASSERT_EQ(
      run(BIN + " evaluate --player1 random:seed=2,name=r2 --player2 r1=random:seed=1 --games 2 --out " + dir, out), 1)
      << out;  // bad spec: "r1=random..." has kind "r1=random"
  ASSERT_EQ(run(BIN +
                    " evaluate --player1 random:seed=2,name=r2 --player2 random --games 2 --variant janggicasual "
                    "--sprt 0,50 --out " +
                    dir,
                out),
            0)
      << out;
  int results = 0, records = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    std::string p = e.path().string();
    if (p.find(".result.json") != std::string::npos) ++results;
    if (p.find(".games.jsonl") != std::string::npos) {
      ++records;
      std::vector<jz::MatchRecord> games;
      std::string err;
      ASSERT_TRUE(jz::read_records(p, games, &err)) << err;
      EXPECT_FALSE(games.empty());
    }
  }
  EXPECT_EQ(results, 2);
  EXPECT_EQ(records, 2);
  ASSERT_EQ(run(BIN + " ratings --dir " + dir, out), 0) << out;
  EXPECT_NE(out.find("r1"), std::string::npos) << out;
  EXPECT_NE(out.find("r2"), std::string::npos) << out;
  EXPECT_NE(out.find("(anchor)"), std::string::npos) << out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/ratings.csv"));
  ASSERT_EQ(run(BIN + " ratings --dir " + dir + " --anchor nobody", out), 1) << out;
  EXPECT_NE(out.find("nobody"), std::string::npos) << out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, BadOptionsAreOneLineErrors) {
  std::string out;
  EXPECT_NE(run(BIN + " evaluate --player1 random --player2 bogus --games 2", out), 0);
  EXPECT_NE(out.find("unknown kind 'bogus'"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_NE(run(BIN + " evaluate --player1 random --player2 random --games 2 --variant chess", out), 0);
  EXPECT_NE(out.find("unknown variant"), std::string::npos) << out;
  EXPECT_NE(run(BIN + " evaluate --player1 random --player2 random --games 2 --sprt 5", out), 0);
  EXPECT_NE(out.find("--sprt"), std::string::npos) << out;
  EXPECT_NE(run(BIN + " ratings --dir /no/such/dir", out), 0);
  EXPECT_NE(out.find("no such directory"), std::string::npos) << out;
}

// `bench ab --depth`: the node-count signature is the same on every run (CI checks it), and the pinned
// engine's differs from today's (the flag really restores the old search and evaluation).
TEST(Cli, BenchAbSignatureIsDeterministic) {
  auto signature = [](const std::string& args) {
    std::string out;
    EXPECT_EQ(run(BIN + " bench ab --depth 6 --hash 8 " + args, out), 0) << out;
    size_t at = out.find("signature: ");
    EXPECT_NE(at, std::string::npos) << out;
    return at == std::string::npos ? std::string() : out.substr(at, out.find(" nodes", at) - at);
  };
  std::string first = signature("");
  EXPECT_EQ(first, signature(""));
  EXPECT_GT(first.size(), std::string("signature: ").size());
  std::string pinned = signature("--level version=1");
  EXPECT_EQ(pinned, signature("--level version=1"));
  EXPECT_NE(first, pinned);
  std::string out;
  EXPECT_EQ(run(BIN + " bench ab --depth 6 --level version=3", out), 2) << out;
  EXPECT_NE(out.find("version"), std::string::npos) << out;
}
