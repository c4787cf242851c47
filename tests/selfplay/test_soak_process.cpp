// The real `janggi-zero soak` process, coarse: a few seconds with the network-free stub evaluator and
// more threads than cores. Checks what it writes (CSV columns and rows, summary, chunks), that a
// deliberate stall fails it, that SIGTERM still gives a summary, and that bad flags give clear errors.
// No timing or memory thresholds are asserted: the thresholds passed are far out of reach.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "replay/chunk_reader.h"
#include "replay/game_record.h"
#include "tests/support/test_support.h"

#ifndef JZ_BINARY
#define JZ_BINARY ""
#endif

namespace jz {
namespace {

namespace fs = std::filesystem;
using test::slurp;
using test::TempDir;

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string f; std::getline(ss, f, sep);) out.push_back(f);
  return out;
}

// Runs the binary with args (shell words), stdout and stderr to files in dir; returns the exit code.
int run(const std::string& args, const std::string& dir) {
  std::string cmd = std::string(JZ_BINARY) + " soak " + args + " >" + dir + "/out.txt 2>" + dir + "/err.txt";
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
}

int more_threads_than_cores() { return 2 * int(std::max(1u, std::thread::hardware_concurrency())) + 1; }

// Light games so that some finish within seconds even on a loaded machine.
const std::string LIGHT = " --stub material --games-per-thread 3 --set selfplay.max_plies=60 ";

TEST(SoakProcess, WritesSamplesSummaryAndValidChunks) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("run");
  const int threads = more_threads_than_cores();
  std::string out = dir.path + "/soak";
  int rc = run("--threads " + std::to_string(threads) + LIGHT +
                   "--seconds 6 --sample-seconds 0.5 --warmup-seconds 1 --stall-seconds 120 "
                   "--max-growth-mib 100000 --out " +
                   out,
               dir.path);
  ASSERT_EQ(rc, 0) << slurp(dir.path + "/err.txt");

  std::vector<std::string> csv = lines_of(out + "/soak.csv");
  ASSERT_GE(csv.size(), 5u) << "header and several samples expected";
  std::vector<std::string> cols = split(csv[0], ',');
  std::vector<std::string> expected = {"version",     "elapsed_s",  "cpu_s", "rss_mib",          "hwm_mib",
                                       "games",       "positions",  "moves", "concurrent_games", "games_per_s",
                                       "evals_per_s", "max_idle_s", "stalls"};
  EXPECT_EQ(cols, expected);
  double last_elapsed = -1;
  for (size_t i = 1; i < csv.size(); ++i) {
    std::vector<std::string> f = split(csv[i], ',');
    ASSERT_EQ(f.size(), expected.size()) << csv[i];
    EXPECT_EQ(f[0], "1");
    EXPECT_GT(std::stod(f[1]), last_elapsed) << csv[i];
    last_elapsed = std::stod(f[1]);
    EXPECT_GT(std::stod(f[3]), 0) << "RSS read from /proc: " << csv[i];
  }

  // The summary is printed and written, and the two agree.
  nlohmann::json j = nlohmann::json::parse(slurp(out + "/soak.json"));
  EXPECT_EQ(j, nlohmann::json::parse(slurp(dir.path + "/out.txt")));
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["threads"], threads);
  EXPECT_EQ(j["concurrent_games"], threads * 3);
  EXPECT_EQ(j["evaluator"], "stub material");
  EXPECT_EQ(j["interrupted"], false);
  EXPECT_GT(j["games"].get<int>(), 0);
  EXPECT_EQ(j["stalls"]["count"], 0);
  EXPECT_TRUE(j["stalls"]["events"].empty());
  EXPECT_GT(j["memory"]["rss_end_mib"].get<double>(), 0);
  EXPECT_TRUE(j["memory"]["growth_measured"].get<bool>());
  EXPECT_GT(j["chunks"]["count"].get<int>(), 0);
  EXPECT_EQ(j["chunks"]["corrupt"], 0);
  EXPECT_EQ(j["chunks"]["games"], j["games"]);
  EXPECT_EQ(j["verdict"], "pass");

  // Our own reading of the chunks agrees with the summary's.
  int games = 0;
  std::vector<std::string> files = list_chunk_files(out + "/games");
  EXPECT_EQ(int(files.size()), j["chunks"]["count"].get<int>());
  for (const std::string& f : files) {
    ChunkHeader h;
    std::vector<GameRecord> gs;
    std::string err;
    ASSERT_TRUE(read_chunk_file(f, h, gs, &err)) << err;
    for (const GameRecord& g : gs) EXPECT_TRUE(validate_game(g, &err)) << err;
    games += int(gs.size());
  }
  EXPECT_EQ(games, j["games"].get<int>());
}

TEST(SoakProcess, TemporaryDirectoryIsRemovedAfterAPass) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("tmp");
  fs::create_directories(dir.path + "/tmp");
  std::string cmd = "TMPDIR=" + dir.path + "/tmp " + JZ_BINARY + " soak --threads 2" + LIGHT +
                    "--seconds 2 --sample-seconds 0.5 --stall-seconds 120 --max-growth-mib 100000 >" + dir.path +
                    "/out.txt 2>" + dir.path + "/err.txt";
  int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << slurp(dir.path + "/err.txt");
  nlohmann::json j = nlohmann::json::parse(slurp(dir.path + "/out.txt"));
  EXPECT_EQ(j["output_dir"], "");
  EXPECT_TRUE(fs::is_empty(dir.path + "/tmp")) << "the temporary output directory was left behind";
}

