// Generated batch scripts: Slurm directives, worker ids, job control, option checks.
#include <gtest/gtest.h>

#include "cluster/slurm_scripts.h"

namespace jz {
namespace {

LaunchOptions base() {
  LaunchOptions o;
  o.run_dir = "/shared/run one";
  o.config = "/shared/run one/config.yaml";
  o.binary = "/opt/jz/janggi-zero";
  o.workers = 8;
  o.cpus_per_worker = 4;
  return o;
}

bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

TEST(SlurmTime, Formats) {
  long t = 0;
  std::string err;
  ASSERT_TRUE(parse_slurm_time("90", &t, &err));
  EXPECT_EQ(t, 90 * 60);
  ASSERT_TRUE(parse_slurm_time("2:30", &t, &err));
  EXPECT_EQ(t, 150);
  ASSERT_TRUE(parse_slurm_time("1:00:05", &t, &err));
  EXPECT_EQ(t, 3605);
  ASSERT_TRUE(parse_slurm_time("2-3", &t, &err));
  EXPECT_EQ(t, 2 * 86400 + 3 * 3600);
  ASSERT_TRUE(parse_slurm_time("1-00:30", &t, &err));
  EXPECT_EQ(t, 86400 + 1800);
  ASSERT_TRUE(parse_slurm_time("1-00:00:10", &t, &err));
  EXPECT_EQ(t, 86410);
  ASSERT_TRUE(parse_slurm_time("UNLIMITED", &t, &err));
  EXPECT_EQ(t, 0);
  for (const char* bad : {"", "abc", "1:2:3:4", "-5", "1-", "1:", ":5", "0", "1.5", "1-2-3", "00:00:00"})
    EXPECT_FALSE(parse_slurm_time(bad, &t, &err)) << bad;
  EXPECT_TRUE(has(err, "--time"));
}

TEST(SlurmTime, InnerLimitLeavesRoomToFlush) {
  EXPECT_EQ(inner_time_limit(0), 0);
  EXPECT_EQ(inner_time_limit(120), 90);                     // short jobs: a quarter
  EXPECT_EQ(inner_time_limit(3600), 3600 - 360);            // a tenth
  EXPECT_EQ(inner_time_limit(300), 300 - 60);               // at least a minute
  EXPECT_EQ(inner_time_limit(86400 * 2), 86400 * 2 - 600);  // at most ten minutes
  for (long t : {1L, 2L, 59L, 61L, 239L, 240L, 100000L}) {
    EXPECT_GE(inner_time_limit(t), 1);
    EXPECT_LT(inner_time_limit(t), t + (t == 1));
  }
}

TEST(ShellQuote, Words) {
  EXPECT_EQ(shell_quote("/a/b-c_d.e"), "/a/b-c_d.e");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("$HOME"), "'$HOME'");
  EXPECT_EQ(shell_quote(""), "''");
}

TEST(Scripts, SelfplayArray) {
  LaunchOptions o = base();
  o.gpus_per_worker = 1;
  o.partition = "gpu";
  o.time = "1-00:00:00";
  o.sbatch_args = {"--account=abc", "--mem=8G"};
  std::string err;
  ASSERT_TRUE(check_launch_options(o, &err)) << err;
  auto scripts = make_job_scripts(o);
  ASSERT_EQ(scripts.size(), 2u);  // no evaluator unless asked
  const std::string& s = scripts[0].text;
  EXPECT_EQ(scripts[0].role, "selfplay");
  EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
  EXPECT_TRUE(has(s, "#SBATCH --array=0-7\n"));
  EXPECT_TRUE(has(s, "#SBATCH --cpus-per-task=4\n"));
  EXPECT_TRUE(has(s, "#SBATCH --gres=gpu:1\n"));
  EXPECT_TRUE(has(s, "#SBATCH --partition=gpu\n"));
  EXPECT_TRUE(has(s, "#SBATCH --time=1-00:00:00\n"));
  EXPECT_TRUE(has(s, "#SBATCH --requeue\n"));
  EXPECT_TRUE(has(s, "#SBATCH --signal=B:USR1@60\n"));
  EXPECT_TRUE(has(s, "#SBATCH --account=abc\n#SBATCH --mem=8G\n"));
  EXPECT_TRUE(has(s, "#SBATCH --output=/shared/run one/slurm/logs/selfplay-%A_%a.log\n"));
  EXPECT_TRUE(has(s, "RUN='/shared/run one'\n"));
  EXPECT_TRUE(has(s, "LIMIT=" + std::to_string(86400 - 600) + " "));
  EXPECT_TRUE(has(s, "KILL_AFTER=30\n"));
  EXPECT_TRUE(has(s, "WORKER=\"w${SLURM_ARRAY_TASK_ID"));
  EXPECT_TRUE(has(s, "THREADS=\"${SLURM_CPUS_PER_TASK:-1}\""));
  EXPECT_TRUE(has(s, "SPCONFIG='/shared/run one/config.yaml'\n"));  // none given: the run's config
  EXPECT_TRUE(has(s, "selfplay --config \"$SPCONFIG\" --models-dir \"$RUN/models\""));
  EXPECT_TRUE(has(s, "--output-dir \"$RUN/games\" --threads \"$THREADS\" --worker-id \"$WORKER\""));
  EXPECT_TRUE(has(s, "after \"$lim\" kill -USR1 $$"));
  EXPECT_FALSE(has(s, "timeout "));  // it would forward scancel's TERM a second time
  EXPECT_TRUE(has(s, "scontrol requeue"));
  // #SBATCH lines must all come before the first command, or sbatch ignores them.
  size_t last_directive = s.rfind("#SBATCH"), first_command = s.find("set -u");
  EXPECT_LT(last_directive, first_command);
}

TEST(Scripts, TrainerAndEvaluator) {
  LaunchOptions o = base();
  o.trainer_gpus = 2;
  o.trainer_cpus = 6;
  o.evaluator = true;
  o.eval_sims = 200;
  auto scripts = make_job_scripts(o);
  ASSERT_EQ(scripts.size(), 3u);
  const std::string& t = scripts[1].text;
  EXPECT_EQ(scripts[1].role, "trainer");
  EXPECT_FALSE(has(t, "--array"));
  EXPECT_TRUE(has(t, "#SBATCH --gres=gpu:2\n"));
  EXPECT_TRUE(has(t, "#SBATCH --cpus-per-task=6\n"));
  EXPECT_FALSE(has(t, "#SBATCH --time"));  // none given: the partition's default, no timeout inside
  EXPECT_TRUE(has(t, "LIMIT=0 "));
  EXPECT_TRUE(has(t, "KILL_AFTER=30\n"));
  EXPECT_TRUE(has(t, "train --config \"$CONFIG\" --run-dir \"$RUN\" --resume --trainer-only\n"));
  EXPECT_TRUE(has(t, "#SBATCH --output=/shared/run one/slurm/logs/trainer-%j.log\n"));
  const std::string& e = scripts[2].text;
  EXPECT_EQ(scripts[2].role, "evaluator");
  EXPECT_TRUE(has(e, "#SBATCH --gres=gpu:2\n"));  // as the trainer unless --eval-gpus
  EXPECT_TRUE(has(e, "SIMS=,sims=200\n"));
  EXPECT_TRUE(has(e, "evaluate --player1"));
  EXPECT_TRUE(has(e, "--out \"$RUN/eval\""));
  EXPECT_TRUE(has(e, "OPPONENT=previous\n"));
  o.eval_gpus = 0;
  o.eval_opponent = "alphabeta:level=easy";
  auto again = make_job_scripts(o);
  EXPECT_FALSE(has(again[2].text, "--gres"));
  EXPECT_TRUE(has(again[2].text, "OPPONENT=alphabeta:level=easy\n"));
}

TEST(Scripts, RejectsBadOptions) {
  std::string err;
  LaunchOptions o = base();
  o.run_dir = "relative/run";
  EXPECT_FALSE(check_launch_options(o, &err));
  o = base();
  o.workers = 0;
  EXPECT_FALSE(check_launch_options(o, &err));
  o = base();
  o.time = "soon";
  EXPECT_FALSE(check_launch_options(o, &err));
  EXPECT_TRUE(has(err, "soon"));
  o = base();
  o.partition = "gpu large";
  EXPECT_FALSE(check_launch_options(o, &err));
  o = base();
  o.sbatch_args = {"account=abc"};
  EXPECT_FALSE(check_launch_options(o, &err));
  o = base();
  o.sbatch_args = {"--mem=1G\nrm -rf /"};
  EXPECT_FALSE(check_launch_options(o, &err));
  o = base();
  o.run_dir = "/a,b";
  EXPECT_TRUE(check_launch_options(o, &err));
  o.evaluator = true;  // player specs are comma-separated
  EXPECT_FALSE(check_launch_options(o, &err));
  o = base();
  o.binary = "/bin/x\ny";
  EXPECT_FALSE(check_launch_options(o, &err));
}

}  // namespace
}  // namespace jz
