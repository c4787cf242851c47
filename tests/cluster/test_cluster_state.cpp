// jobs.json, Slurm tool output parsing, and what `cluster status` reads from a run directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include "cluster/eval_csv.h"
#include "cluster/jobs_file.h"
#include "cluster/run_status.h"
#include "cluster/slurm_cli.h"
#include "tests/support/random_games.h"
#include "util/fileio.h"
#include "tests/support/test_support.h"

namespace jz {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

TEST(JobsFile, RoundTripAndErrors) {
  TempDir d;
  JobsFile f;
  f.launched_at = "2026-01-02T03:04:05Z";
  f.run_dir = d.path;
  f.jobs = {{"selfplay", "101", d.path + "/slurm/selfplay.sbatch", 4}, {"trainer", "102", "t.sbatch", 1}};
  f.earlier_ids = {"7", "8"};
  std::string err, path = d.path + "/jobs.json";
  ASSERT_TRUE(write_jobs_file(path, f, &err)) << err;
  JobsFile g;
  ASSERT_TRUE(read_jobs_file(path, g, &err)) << err;
  ASSERT_EQ(g.jobs.size(), 2u);
  EXPECT_EQ(g.jobs[0].id, "101");
  EXPECT_EQ(g.jobs[0].tasks, 4);
  EXPECT_EQ(g.jobs[1].role, "trainer");
  EXPECT_EQ(g.earlier_ids, f.earlier_ids);
  EXPECT_EQ(g.launched_at, f.launched_at);
  for (const std::string& bad : {std::string("{"), std::string("[]"), std::string("{\"jobs\": [{\"role\": \"x\"}]}"),
                                 std::string("{\"jobs\": [{\"role\": \"x\", \"id\": \"1; rm\"}]}")})
    EXPECT_FALSE(jobs_from_json(bad, g, &err)) << bad;
  EXPECT_FALSE(read_jobs_file(d.path + "/missing.json", g, &err));
  EXPECT_FALSE(err.empty());
}

TEST(SlurmCli, ParsesToolOutput) {
  EXPECT_EQ(parse_sbatch_output("12345\n"), "12345");
  EXPECT_EQ(parse_sbatch_output("12345;cluster\n"), "12345");
  EXPECT_EQ(parse_sbatch_output("Submitted batch job 5\n"), "");
  EXPECT_EQ(parse_sbatch_output(""), "");
  auto q = parse_squeue_output(
      "101_0|RUNNING|1:02|node1\n101_1|PENDING|0:00|(Resources)\n1011|RUNNING|5:00|n2\n"
      "102|RUNNING|0:30|node1\n\n");
  ASSERT_EQ(q.size(), 4u);
  EXPECT_EQ(q[1].state, "PENDING");
  EXPECT_EQ(q[1].reason, "(Resources)");
  auto of101 = entries_of(q, "101");
  ASSERT_EQ(of101.size(), 2u);  // not 1011
  EXPECT_EQ(of101[0].id, "101_0");
  EXPECT_EQ(entries_of(q, "102").size(), 1u);
  EXPECT_TRUE(entries_of(q, "10").empty());
}

TEST(SlurmCli, RunCommand) {
  std::string out, err;
  EXPECT_EQ(run_command({"sh", "-c", "echo out; echo err >&2; exit 3"}, &out, &err), 3);
  EXPECT_EQ(out, "out\n");
  EXPECT_EQ(err, "err\n");
  EXPECT_EQ(run_command({"/nonexistent/tool"}, &out, &err), 127);
  EXPECT_TRUE(tool_in_path("sh"));
  EXPECT_FALSE(tool_in_path("surely-not-a-tool-jz"));
}

TEST(TrainCsv, RateColumnOrCumulative) {
  auto t = parse_train_csv("step,loss,samples_per_s,ratio\n10,2.5,100.5,1\n20,2.4,200.25,3.5\n");
  EXPECT_TRUE(t.present);
  EXPECT_EQ(t.step, "20");
  EXPECT_DOUBLE_EQ(t.samples_per_s, 200.25);
  EXPECT_EQ(t.rows, 2);
  EXPECT_DOUBLE_EQ(t.ratio, 3.5);
  t = parse_train_csv("step,samples,elapsed_s\n1,1000,10\n2,3000,20\n3,40");  // torn last row ignored
  EXPECT_DOUBLE_EQ(t.samples_per_s, 200.0);
  EXPECT_EQ(t.step, "2");
  t = parse_train_csv("step,loss\n");
  EXPECT_FALSE(t.present);
  t = parse_train_csv("step,loss\n5,1.0\n");
  EXPECT_TRUE(t.present);
  EXPECT_LT(t.samples_per_s, 0);
}

TEST(RunStatus, NetworkStep) {
  EXPECT_EQ(network_step("net-00000100.jzn"), 100);
  EXPECT_EQ(network_step("net-5.jzn"), 5);
  EXPECT_EQ(network_step("net-.jzn"), -1);
  EXPECT_EQ(network_step("net-00000100.jzn.tmp.1.2"), -1);
  EXPECT_EQ(network_step("model.jzn"), -1);
}

TEST(RunStatus, CountsChunksPerWorker) {
  TempDir d;
  std::mt19937_64 rng(7);
  const uint64_t now = uint64_t(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  uint64_t expect_positions[2] = {0, 0};
  std::string err;
  for (int w = 0; w < 2; w++) {
    std::string dir = d.path + "/games/w" + std::to_string(w);
    ASSERT_TRUE(make_dirs(dir));
    for (int c = 0; c <= w; c++) {
      std::vector<GameRecord> games = {test::random_game(rng, Ruleset::JANGGI, 30),
                                       test::random_game(rng, Ruleset::JANGGI, 30)};
      games.back().network_id = "net-0000000" + std::to_string(c);
      for (const auto& g : games) expect_positions[w] += g.plies.size();
      ASSERT_TRUE(write_file_atomic(dir + "/chunk-" + std::to_string(c) + ".jzc",
                                    encode_chunk(games, now - 1000 + c, 1), &err));
    }
  }
  // A torn file and a writer's temporary: one counts as unreadable, the other is not a chunk.
  std::string good = encode_chunk({test::random_game(rng, Ruleset::JANGGI, 10)}, now, 1);
  ASSERT_TRUE(write_file_atomic(d.path + "/games/w1/torn.jzc", good.substr(0, good.size() - 5), &err));
  ASSERT_TRUE(write_file_atomic(d.path + "/games/w1/x.jzc.tmp.1.2", good, &err));
  ASSERT_TRUE(make_dirs(d.path + "/models"));
  for (const char* m : {"net-00000002.jzn", "net-00000010.jzn", "notes.txt"})
    ASSERT_TRUE(write_file_atomic(d.path + "/models/" + m, std::string("x"), &err));
  ASSERT_TRUE(make_dirs(d.path + "/metrics"));
  ASSERT_TRUE(write_file_atomic(d.path + "/metrics/train.csv", std::string("step,samples_per_s\n10,55\n"), &err));

  RunProgress p = scan_run(d.path, now, 600);
  ASSERT_EQ(p.workers.size(), 2u);
  EXPECT_EQ(p.workers[0].worker, "w0");
  EXPECT_EQ(p.workers[0].chunks, 1);
  EXPECT_EQ(p.workers[0].games, 2u);
  EXPECT_EQ(p.workers[0].positions, expect_positions[0]);
  EXPECT_EQ(p.workers[0].network_id, "net-00000000");
  EXPECT_EQ(p.workers[1].chunks, 2);
  EXPECT_EQ(p.workers[1].bad_chunks, 1);
  EXPECT_EQ(p.workers[1].games, 4u);
  EXPECT_EQ(p.workers[1].positions, expect_positions[1]);
  EXPECT_EQ(p.workers[1].network_id, "net-00000001");  // from the newest chunk
  EXPECT_EQ(p.workers[1].newest_ms, now - 999);
  EXPECT_NEAR(p.workers[1].recent_positions_per_s, expect_positions[1] / 600.0, 1e-9);
  EXPECT_EQ(p.games, 6u);
  EXPECT_EQ(p.positions, expect_positions[0] + expect_positions[1]);
  EXPECT_EQ(p.network.count, 2);
  EXPECT_EQ(p.network.newest, "net-00000010.jzn");
  EXPECT_EQ(p.network.step, 10);
  EXPECT_GE(p.network.age_s, 0);
  EXPECT_DOUBLE_EQ(p.trainer.samples_per_s, 55);

  RunProgress empty = scan_run(d.path + "/nothing-here", now);
  EXPECT_TRUE(empty.workers.empty());
  EXPECT_EQ(empty.network.count, 0);
  EXPECT_FALSE(empty.trainer.present);
}

TEST(EvalCsv, RowsFromMatchResults) {
  TempDir d;
  std::string err, res = d.path + "/m.result.json", csv = d.path + "/eval/evaluator.csv";
  ASSERT_TRUE(make_dirs(d.path + "/eval"));
  ASSERT_TRUE(write_file_atomic(res, std::string(R"({"games": 20, "score": 0.625,
    "elo_trinomial": {"elo": 88.7, "lo": 1.5, "hi": 180.0, "samples": 20},
    "elo_pentanomial": {"elo": 90.5, "lo": 10.25, "hi": 170.0, "samples": 10}})"),
                                &err));
  ASSERT_TRUE(append_eval_row(res, "net-00000120", "net-00000060", csv, &err)) << err;
  ASSERT_TRUE(write_file_atomic(res, std::string(R"({"games": 1, "score": 1,
    "elo_trinomial": {"elo": 800, "lo": 0, "hi": 1200, "samples": 1},
    "elo_pentanomial": {"elo": 0, "lo": 0, "hi": 0, "samples": 0}})"),
                                &err));
  ASSERT_TRUE(append_eval_row(res, "net-00000130", "random", csv, &err)) << err;
  std::string text;
  ASSERT_TRUE(read_file(csv, text, &err));
  EXPECT_EQ(text,
            "network,step,games,opponent,score,elo,elo_lo,elo_hi\n"
            "net-00000120,120,20,net-00000060,0.625,90.5,10.25,170\n"
            "net-00000130,130,1,random,1,800,0,1200\n");
  ASSERT_TRUE(write_file_atomic(res, std::string("{\"games\": 3}"), &err));
  EXPECT_FALSE(append_eval_row(res, "net-1", "x", csv, &err));
  EXPECT_FALSE(append_eval_row(d.path + "/missing.json", "net-1", "x", csv, &err));
}

}  // namespace
}  // namespace jz
