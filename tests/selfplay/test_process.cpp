// The real `janggi-zero selfplay` process (network-free --stub evaluator): kill -9 at random moments
// leaves only complete, valid chunks; SIGTERM finishes cleanly with every completed game written.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "replay/chunk_reader.h"
#include "replay/game_record.h"
#include "replay/replay_buffer.h"
#include "tests/support/test_support.h"

#ifndef JZ_BINARY
#define JZ_BINARY ""
#endif

namespace jz {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string write_config(const std::string& dir) {
  std::string path = dir + "/selfplay.yaml";
  std::ofstream(path) << "selfplay:\n  games_per_thread: 4\n  leaves_per_game: 2\n  games_per_chunk: 1\n"
                         "  full_simulations: 8\n  cheap_simulations: 4\n  max_plies: 40\n  metrics_seconds: 0.2\n"
                         "  resign: false\n";
  return path;
}

pid_t spawn(const std::string& dir, const std::string& config, const std::string& worker) {
  const std::string log = dir + "/" + worker + ".log";
  return test::spawn({JZ_BINARY, "selfplay", "--config", config, "--models-dir", dir + "/models", "--output-dir",
                      dir + "/games", "--threads", "2", "--worker-id", worker, "--stub", "material"},
                     log, log);
}

size_t count_chunks(const std::string& dir) { return list_chunk_files(dir).size(); }

bool wait_for_chunks(const std::string& dir, size_t n, pid_t pid) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (count_chunks(dir) >= n) return true;
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;  // died early
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// Every chunk file is complete and every game in it replays to its stored result.
void expect_all_valid(const std::string& games_dir, int* games_out = nullptr) {
  int games = 0;
  for (const std::string& f : list_chunk_files(games_dir)) {
    ChunkHeader h;
    std::vector<GameRecord> gs;
    std::string err;
    ASSERT_TRUE(read_chunk_file(f, h, gs, &err)) << err;
    for (const GameRecord& g : gs) {
      EXPECT_TRUE(validate_game(g, &err)) << f << ": " << err;
      EXPECT_EQ(g.network_id, "material");
    }
    games += int(gs.size());
  }
  ReplayBuffer buf(games_dir, 1 << 30);
  buf.refresh();
  EXPECT_EQ(buf.stats().bad_chunks, 0);
  EXPECT_EQ(buf.stats().games, games);
  if (games_out) *games_out = games;
}

TEST(SelfPlayProcess, KillNineLeavesOnlyCompleteChunks) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("kill9");
  std::string config = write_config(dir.path);
  std::mt19937 rng(::getpid());
  size_t expected = 0;
  for (int round = 0; round < 4; ++round) {
    pid_t pid = spawn(dir.path, config, "k" + std::to_string(round));
    ASSERT_GT(pid, 0);
    expected += 2;
    ASSERT_TRUE(wait_for_chunks(dir.path + "/games", expected, pid)) << "worker produced no chunks";
    // Land the kill at a random moment of the write cycle.
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 50000));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status));
    expected = count_chunks(dir.path + "/games");
  }
  expect_all_valid(dir.path + "/games");
}

TEST(SelfPlayProcess, SigtermFlushesFinishedGamesAndExitsCleanly) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("term");
  std::string config = write_config(dir.path);
  pid_t pid = spawn(dir.path, config, "t");
  ASSERT_TRUE(wait_for_chunks(dir.path + "/games", 3, pid));
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  int games = 0;
  expect_all_valid(dir.path + "/games", &games);
  // The last metrics line counts exactly the games that were written.
  std::ifstream metrics(dir.path + "/games/t/metrics.jsonl");
  std::string line, last;
  while (std::getline(metrics, line)) last = line;
  ASSERT_NE(last.find("\"games\":"), std::string::npos) << last;
  EXPECT_EQ(std::stoi(last.substr(last.find("\"games\":") + 8)), games) << last;
  // No temporary files are left behind by a clean stop.
  for (auto& e : fs::recursive_directory_iterator(dir.path + "/games"))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(SelfPlayProcess, BadOptionsGiveOneLineErrors) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("bad");
  std::ofstream(dir.path + "/unknown.yaml") << "selfplay:\n  no_such_key: 1\n";
  std::ofstream(dir.path + "/badval.yaml") << "selfplay:\n  full_fraction: 3\n";
  for (const char* cfg : {"unknown.yaml", "badval.yaml", "missing.yaml"}) {
    std::string cmd = std::string(JZ_BINARY) + " selfplay --config " + dir.path + "/" + cfg + " --models-dir " +
                      dir.path + "/m --output-dir " + dir.path + "/g --stub material --games 1 2>" + dir.path +
                      "/err.txt";
    int rc = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 1) << cfg;
    std::ifstream in(dir.path + "/err.txt");
    std::string first, second;
    std::getline(in, first);
    EXPECT_EQ(first.rfind("error: ", 0), 0u) << cfg << ": " << first;
    EXPECT_FALSE(std::getline(in, second)) << cfg << ": " << second;
  }
  // A truncated chunk: `record` fails cleanly.
  std::ofstream(dir.path + "/x.jzc") << "JZREPLAY-truncated";
  std::string cmd = std::string(JZ_BINARY) + " record --chunk " + dir.path + "/x.jzc 2>/dev/null";
  int rc = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
}

}  // namespace
}  // namespace jz
