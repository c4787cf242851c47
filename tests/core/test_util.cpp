// util/: the shared seed mixer, the clock and child processes.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <set>
#include <sstream>

#include "tests/support/test_support.h"
#include "util/clock.h"
#include "util/process.h"
#include "util/random.h"
#include "util/search_limits.h"

namespace jz {
namespace {

TEST(Random, Splitmix64MatchesTheReferenceStream) {
  // The first outputs of splitmix64 seeded with 0 (Vigna's reference implementation).
  uint64_t s = 0;
  EXPECT_EQ(splitmix64(s), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(s), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64(s), 0x06c45d188009454fULL);
}

TEST(Random, HashCombineSeparatesNeighbours) {
  std::set<uint64_t> seen;
  for (uint64_t a = 0; a < 64; ++a)
    for (uint64_t b = 0; b < 64; ++b) seen.insert(hash_combine(a, b));
  EXPECT_EQ(seen.size(), 64u * 64u);
  EXPECT_NE(hash_combine(1, 2), hash_combine(2, 1));
}

TEST(Clock, NowSecondsIsMonotonic) {
  double a = now_seconds(), b = now_seconds();
  EXPECT_LE(a, b);
}

TEST(Process, PipedChildEchoesLinesAndReportsItsExit) {
  Subprocess p;
  std::string err;
  ASSERT_TRUE(p.start_piped({"cat"}, false, &err)) << err;
  ASSERT_TRUE(p.write_line("hello"));
  std::string line;
  ASSERT_EQ(p.read_line(line, now_seconds() + 10), Subprocess::ReadStatus::LINE);
  EXPECT_EQ(line, "hello");
  EXPECT_EQ(p.read_line(line, now_seconds() + 0.05), Subprocess::ReadStatus::TIMEOUT);
  p.stop(5.0);  // cat ends on EOF
  EXPECT_FALSE(p.running());
  EXPECT_EQ(p.exit_status(), "exit code 0");
}

TEST(Process, PipedStartOfAMissingProgramFails) {
  Subprocess p;
  std::string err;
  EXPECT_FALSE(p.start_piped({"/no/such/program"}, false, &err));
  EXPECT_NE(err.find("/no/such/program"), std::string::npos) << err;
  EXPECT_FALSE(p.running());
}

TEST(Process, LoggedChildWritesItsLogAndIsStoppedBySigterm) {
  test::TempDir dir("process");
  Subprocess p;
  std::string err;
  ASSERT_TRUE(p.start_logged({"/bin/sh", "-c", "echo started; exec sleep 60"}, dir.file("log"), &err)) << err;
  EXPECT_GT(p.pid(), 0);
  double deadline = now_seconds() + 10;
  while (test::slurp(dir.file("log")).empty() && now_seconds() < deadline) usleep(10000);
  EXPECT_EQ(test::slurp(dir.file("log")), "started\n");
  EXPECT_TRUE(p.alive());
  EXPECT_GE(process_cpu_seconds(p.pid()), 0.0);
  p.stop(5.0);
  EXPECT_FALSE(p.alive());
  EXPECT_EQ(p.exit_status(), "killed by signal " + std::to_string(SIGTERM));
}

TEST(Process, LoggedChildExitCodeIsReported) {
  test::TempDir dir("process");
  Subprocess p;
  std::string err;
  ASSERT_TRUE(p.start_logged({"/bin/sh", "-c", "exit 3"}, dir.file("log"), &err)) << err;
  double deadline = now_seconds() + 10;
  while (p.alive() && now_seconds() < deadline) usleep(10000);
  EXPECT_EQ(p.exit_status(), "exit code 3");
  EXPECT_FALSE(p.start_logged({"/bin/true"}, "/no/such/dir/log", &err));
  EXPECT_NE(err.find("/no/such/dir/log"), std::string::npos) << err;
}

TEST(Process, OwnCpuAndMemoryAreReadable) {
  volatile double x = 0;
  for (int i = 0; i < 2000000; ++i) x = x + 1e-9 * i;
  EXPECT_GT(self_cpu_seconds(), 0.0);
  ProcessMemory m;
  ASSERT_TRUE(read_process_memory(m));
  EXPECT_GT(m.rss_kib, 0);
  EXPECT_GE(m.hwm_kib, m.rss_kib);
}


// The one time manager (alpha-beta and the network search): movetime, a clock, the last move before
// the control, a large increment, infinite, and a server's caps.
TEST(TimePlan, ClockMovetimeAndCaps) {
  SearchLimits l;
  EXPECT_EQ(plan_time(l, 0).target_ms(), 0);  // nothing: no bound
  l.time_ms[0] = 60000, l.inc_ms[0] = 1000;
  TimePlan p = plan_time(l, 0);
  EXPECT_EQ(p.soft_ms, 60000 / 30 + 750);
  EXPECT_EQ(p.hard_ms, 4 * p.soft_ms);
  EXPECT_EQ(plan_time(l, 1).target_ms(), 0);  // the other side's clock is not ours
  l.movestogo = 1;  // the last move before the control: all but the reserve
  p = plan_time(l, 0);
  EXPECT_EQ(p.soft_ms, 59900);
  EXPECT_EQ(p.hard_ms, 59900);
  l.movestogo = 0, l.time_ms[0] = 1000, l.inc_ms[0] = 2000;  // an increment larger than the clock
  p = plan_time(l, 0);
  EXPECT_EQ(p.soft_ms, 450);  // half of what is left after the 100-ms reserve
  EXPECT_EQ(p.hard_ms, 900);
  l.time_ms[0] = 50, l.inc_ms[0] = 0;  // nearly flagged: still a bound, inside the clock
  p = plan_time(l, 0);
  EXPECT_GE(p.soft_ms, 1);
  EXPECT_LE(p.hard_ms, 45);
  l.time_ms[0] = 60000, l.movetime_ms = 500;  // movetime and a clock: the tighter hard bound
  p = plan_time(l, 0);
  EXPECT_EQ(p.hard_ms, 500);
  l.time_ms[0] = 0;
  p = plan_time(l, 0);
  EXPECT_EQ(p.soft_ms, 0);
  EXPECT_EQ(p.target_ms(), 500);
  l.max_ms = 300;  // a server's cap
  EXPECT_EQ(plan_time(l, 0).hard_ms, 300);
  l.infinite = true;  // until stopped, but the cap holds
  EXPECT_EQ(plan_time(l, 0).hard_ms, 300);
  l.max_ms = 0;
  EXPECT_EQ(plan_time(l, 0).target_ms(), 0);
  SearchLimits n;
  EXPECT_EQ(n.node_bound(), 0u);
  n.nodes = 5000;
  EXPECT_EQ(n.node_bound(), 5000u);
  n.max_nodes = 800;
  EXPECT_EQ(n.node_bound(), 800u);
  n.nodes = 0;
  EXPECT_EQ(n.node_bound(), 800u);
}

}  // namespace
}  // namespace jz
