// `janggi-zero bench mcts`: search speed. With the stub evaluator it times the search alone
// (playouts/s, many trees filling one batch, as self-play does) and the memory of one big tree; with a
// network it compares search evals/s with the raw batched throughput of the same network.
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "core/random_play.h"
#include "core/rules.h"
#include "mcts/search.h"
#include "mcts/stub_evaluator.h"
#include "util/clock.h"
#include "util/process.h"
#ifdef JZ_WITH_TORCH
#include "nn/model.h"
#include "nn/network_evaluator.h"
#endif

namespace jz::app {

namespace {

struct BenchMctsOpts {
  int sims = 200, trees = 16, batch = 64, tree_visits = 200000;
  double seconds = 3;
  std::string net, device = "cpu";
  int blocks = 0, filters = 0;
};

struct TreesRun {
  long playouts = 0, evals = 0, rounds = 0, moves = 0;
  double seconds = 0, cpu = 0;
};

// T trees in one thread, like a self-play worker: gather from each, one evaluate() for all, apply; a
// finished search plays its move (tree reuse) and a finished game restarts.
TreesRun run_trees(Evaluator& eval, const BenchMctsOpts& o, double seconds, bool mate_in_one = true) {
  SearchParams p;
  p.simulations = o.sims;
  p.mate_in_one = mate_in_one;
  p.root_noise = true;
  p.temperature = 1.0f;
  std::vector<std::unique_ptr<Tree>> trees;
  std::vector<int> plies(o.trees, 0);
  for (int t = 0; t < o.trees; ++t) {
    p.seed = t + 1;
    trees.push_back(std::make_unique<Tree>(p));
    trees.back()->reset(Position());
  }
  int per_tree = std::max(1, (o.batch + o.trees - 1) / o.trees);
  std::vector<LeafRequest> reqs;
  std::vector<EvalInput> in;
  std::vector<Evaluation> out;
  std::vector<int> start(o.trees + 1);
  TreesRun s;
  double t0 = now_seconds(), c0 = thread_cpu_seconds();
  while ((s.seconds = now_seconds() - t0) < seconds) {
    reqs.clear();
    for (int t = 0; t < o.trees; ++t) {
      Tree& tree = *trees[t];
      if (tree.finished()) {
        SearchResult r = tree.result();
        s.playouts += r.playouts;
        ++s.moves;
        Position next = tree.root_position();
        bool over = r.move.is_none() || ++plies[t] >= 150;
        if (!over) {
          next.do_move(r.move);
          over = game_result(next).over();
        }
        if (over)
          tree.reset(Position()), plies[t] = 0;
        else
          tree.advance(r.move);
      }
      start[t] = int(reqs.size());
      tree.gather(per_tree, reqs);
    }
    start[o.trees] = int(reqs.size());
    int n = int(reqs.size());
    if (!n) continue;
    in.resize(n);
    out.resize(n);
    for (int i = 0; i < n; ++i) in[i] = reqs[i].input();
    eval.evaluate(in.data(), n, out.data());
    for (int t = 0; t < o.trees; ++t)
      trees[t]->apply(reqs.data() + start[t], out.data() + start[t], start[t + 1] - start[t]);
    s.evals += n;
    ++s.rounds;
  }
  for (auto& t : trees) s.playouts += t->result().playouts;  // searches still under way
  s.cpu = thread_cpu_seconds() - c0;
  return s;
}

void report_trees(const char* name, const TreesRun& s) {
  std::printf(
      "%s: %ld playouts, %ld evals in %ld batches (avg %.1f) over %.2f s (%.2f s CPU): %.0f playouts/s, "
      "%.0f evals/s; per CPU second %.0f playouts, %.0f evals; %ld moves\n",
      name, s.playouts, s.evals, s.rounds, s.rounds ? double(s.evals) / s.rounds : 0.0, s.seconds, s.cpu,
      s.playouts / s.seconds, s.evals / s.seconds, s.playouts / s.cpu, s.evals / s.cpu, s.moves);
}

// Resident set size in bytes (Linux), 0 if unknown.
double resident_bytes() {
  ProcessMemory m;
  read_process_memory(m);
  return 1024.0 * double(m.rss_kib);
}

// One big tree: bytes per node, as counted by the tree and as the process grew (allocator included).
void bench_memory(int visits) {
  UniformEvaluator eval;
  SearchParams p;
  p.simulations = visits;
  Tree tree(p);
  tree.reset(Position());
  double rss0 = resident_bytes(), t0 = now_seconds();
  SearchResult r = run_search(tree, eval, 64);
  double s = now_seconds() - t0, rss = resident_bytes() - rss0;
  size_t nodes = tree.node_count();
  std::printf(
      "one tree, %d visits: %zu nodes, %.1f MiB counted (%.1f bytes/node: nodes + edge arrays), "
      "%.1f MiB resident growth (%.1f bytes/node), %.0f playouts/s\n",
      r.root_visits, nodes, tree.memory_bytes() / 1048576.0, double(tree.memory_bytes()) / nodes, rss / 1048576.0,
      rss / nodes, r.playouts / s);
  t0 = now_seconds();
  tree.reset(Position());
  std::printf("  freed in %.3f s\n", now_seconds() - t0);
}

#ifdef JZ_WITH_TORCH
// Raw throughput: evaluate() on fixed batches of positions from real games, no search.
// Returns evals per wall second; *per_cpu gets evals per CPU second.
double raw_evals_per_second(Evaluator& eval, int batch, double seconds, double* per_cpu) {
  std::mt19937_64 rng(1);
  std::vector<Position> pos(batch);
  std::vector<MoveList> moves(batch);
  for (int i = 0; i < batch; ++i) {
    random_walk(pos[i], int(rng() % 60), rng, true);
    generate_legal(pos[i], moves[i]);
  }
  std::vector<EvalInput> in(batch);
  for (int i = 0; i < batch; ++i) in[i] = EvalInput{&pos[i], &moves[i]};
  std::vector<Evaluation> out(batch);
  eval.evaluate(in.data(), batch, out.data());  // warm-up
  long n = 0;
  double t0 = now_seconds(), c0 = thread_cpu_seconds(), s;
  while ((s = now_seconds() - t0) < seconds) {
    eval.evaluate(in.data(), batch, out.data());
    n += batch;
  }
  *per_cpu = n / (thread_cpu_seconds() - c0);
  return n / s;
}
#endif

int run_bench_mcts(const BenchMctsOpts& o) {
  if (!o.net.empty() && !std::ifstream(o.net)) {  // fail before the stub runs, not after
    return report_error("cannot open model '" + o.net + "'", 2);
  }
  std::printf("bench mcts: %d trees x %d simulations per move, batch %d, %.1f s per run\n", o.trees, o.sims, o.batch,
              o.seconds);
  UniformEvaluator uniform;
  MaterialEvaluator material(1.0f);
  report_trees("stub uniform ", run_trees(uniform, o, o.seconds));
  TreesRun with = run_trees(material, o, o.seconds);
  report_trees("stub material", with);
  // The price of the mate-in-one check at expansion, search alone (a network call costs far more).
  TreesRun without = run_trees(material, o, o.seconds, false);
  report_trees("  no mate1   ", without);
  std::printf("  mate-in-one check: %.2fx the playouts per CPU second without it\n",
              (with.playouts / with.cpu) / (without.playouts / without.cpu));
  if (o.tree_visits > 0) bench_memory(o.tree_visits);
  if (o.net.empty() && o.blocks <= 0) return 0;
#ifdef JZ_WITH_TORCH
  torch_init_threads();
  NetworkOptions nopt;
  nopt.device = o.device;
  nopt.max_batch = std::max(256, o.batch);
  std::unique_ptr<NetworkEvaluator> net;
  if (!o.net.empty()) {
    net = NetworkEvaluator::from_file(o.net, nopt);
  } else {
    ModelConfig cfg;
    std::string err, name = std::to_string(o.blocks) + "x" + std::to_string(o.filters);
    if (!ModelConfig::parse(name, cfg, &err)) {
      return report_error(err, 2);
    }
    torch::manual_seed(1);
    net = std::make_unique<NetworkEvaluator>(JanggiNet(cfg), nopt, "random-" + name);
  }
  // Raw and search alternate (raw, search, raw) so that drifting machine load hits both alike.
  double raw_cpu1, raw_cpu2;
  double raw1 = raw_evals_per_second(*net, o.batch, o.seconds / 2, &raw_cpu1);
  TreesRun s = run_trees(*net, o, o.seconds);
  double raw2 = raw_evals_per_second(*net, o.batch, o.seconds / 2, &raw_cpu2);
  double raw = (raw1 + raw2) / 2, raw_cpu = (raw_cpu1 + raw_cpu2) / 2;
  double avg_batch = s.rounds ? double(s.evals) / s.rounds : 0;
  double search = s.evals / s.seconds, search_cpu = s.evals / s.cpu;
  std::printf("network %s: raw %.0f evals/s (%.0f per CPU second) at batch %d\n", net->id().c_str(), raw, raw_cpu,
              o.batch);
  report_trees("network search", s);
  std::printf(
      "search/raw = %.3f wall, %.3f CPU (search overhead %.1f%% of CPU time; search batches average %.1f "
      "of %d)\n",
      search / raw, search_cpu / raw_cpu, 100.0 * (1.0 - search_cpu / raw_cpu), avg_batch, o.batch);
  return 0;
#else
  return report_error("this build has no network library (nn/)", 2);
#endif
}

}  // namespace

void add_bench_mcts(CLI::App& bench, int& rc) {
  auto o = std::make_shared<BenchMctsOpts>();
  auto* cmd = bench.add_subcommand("mcts", "Search speed: playouts/s (stub evaluator), search vs raw network evals/s");
  cmd->add_option("--sims", o->sims, "Simulations per move")->check(CLI::Range(1, 100000000));
  cmd->add_option("--trees", o->trees, "Trees (games) searched by the one thread")->check(CLI::Range(1, 4096));
  cmd->add_option("--batch", o->batch, "Leaves per evaluator call (split over the trees)")->check(CLI::Range(1, 4096));
  cmd->add_option("--seconds", o->seconds, "Seconds per measurement")->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--tree-visits", o->tree_visits, "Visits of the one-tree memory test (0 = skip)")
      ->check(CLI::Range(0, 100000000));
  auto* net = cmd->add_option("--net", o->net, "Model file to compare search and raw throughput with");
  cmd->add_option("--blocks", o->blocks, "Random network of this many blocks (with --filters)")
      ->check(CLI::Range(1, 64))
      ->excludes(net);
  cmd->add_option("--filters", o->filters, "Random network width")->check(CLI::Range(1, 1024))->excludes(net);
  cmd->add_option("--device", o->device, "Network device: cpu, cuda, cuda:N, auto");
  set_command(cmd, rc, [o] {
    if ((o->blocks > 0) != (o->filters > 0)) return report_error("--blocks and --filters go together", 2);
    return run_bench_mcts(*o);
  });
}

}  // namespace jz::app
