// The soak test's parts that do not need a process: the stall detector on fake counters and a fake
// clock, the watchdog thread on a fake progress source, /proc parsing, the memory fit and the verdict.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>

#include "mcts/stub_evaluator.h"
#include "selfplay/soak_monitor.h"
#include "selfplay/soak_report.h"
#include "selfplay/worker.h"
#include "tests/support/test_support.h"
#include "util/process.h"

namespace jz {
namespace {

TEST(SoakStallDetector, SteadyProgressIsNoStall) {
  StallDetector d(5.0);
  std::vector<uint64_t> c = {0, 0, 0};
  for (int t = 0; t <= 100; ++t) {
    for (auto& x : c) x += 3;
    EXPECT_TRUE(d.observe(t, c).empty()) << t;
  }
  EXPECT_EQ(d.stall_count(), 0);
  EXPECT_DOUBLE_EQ(d.max_idle(100.5), 0.5);
  EXPECT_DOUBLE_EQ(d.longest_stall(200), 0);
}

TEST(SoakStallDetector, ReportsOneStuckWorkerOnceAndItsEnd) {
  StallDetector d(5.0);
  std::vector<uint64_t> c = {0, 0};
  d.observe(0, c);
  c = {1, 1};
  d.observe(2, c);  // worker 1's last progress
  c = {2, 1};
  EXPECT_TRUE(d.observe(6, c).empty());  // idle 4 s
  c = {3, 1};
  EXPECT_TRUE(d.observe(7, c).empty());  // exactly the threshold is not more than it
  EXPECT_DOUBLE_EQ(d.max_idle(7), 5.0);
  c = {4, 1};
  std::vector<StallEvent> ev = d.observe(7.5, c);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].worker, 1);
  EXPECT_DOUBLE_EQ(ev[0].start, 2);
  EXPECT_DOUBLE_EQ(ev[0].duration, 5.5);
  EXPECT_FALSE(ev[0].ended);
  c = {5, 1};
  EXPECT_TRUE(d.observe(9, c).empty());  // still the same stall: not reported again
  EXPECT_EQ(d.stall_count(), 1);
  EXPECT_DOUBLE_EQ(d.longest_stall(9), 7);  // ongoing, counted up to now
  c = {6, 2};
  ev = d.observe(10, c);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_TRUE(ev[0].ended);
  EXPECT_DOUBLE_EQ(ev[0].duration, 8);
  EXPECT_DOUBLE_EQ(d.longest_stall(100), 8);  // ended: no longer grows
  // A second stall of the same worker counts again.
  c = {7, 2};
  d.observe(12, c);
  c = {8, 2};
  ev = d.observe(16, c);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].worker, 1);
  EXPECT_EQ(d.stall_count(), 2);
  std::vector<StallEvent> all = d.stalls(17);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_TRUE(all[0].ended);
  EXPECT_FALSE(all[1].ended);
  EXPECT_DOUBLE_EQ(all[1].duration, 7);
}

TEST(SoakStallDetector, WorkersThatAppearLaterStartTheirClockThen) {
  StallDetector d(1.0);
  d.observe(0, {5});
  EXPECT_TRUE(d.observe(0.5, {6, 0}).empty());
  EXPECT_TRUE(d.observe(1.4, {7, 0}).empty());  // worker 1 idle 0.9 s since it appeared
  std::vector<StallEvent> ev = d.observe(1.6, {8, 0});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].worker, 1);
  EXPECT_DOUBLE_EQ(ev[0].start, 0.5);
}

TEST(SoakStallDetector, EveryWorkerStuckIsEveryWorkerReported) {
  StallDetector d(2.0);
  d.observe(0, {1, 1, 1, 1});
  EXPECT_EQ(d.observe(3, {1, 1, 1, 1}).size(), 4u);
  EXPECT_EQ(d.stall_count(), 4);
}

TEST(SoakWatchdog, FindsAFrozenCounterOnItsOwnThread) {
  std::atomic<uint64_t> moving{0};
  std::vector<StallEvent> seen;
  std::mutex seen_mu;
  Watchdog w(
      [&] {
        return std::vector<uint64_t>{moving++, 42};
      },
      0.2, 0.02,
      [&](const StallEvent& e) {
        std::lock_guard<std::mutex> lock(seen_mu);
        seen.push_back(e);
      });
  w.start();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (w.stall_count() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  w.stop();
  ASSERT_EQ(w.stall_count(), 1);
  std::vector<StallEvent> stalls = w.stalls();
  EXPECT_EQ(stalls[0].worker, 1);  // the moving counter never stalls
  EXPECT_GT(w.longest_stall(), 0.2);
  double frozen = w.longest_stall();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(w.longest_stall(), frozen);  // stopped: the figures no longer move
  std::lock_guard<std::mutex> lock(seen_mu);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].worker, 1);
}

