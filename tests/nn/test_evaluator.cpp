// Network and batching evaluators: masking, fusing, batching under many threads, the cache.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>

#include "nn/batching_evaluator.h"
#include "nn/checkpoint.h"
#include "nn/network_evaluator.h"
#include "positions.h"

using namespace jz;

namespace {

struct Inputs {
  std::vector<Position> pos;
  std::vector<MoveList> moves;
  std::vector<EvalInput> in;
  explicit Inputs(std::vector<Position> p) : pos(std::move(p)), moves(pos.size()) {
    for (size_t i = 0; i < pos.size(); ++i) generate_legal(pos[i], moves[i]);
    for (size_t i = 0; i < pos.size(); ++i) in.push_back({&pos[i], &moves[i]});
  }
};

std::shared_ptr<NetworkEvaluator> tiny_evaluator(bool fuse = true, const std::string& precision = "fp32") {
  static std::string path = [] {
    std::string p = "/tmp/jz_nn_eval_test_" + std::to_string(getpid()) + ".jzm";
    ModelConfig c;
    ModelConfig::parse("4x32", c, nullptr);
    create_random_network(p, c, 7);
    return p;
  }();
  NetworkOptions o;
  o.device = "cpu";
  o.fuse = fuse;
  o.precision = precision;
  return std::shared_ptr<NetworkEvaluator>(NetworkEvaluator::from_file(path, o));
}

void expect_close(const Evaluation& a, const Evaluation& b, float tol) {
  ASSERT_EQ(a.policy.size(), b.policy.size());
  for (size_t i = 0; i < a.policy.size(); ++i) ASSERT_NEAR(a.policy[i], b.policy[i], tol) << i;
  for (int j = 0; j < 3; ++j) ASSERT_NEAR(a.wdl[j], b.wdl[j], tol);
  ASSERT_NEAR(a.margin, b.margin, tol * 100);
}

bool identical(const Evaluation& a, const Evaluation& b) {
  return a.policy == b.policy && a.wdl[0] == b.wdl[0] && a.wdl[1] == b.wdl[1] && a.wdl[2] == b.wdl[2] &&
         a.margin == b.margin;
}

// Fails every call (for error propagation).
class FailingEvaluator : public Evaluator {
 public:
  void evaluate(const EvalInput*, int, Evaluation*) override { throw std::runtime_error("backend down"); }
  std::string id() const override { return "failing"; }
};

}  // namespace

TEST(NetworkEvaluator, PolicyIsADistributionOverLegalMoves) {
  auto ev = tiny_evaluator();
  EXPECT_NE(ev->id().find('@'), std::string::npos);
  Inputs in(test::random_positions(64, 1));
  std::vector<Evaluation> out(in.in.size());
  ev->evaluate(in.in.data(), int(in.in.size()), out.data());
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(int(out[i].policy.size()), in.moves[i].size);
    double sum = 0;
    for (float p : out[i].policy) {
      EXPECT_GE(p, 0.0f);
      sum += p;
    }
    EXPECT_NEAR(sum, 1.0, 1e-4);
    EXPECT_NEAR(out[i].wdl[0] + out[i].wdl[1] + out[i].wdl[2], 1.0, 1e-5);
  }
  // One at a time gives the same results (up to batch-size rounding).
  for (size_t i = 0; i < 8; ++i) {
    Evaluation one;
    ev->evaluate(&in.in[i], 1, &one);
    expect_close(one, out[i], 1e-4f);
  }
}

TEST(NetworkEvaluator, BatchSizesAreRoundedUpToFewShapes) {
  std::set<int> shapes;
  for (int n = 1; n <= 256; ++n) {
    int p = padded_batch_size(n, 256);
    EXPECT_GE(p, n);
    EXPECT_LE(p, 256);
    EXPECT_LT(8 * (p - n), n) << n;  // under 12.5% padding
    if (n <= 16) {
      EXPECT_EQ(p, n);
    }
    EXPECT_EQ(padded_batch_size(p, 256), p) << n;  // a padded size is its own shape
    shapes.insert(p);
  }
  EXPECT_EQ(shapes.size(), 48u);
  EXPECT_EQ(padded_batch_size(97, 100), 100);  // never above the maximum
  EXPECT_EQ(padded_batch_size(17, 256), 18);
}

