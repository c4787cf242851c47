// `janggi-zero bench nn`: network throughput. Raw = encode + forward at a fixed batch size;
// direct = NetworkEvaluator::evaluate (adds the masked softmax); batching = the same network behind a
// BatchingEvaluator fed by T submitting threads. Ratios are against raw measured in the same run.
#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/movegen.h"
#include "core/random_play.h"
#include "core/rules.h"
#include "core/setups.h"
#include "nn/batching_evaluator.h"
#include "nn/checkpoint.h"
#include "nn/network_evaluator.h"
#include "nn/torch_compat.h"
#include "util/log.h"

namespace jz::app {
namespace {

struct BenchNnOpts {
  int blocks = 6, filters = 64, batch = 32, threads = 2, servers = 1, wait_us = 2000;
  std::string device = "cpu", model;
  bool bf16 = false, sweep = false, no_fuse = false;
  double seconds = 2;
  // --sweep: network sizes and batch sizes of the table; --csv: the table as CSV too.
  std::vector<std::string> sizes{"4x32", "6x64", "10x128"};
  std::vector<int> batches{1, 8, 32, 128};
  std::string csv;
};

// Positions along random games (with history), with their legal moves.
struct Pool {
  std::vector<Position> pos;
  std::vector<MoveList> moves;
  std::vector<EvalInput> in;
  explicit Pool(int n) : moves(n) {
    std::mt19937 rng(1);
    while (int(pos.size()) < n) {
      Position p;
      std::string err;
      p.set_fen(setup_fen(int(rng() % SETUP_NB)), Ruleset::JANGGI, &err);
      random_walk(p, int(rng() % 100), rng, true);
      if (count_legal(p) > 0) pos.push_back(p);
    }
    for (int i = 0; i < n; ++i) generate_legal(pos[i], moves[i]);
    for (int i = 0; i < n; ++i) in.push_back({&pos[i], &moves[i]});
  }
};

struct Result {
  double raw = 0, direct = 0, batching = 0, avg_batch = 0, wait_us = 0;
};

// Runs fn(i) (which handles `batch` positions) until `seconds` pass; returns positions per second.
// A warm-up of a quarter of that (at most 0.5 s) first: the first calls of a shape pay for its kernels'
// set-up and the allocator's first growth, which made short cells jump between runs.
template <typename Fn>
double timed(double seconds, int batch, Fn fn) {
  double warm_end = now_seconds() + std::min(0.5, seconds / 4);
  int i = 0;
  do fn(i++);
  while (now_seconds() < warm_end);
  double t0 = now_seconds(), t = t0;
  long done = 0;
  for (; t - t0 < seconds || done < 2 * batch; ++i) {
    fn(i);
    done += batch;
    t = now_seconds();
  }
  return done / (t - t0);
}

Result measure(std::shared_ptr<NetworkEvaluator> net, const Pool& pool, const BenchNnOpts& o) {
  Result r;
  const int n = int(pool.in.size()), b = o.batch;
  std::vector<float> buf(size_t(b) * INPUT_SIZE);
  std::vector<const Position*> ptr(b);
  r.raw = timed(o.seconds, b, [&](int i) {
    for (int k = 0; k < b; ++k) ptr[k] = &pool.pos[(i * b + k) % n];
    encode_batch(ptr.data(), b, buf.data());
    torch::Tensor p, w, m;
    net->forward_raw(buf.data(), b, p, w, m);
  });
  std::vector<EvalInput> in(b);
  std::vector<Evaluation> out(b);
  r.direct = timed(o.seconds, b, [&](int i) {
    for (int k = 0; k < b; ++k) in[k] = pool.in[(i * b + k) % n];
    net->evaluate(in.data(), b, out.data());
  });

  BatchingOptions bo;
  bo.max_batch = b;
  bo.max_wait_us = o.wait_us;
  bo.server_threads = o.servers;
  const int threads = std::max(1, std::min(o.threads, b));
  bo.clients = threads;
  BatchingEvaluator batching(net, bo);
  const int chunk = (b + threads - 1) / threads;
  auto run = [&](double seconds) {
    std::atomic<bool> stop{false};
    std::atomic<long> done{0};
    std::vector<std::thread> pool_threads;
    for (int t = 0; t < threads; ++t)
      pool_threads.emplace_back([&, t] {
        std::vector<EvalInput> mine(chunk);
        std::vector<Evaluation> res(chunk);
        for (long i = 0; !stop; ++i) {
          for (int k = 0; k < chunk; ++k) mine[k] = pool.in[(t * 7919 + i * chunk + k) % n];
          batching.evaluate(mine.data(), chunk, res.data());
          done += chunk;
        }
      });
    double t0 = now_seconds();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& th : pool_threads) th.join();
    return done / (now_seconds() - t0);
  };
  run(std::min(0.3, o.seconds / 4));  // warm-up
  batching.reset_stats();
  r.batching = run(o.seconds);
  EvalStats s = batching.stats();
  r.avg_batch = s.avg_batch();
  r.wait_us = s.avg_wait_us();
  return r;
}

std::shared_ptr<NetworkEvaluator> make_net(const ModelConfig& cfg, const BenchNnOpts& o) {
  NetworkOptions no;
  no.device = o.device;
  no.precision = o.bf16 ? "bf16" : "fp32";
  no.fuse = !o.no_fuse;
  no.max_batch = std::max(256, o.batch);
  if (!o.model.empty()) return std::shared_ptr<NetworkEvaluator>(NetworkEvaluator::from_file(o.model, no));
  torch::manual_seed(1);
  JanggiNet model(cfg);
  return std::make_shared<NetworkEvaluator>(model, no, "random-" + cfg.name());
}

void run_bench_nn(const BenchNnOpts& o) {
  torch_init_threads();
  Pool pool(512);
  if (!o.sweep) {
    ModelConfig cfg;
    std::string err;
    if (!ModelConfig::parse(std::to_string(o.blocks) + "x" + std::to_string(o.filters), cfg, &err))
      throw std::runtime_error(err);
    auto net = make_net(cfg, o);
    Result r = measure(net, pool, o);
    std::printf("network %s (%s), device %s, %s, batch %d\n", net->config().name().c_str(), net->id().c_str(),
                net->device().str().c_str(), o.bf16 ? "bf16" : "fp32", o.batch);
    std::printf("raw (encode + forward):       %9.0f pos/s\n", r.raw);
    std::printf("direct NetworkEvaluator:      %9.0f pos/s  (%.2f x raw)\n", r.direct, r.direct / r.raw);
    std::printf("BatchingEvaluator, %d thr:    %9.0f pos/s  (%.2f x raw; avg batch %.1f, avg wait %.0f us)\n",
                std::min(o.threads, o.batch), r.batching, r.batching / r.raw, r.avg_batch, r.wait_us);
    return;
  }
  std::vector<ModelConfig> cfgs;
  for (const std::string& size : o.sizes) {
    std::string err;
    if (!ModelConfig::parse(size, cfgs.emplace_back(), &err)) throw std::runtime_error(err);
  }
  std::ofstream csv;
  if (!o.csv.empty()) {
    csv.open(o.csv);
    if (!csv) throw std::runtime_error("cannot write '" + o.csv + "'");
    csv << "model,precision,batch,device,raw_per_s,direct_per_s,batching_per_s,avg_batch,avg_wait_us\n";
  }
  std::printf("%s; device %s, %.2f s per measurement\n", torch_summary().c_str(), o.device.c_str(), o.seconds);
  std::printf("%-7s %-5s %5s %10s %10s %10s %7s %7s %9s\n", "model", "prec", "batch", "raw/s", "direct/s", "batching/s",
              "b/raw", "d/raw", "avg batch");
  for (const ModelConfig& cfg : cfgs)
    for (bool bf16 : {false, true})
      for (int batch : o.batches) {
        BenchNnOpts c = o;
        c.bf16 = bf16;
        c.batch = batch;
        auto net = make_net(cfg, c);
        Result r = measure(net, pool, c);
        const std::string size = cfg.name();
        std::printf("%-7s %-5s %5d %10.0f %10.0f %10.0f %7.2f %7.2f %9.1f\n", size.c_str(), bf16 ? "bf16" : "fp32",
                    batch, r.raw, r.direct, r.batching, r.batching / r.raw, r.direct / r.raw, r.avg_batch);
        std::fflush(stdout);
        if (csv) {
          csv << size << ',' << (bf16 ? "bf16" : "fp32") << ',' << batch << ',' << net->device().str() << ',' << r.raw
              << ',' << r.direct << ',' << r.batching << ',' << r.avg_batch << ',' << r.wait_us << '\n';
          csv.flush();
        }
      }
}

}  // namespace