// The counters the watchdog reads: every play thread moves its own, once per evaluated round and once
// per move played, so their sum is exactly rounds + moves (no resignations in these games).
TEST(SoakWorkerProgress, EveryThreadCountsRoundsAndMoves) {
  namespace fs = std::filesystem;
  test::TempDir tmp("soak_progress");
  std::string dir = tmp.path;
  SelfPlayOptions o;
  o.games_per_thread = 2;
  o.leaves_per_game = 2;
  o.full_simulations = 8;
  o.cheap_simulations = 4;
  o.max_plies = 30;
  o.resign = false;
  o.seed = 3;
  {
    ChunkWriter writer(dir, "p", 4);
    SelfPlayWorker w(o, std::make_shared<MaterialEvaluator>(1.0f), writer);
    EXPECT_TRUE(w.thread_progress().empty());
    w.start(3);
    auto all_moved = [&] {
      std::vector<uint64_t> p = w.thread_progress();
      return p.size() == 3 && std::all_of(p.begin(), p.end(), [](uint64_t x) { return x > 0; });
    };
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!all_moved() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    w.stop();
    w.join();
    EXPECT_TRUE(all_moved());
    std::vector<uint64_t> p = w.thread_progress();
    SelfPlayStats s = w.stats();
    EXPECT_EQ(std::accumulate(p.begin(), p.end(), uint64_t(0)), s.moves + s.eval_calls);
  }
}

TEST(SoakMemory, ParsesProcStatus) {
  ProcessMemory m;
  std::string text = "Name:\tjanggi-zero\nVmPeak:\t 900000 kB\nVmHWM:\t  524288 kB\nVmRSS:\t  262144 kB\nThreads: 9\n";
  ASSERT_TRUE(parse_proc_status(text, m));
  EXPECT_EQ(m.rss_kib, 262144);
  EXPECT_EQ(m.hwm_kib, 524288);
  EXPECT_FALSE(parse_proc_status("Name:\tx\nVmRSS:\t 10 kB\n", m));  // no VmHWM
  EXPECT_FALSE(parse_proc_status("", m));
  ASSERT_TRUE(read_process_memory(m));  // this process, from the real /proc
  EXPECT_GT(m.rss_kib, 0);
  EXPECT_GE(m.hwm_kib, m.rss_kib);
}

TEST(SoakReport, LeastSquaresLine) {
  LineFit f = fit_line({0, 1, 2, 3}, {3, 5, 7, 9});
  EXPECT_DOUBLE_EQ(f.slope, 2);
  EXPECT_DOUBLE_EQ(f.intercept, 3);
  f = fit_line({0, 1, 2, 3}, {1, 3, 1, 3});  // noisy flat: slope 0.4 by least squares
  EXPECT_NEAR(f.slope, 0.4, 1e-12);
  EXPECT_EQ(fit_line({5}, {7}).slope, 0);
  EXPECT_EQ(fit_line({2, 2}, {1, 9}).slope, 0);
}

std::vector<SoakSample> samples(std::initializer_list<std::pair<double, double>> t_rss) {
  std::vector<SoakSample> out;
  for (auto [t, rss] : t_rss) {
    SoakSample s;
    s.elapsed = t;
    s.rss_mib = rss;
    s.hwm_mib = rss + 1;
    out.push_back(s);
  }
  return out;
}

TEST(SoakReport, WarmUpGrowthIsNotCounted) {
  SoakSummary s;
  s.warmup_seconds = 20;
  summarize_memory(samples({{0, 100}, {10, 400}, {20, 500}, {30, 501}, {40, 499}, {50, 500}}), s);
  EXPECT_EQ(s.post_warmup_samples, 4);
  EXPECT_TRUE(s.growth_measured);
  EXPECT_DOUBLE_EQ(s.rss_first_mib, 100);
  EXPECT_DOUBLE_EQ(s.rss_start_mib, 500);
  EXPECT_DOUBLE_EQ(s.rss_end_mib, 500);
  EXPECT_DOUBLE_EQ(s.rss_max_mib, 501);
  EXPECT_DOUBLE_EQ(s.hwm_mib, 501);
  EXPECT_NEAR(s.growth_mib, -0.6, 1e-9);  // slope -0.02 MiB/s over 30 s
}