TEST(NetworkEvaluator, PaddedBatchesGiveEachPositionItsOwnResult) {
  auto ev = tiny_evaluator();
  Inputs in(test::random_positions(37, 4));  // runs as 40: three padding rows
  std::vector<Evaluation> out(in.in.size());
  ev->evaluate(in.in.data(), int(in.in.size()), out.data());
  for (size_t i = 0; i < out.size(); i += 6) {
    Evaluation one;
    ev->evaluate(&in.in[i], 1, &one);
    expect_close(one, out[i], 1e-4f);
  }
  Evaluation last;
  ev->evaluate(&in.in.back(), 1, &last);
  expect_close(last, out.back(), 1e-4f);
}

TEST(NetworkEvaluator, FusedBatchNormMatchesUnfused) {
  Inputs in(test::random_positions(16, 2));
  std::vector<Evaluation> a(16), b(16);
  tiny_evaluator(true)->evaluate(in.in.data(), 16, a.data());
  tiny_evaluator(false)->evaluate(in.in.data(), 16, b.data());
  for (int i = 0; i < 16; ++i) expect_close(a[i], b[i], 1e-4f);
}

TEST(NetworkEvaluator, Bf16RunsAndStaysNearFp32) {
  std::shared_ptr<NetworkEvaluator> bf;
  try {
    bf = tiny_evaluator(true, "bf16");
  } catch (const std::runtime_error& e) {
    GTEST_SKIP() << e.what();
  }
  Inputs in(test::random_positions(8, 3));
  std::vector<Evaluation> a(8), b(8);
  bf->evaluate(in.in.data(), 8, a.data());
  tiny_evaluator()->evaluate(in.in.data(), 8, b.data());
  for (int i = 0; i < 8; ++i) {
    double sum = 0;
    for (float p : a[i].policy) sum += p;
    EXPECT_NEAR(sum, 1.0, 1e-3);
    expect_close(a[i], b[i], 0.1f);
  }
}

TEST(NetworkEvaluator, RejectsBadOptions) {
  NetworkOptions o;
  o.device = "tpu";
  EXPECT_THROW(tiny_evaluator(true, "fp8"), std::runtime_error);
  EXPECT_THROW(parse_device("tpu"), std::runtime_error);
  EXPECT_THROW(NetworkEvaluator::from_file("/nonexistent/net.jzm", o), std::runtime_error);
}