void add_bench_nn(CLI::App& bench, int& rc) {
  auto o = std::make_shared<BenchNnOpts>();
  auto* cmd = bench.add_subcommand("nn", "Network throughput: raw forward vs the batching evaluator");
  cmd->add_option("--blocks", o->blocks, "Residual blocks")->check(CLI::Range(1, 64));
  cmd->add_option("--filters", o->filters, "Filters per convolution")->check(CLI::Range(8, 1024));
  cmd->add_option("--model", o->model, "Time this model file instead of a random network");
  cmd->add_option("--batch", o->batch, "Batch size")->check(CLI::Range(1, 4096));
  cmd->add_option("--device", o->device, "cpu, cuda, cuda:N or auto");
  cmd->add_option("--threads", o->threads, "Threads submitting to the batching evaluator")->check(CLI::Range(1, 256));
  cmd->add_option("--servers", o->servers, "Server threads of the batching evaluator")->check(CLI::Range(1, 16));
  cmd->add_option("--wait-us", o->wait_us, "Batching evaluator's max wait (microseconds)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_flag("--bf16", o->bf16, "bfloat16 weights and inputs");
  cmd->add_flag("--no-fuse", o->no_fuse, "Keep batch norms separate (default: folded into convolutions)");
  cmd->add_option("--seconds", o->seconds, "Seconds per measurement")->check(CLI::Range(0.05, 600.0));
  cmd->add_flag("--sweep", o->sweep, "Table: --sizes x --batches, fp32 and bf16");
  cmd->add_option("--sizes", o->sizes, "Network sizes of --sweep (default 4x32,6x64,10x128)")->delimiter(',');
  cmd->add_option("--batches", o->batches, "Batch sizes of --sweep (default 1,8,32,128)")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--csv", o->csv, "--sweep: also write the table to this CSV file");
  set_command(cmd, rc, [o, cmd] {
    BenchNnOpts c = *o;
    if (c.sweep && cmd->count("--seconds") == 0) c.seconds = 0.6;  // short cells
    run_bench_nn(c);
    return 0;
  });
}

}  // namespace jz::app