TEST(SoakReport, SteadyGrowthIsFittedPerHour) {
  SoakSummary s;
  s.warmup_seconds = 10;
  summarize_memory(samples({{0, 50}, {10, 100}, {20, 110}, {30, 120}, {40, 130}}), s);
  EXPECT_NEAR(s.growth_mib_per_hour, 3600, 1e-6);
  EXPECT_NEAR(s.growth_mib, 30, 1e-9);
  s.max_growth_mib = 64;
  s.games = s.chunk_games = 10;
  decide_verdict(s);
  EXPECT_TRUE(s.pass);
  s.max_growth_mib = 20;
  decide_verdict(s);
  EXPECT_FALSE(s.pass);
  ASSERT_EQ(s.reasons.size(), 1u);
  EXPECT_NE(s.reasons[0].find("memory grew 30.0 MiB"), std::string::npos) << s.reasons[0];
}

TEST(SoakReport, TooFewSamplesAfterWarmUpAreNotJudged) {
  SoakSummary s;
  s.warmup_seconds = 30;
  s.max_growth_mib = 1;
  s.games = s.chunk_games = 3;
  summarize_memory(samples({{0, 50}, {10, 100}, {20, 500}, {30, 900}, {40, 1300}}), s);
  EXPECT_FALSE(s.growth_measured);
  decide_verdict(s);
  EXPECT_TRUE(s.pass);  // a note, not a failure
  ASSERT_EQ(s.reasons.size(), 1u);
  EXPECT_NE(s.reasons[0].find("not measured"), std::string::npos);
}

TEST(SoakReport, EachFailureFailsTheVerdict) {
  auto base = [] {
    SoakSummary s;
    s.warmup_seconds = 0;
    s.max_growth_mib = 64;
    s.games = s.chunk_games = 5;
    summarize_memory(samples({{0, 10}, {1, 10}, {2, 10}}), s);
    return s;
  };
  SoakSummary s = base();
  decide_verdict(s);
  EXPECT_TRUE(s.pass);
  EXPECT_TRUE(s.reasons.empty());
  s = base();
  s.stalls = 1;
  s.longest_stall = 7;
  s.stall_threshold = 5;
  decide_verdict(s);
  EXPECT_FALSE(s.pass);
  s = base();
  s.corrupt_chunks = 1;
  s.first_corrupt = "bad crc";
  decide_verdict(s);
  EXPECT_FALSE(s.pass);
  s = base();
  s.chunk_games = 4;  // a finished game missing from the chunks
  decide_verdict(s);
  EXPECT_FALSE(s.pass);
  s = base();
  s.games = s.chunk_games = 0;
  decide_verdict(s);
  EXPECT_FALSE(s.pass);
  s = base();
  s.error = "disk full";
  decide_verdict(s);
  EXPECT_FALSE(s.pass);
  s = base();
  s.interrupted = true;  // a note only
  decide_verdict(s);
  EXPECT_TRUE(s.pass);
}

TEST(SoakReport, SummaryJsonListsStallsAndItsVersion) {
  SoakSummary s;
  s.threads = 4;
  s.games_per_thread = 8;
  s.games = s.chunk_games = 2;
  s.stalls = 150;
  for (int i = 0; i < 150; ++i) s.stall_events.push_back(StallEvent{i % 4, 10.0 + i, 6.5, i % 2 == 0});
  decide_verdict(s);
  nlohmann::json j = nlohmann::json::parse(soak_summary_json(s));
  EXPECT_EQ(j["version"], SOAK_FORMAT_VERSION);
  EXPECT_EQ(j["concurrent_games"], 32);
  EXPECT_EQ(j["verdict"], "fail");
  ASSERT_EQ(j["stalls"]["events"].size(), 100u);
  EXPECT_EQ(j["stalls"]["events_not_listed"], 50);
  EXPECT_EQ(j["stalls"]["events"][3]["thread"], 3);
  EXPECT_DOUBLE_EQ(j["stalls"]["events"][3]["at_seconds"].get<double>(), 13.0);
  EXPECT_DOUBLE_EQ(j["stalls"]["events"][3]["duration_seconds"].get<double>(), 6.5);
  EXPECT_EQ(j["stalls"]["events"][3]["ended"], false);
}

TEST(SoakReport, CsvRowMatchesItsHeader) {
  auto count = [](const std::string& line) { return std::count(line.begin(), line.end(), ',') + 1; };
  SoakSample x;
  x.elapsed = 5;
  x.games = 7;
  std::string row = soak_csv_row(x);
  EXPECT_EQ(count(row), count(soak_csv_header()));
  EXPECT_EQ(row.rfind("1,5.00,", 0), 0u) << row;
  EXPECT_EQ(soak_csv_header().rfind("version,elapsed_s,", 0), 0u);
}

}  // namespace
}  // namespace jz