TEST(BatchingEvaluator, EachCallerGetsItsOwnResultUnderManyThreads) {
  auto net = tiny_evaluator();
  Inputs in(test::random_positions(96, 4));
  const int n = int(in.in.size());
  std::vector<Evaluation> direct(n);
  for (int i = 0; i < n; ++i) net->evaluate(&in.in[i], 1, &direct[i]);

  BatchingOptions bo;
  bo.max_batch = 16;
  bo.max_wait_us = 200;
  bo.server_threads = 2;
  BatchingEvaluator batching(net, bo);
  const int threads = 12, rounds = 6;
  std::atomic<int> bad{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int r = 0; r < rounds; ++r) {
        // A random slice of the positions, in chunks of random size.
        int start = int(rng() % n), len = 1 + int(rng() % 7);
        std::vector<EvalInput> mine;
        std::vector<int> which;
        for (int k = 0; k < len; ++k) {
          which.push_back((start + k * 5) % n);
          mine.push_back(in.in[which.back()]);
        }
        std::vector<Evaluation> out(len);
        batching.evaluate(mine.data(), len, out.data());
        for (int k = 0; k < len; ++k) {
          const Evaluation& a = out[k];
          const Evaluation& b = direct[which[k]];
          bool ok = a.policy.size() == b.policy.size() && std::abs(a.wdl[0] - b.wdl[0]) < 1e-4f &&
                    std::abs(a.margin - b.margin) < 1e-2f;
          for (size_t j = 0; ok && j < a.policy.size(); ++j) ok = std::abs(a.policy[j] - b.policy[j]) < 1e-4f;
          if (!ok) ++bad;
        }
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(bad.load(), 0);
  EvalStats s = batching.stats();
  EXPECT_EQ(s.evaluated, s.requests);
  EXPECT_GT(s.batches, 0u);
  EXPECT_LE(s.avg_batch(), 16.0);
  EXPECT_GT(s.avg_batch(), 1.0);  // 12 threads: batches do fill
}

TEST(BatchingEvaluator, CacheHitsReturnIdenticalResults) {
  auto net = tiny_evaluator();
  Inputs in(test::random_positions(40, 6));
  const int n = int(in.in.size());
  BatchingOptions bo;
  bo.max_batch = 8;
  bo.max_wait_us = 100;
  bo.cache_entries = 1 << 12;
  BatchingEvaluator batching(net, bo);
  std::vector<Evaluation> first(n), second(n);
  batching.evaluate(in.in.data(), n, first.data());
  EvalStats s1 = batching.stats();
  EXPECT_EQ(s1.cache_hits, 0u);
  batching.evaluate(in.in.data(), n, second.data());
  EvalStats s2 = batching.stats();
  EXPECT_EQ(s2.cache_hits, uint64_t(n));
  EXPECT_EQ(s2.evaluated, uint64_t(n));
  for (int i = 0; i < n; ++i) EXPECT_TRUE(identical(first[i], second[i])) << i;
  EXPECT_NEAR(batching.cache()->hit_rate(), 0.5, 1e-9);
  batching.reset_stats();
  EXPECT_EQ(batching.stats().requests, 0u);
}

TEST(BatchingEvaluator, BackendErrorsReachTheCaller) {
  BatchingEvaluator batching(std::make_shared<FailingEvaluator>(), BatchingOptions{});
  Inputs in(test::random_positions(3, 8));
  std::vector<Evaluation> out(3);
  EXPECT_THROW(batching.evaluate(in.in.data(), 3, out.data()), std::runtime_error);
}

TEST(EvalCache, IsBoundedAndChecksMoveCount) {
  EvalCache cache(100);
  Evaluation e;
  e.policy = {0.25f, 0.75f};
  for (uint64_t k = 0; k < 10000; ++k) cache.insert(k * 7919, e);
  EXPECT_GE(cache.capacity(), 100u);
  Evaluation out;
  EXPECT_TRUE(cache.lookup(9999 * 7919, 2, out));
  EXPECT_EQ(out.policy, e.policy);
  EXPECT_FALSE(cache.lookup(9999 * 7919, 3, out));
  EXPECT_FALSE(cache.lookup(12345678901ULL, 2, out));
}

TEST(BatchingEvaluator, GoesAtOnceWhenAllClientsWait) {
  auto net = tiny_evaluator();
  Inputs in(test::random_positions(2, 9));
  BatchingOptions bo;
  bo.max_batch = 64;
  bo.max_wait_us = 1000000;  // 1 s: a batch would only wait this long if the client count were ignored
  bo.clients = 2;
  BatchingEvaluator batching(net, bo);
  std::vector<std::thread> pool;
  for (int t = 0; t < 2; ++t)
    pool.emplace_back([&, t] {
      for (int r = 0; r < 5; ++r) {
        Evaluation out;
        batching.evaluate(&in.in[t], 1, &out);
      }
    });
  for (auto& th : pool) th.join();
  EvalStats s = batching.stats();
  EXPECT_EQ(s.evaluated, 10u);
  EXPECT_DOUBLE_EQ(s.avg_batch(), 2.0);  // both clients' positions in every batch
  EXPECT_LT(s.avg_wait_us(), 500000.0);
}

TEST(NetworkEvaluator, AXiangqiNetworkPlaysXiangqiOnlyAndSaysWhichGames) {
  std::string path = "/tmp/jz_nn_eval_test_xq_" + std::to_string(getpid()) + ".jzm";
  ModelConfig c;
  ASSERT_TRUE(ModelConfig::parse("2x16", c, nullptr));
  c.game = GameKind::XIANGQI;
  create_random_network(path, c, 9);
  NetworkOptions o;
  o.device = "cpu";
  o.precision = "fp32";
  auto xq = std::shared_ptr<NetworkEvaluator>(NetworkEvaluator::from_file(path, o));
  std::remove(path.c_str());
  EXPECT_EQ(xq->game(), GameKind::XIANGQI);
  Inputs in(test::random_positions(32, 4, GameKind::XIANGQI));
  std::vector<Evaluation> out(in.in.size());
  xq->evaluate(in.in.data(), int(in.in.size()), out.data());
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(int(out[i].policy.size()), in.moves[i].size);
    double sum = 0;
    for (float p : out[i].policy) sum += p;
    EXPECT_NEAR(sum, 1.0, 1e-4);
  }
  std::string why;
  EXPECT_TRUE(network_accepts(*xq, in.pos[0], &why)) << why;
  // Each network refuses the other game's positions, naming both games.
  Inputs janggi(test::random_positions(2, 4));
  EXPECT_FALSE(network_accepts(*xq, janggi.pos[0], &why));
  EXPECT_NE(why.find("plays xiangqi, not janggi"), std::string::npos) << why;
  auto jg = tiny_evaluator();
  EXPECT_FALSE(network_accepts(*jg, in.pos[0], &why));
  EXPECT_NE(why.find("plays janggi, not xiangqi"), std::string::npos) << why;
  // Past the front-ends' check, the evaluator itself refuses instead of reading the wrong policy map.
  Evaluation e;
  EXPECT_THROW(xq->evaluate(&janggi.in[0], 1, &e), std::invalid_argument);
}