TEST(SoakProcess, AnInjectedStallIsReportedAndFailsTheRun) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("stall");
  std::string out = dir.path + "/soak";
  int rc = run("--threads 3" + LIGHT +
                   "--seconds 5 --sample-seconds 0.5 --warmup-seconds 1 --stall-seconds 1 --inject-stall 2.5 "
                   "--max-growth-mib 100000 --out " +
                   out,
               dir.path);
  EXPECT_EQ(rc, 2) << slurp(dir.path + "/err.txt");
  nlohmann::json j = nlohmann::json::parse(slurp(out + "/soak.json"));
  EXPECT_GE(j["stalls"]["count"].get<int>(), 1);
  EXPECT_GT(j["stalls"]["longest_seconds"].get<double>(), 1.0);
  ASSERT_GE(j["stalls"]["events"].size(), 1u);
  const nlohmann::json& e = j["stalls"]["events"][0];
  EXPECT_GE(e["thread"].get<int>(), 0);
  EXPECT_LT(e["thread"].get<int>(), 3);
  EXPECT_GE(e["at_seconds"].get<double>(), 0.0);
  EXPECT_GT(e["duration_seconds"].get<double>(), 1.0);
  EXPECT_EQ(j["verdict"], "fail");
  EXPECT_NE(j["reasons"].dump().find("stall"), std::string::npos) << j["reasons"];
  EXPECT_NE(slurp(dir.path + "/err.txt").find("STALL: play thread"), std::string::npos);
}

TEST(SoakProcess, SigtermStillWritesTheSummary) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("term");
  std::string out = dir.path + "/soak";
  pid_t pid = test::spawn(
      {JZ_BINARY, "soak", "--threads", "3", "--stub", "material", "--games-per-thread", "3", "--set",
       "selfplay.max_plies=60", "--seconds", "600", "--sample-seconds", "0.2", "--stall-seconds", "120", "--out", out},
      dir.path + "/out.txt", dir.path + "/err.txt");
  ASSERT_GT(pid, 0);
  // Wait for a sample with a finished game, so the run has something to validate.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  bool ready = false;
  while (!ready && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::vector<std::string> csv = lines_of(out + "/soak.csv");
    if (csv.size() >= 2) {
      std::vector<std::string> f = split(csv.back(), ',');
      ready = f.size() > 5 && std::stoll(f[5]) > 0;
    }
  }
  ASSERT_TRUE(ready) << "no finished game in the samples";
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal instead of stopping cleanly";
  EXPECT_EQ(WEXITSTATUS(status), 0) << slurp(dir.path + "/err.txt");
  nlohmann::json j = nlohmann::json::parse(slurp(out + "/soak.json"));
  EXPECT_EQ(j["interrupted"], true);
  EXPECT_LT(j["elapsed_seconds"].get<double>(), 600);
  EXPECT_GT(j["games"].get<int>(), 0);
  EXPECT_EQ(j["chunks"]["games"], j["games"]);
}

TEST(SoakProcess, BadFlagsExitNonZeroWithAMessage) {
  ASSERT_TRUE(fs::exists(JZ_BINARY)) << "janggi-zero binary not built: '" << JZ_BINARY << "'";
  TempDir dir("bad");
  std::ofstream(dir.path + "/unknown.yaml") << "selfplay:\n  no_such_key: 1\n";
  const std::string out = " --out " + dir.path + "/never";
  struct Case {
    std::string args, message;
  };
  std::vector<Case> cases = {
      {"--stub material --threads -3", "--threads must be 1..1024"},
      {"--stub material --seconds 0", "--minutes / --seconds must be > 0"},
      {"--stub material --minutes -2", "--minutes / --seconds must be > 0"},
      {"--stub bogus", "--stub must be uniform or material"},
      {"--stub material --sample-seconds 0", "--sample-seconds must be >= 0.05"},
      {"--stub material --stall-seconds 0", "--stall-seconds must be > 0"},
      {"--stub material --warmup-percent 100", "--warmup-percent must be in [0, 100)"},
      {"--stub material --seconds 10 --warmup-seconds 10", "--warmup-seconds must be shorter than the run"},
      {"--stub material --max-growth-mib 0", "--max-growth-mib must be > 0"},
      {"--stub material --games-per-thread -1", "--games-per-thread must be >= 1"},
      {"--model " + dir.path + "/missing.jzn", "missing.jzn"},
      {"--random-network 3y7", "3y7"},
      {"--stub material --config " + dir.path + "/missing.yaml", "missing.yaml"},
      {"--stub material --config " + dir.path + "/unknown.yaml", "no_such_key"},
      {"--stub material --set selfplay.full_fraction=3", "full_fraction"},
  };
  for (const Case& c : cases) {
    int rc = run(c.args + out, dir.path);
    EXPECT_EQ(rc, 1) << c.args;
    std::vector<std::string> err = lines_of(dir.path + "/err.txt");
    ASSERT_EQ(err.size(), 1u) << c.args << ": " << slurp(dir.path + "/err.txt");
    EXPECT_EQ(err[0].rfind("error: ", 0), 0u) << c.args << ": " << err[0];
    EXPECT_NE(err[0].find(c.message), std::string::npos) << c.args << ": " << err[0];
    EXPECT_FALSE(fs::exists(dir.path + "/never")) << c.args << ": a refused run left its directory";
  }
  // Contradicting options are refused by the parser (its own message and exit code).
  for (const char* args : {"--minutes 1 --seconds 5", "--stub material --random-network 4x32", "--threads many"}) {
    int rc = run(std::string(args) + out, dir.path);
    EXPECT_NE(rc, 0) << args;
    EXPECT_FALSE(slurp(dir.path + "/err.txt").empty()) << args;
    EXPECT_FALSE(fs::exists(dir.path + "/never")) << args;
  }
}

}  // namespace
}  // namespace jz
