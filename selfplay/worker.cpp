#include "selfplay/worker.h"

#include <algorithm>
#include <random>

#include "core/movegen.h"
#include "core/random_play.h"
#include "core/rules.h"
#include "core/setups.h"
#include "mcts/search.h"
#include "util/log.h"

namespace jz {

struct SelfPlayWorker::Game {
  std::unique_ptr<Tree> tree = std::make_unique<Tree>();
  Position pos;
  GameRecord rec;
  std::shared_ptr<Evaluator> eval;  // network of the current search
  std::mt19937_64 rng;
  int streak[2] = {0, 0};  // consecutive own searches below the resignation threshold
  bool probe = false;      // resignation disabled in this game
  bool active = false;
  size_t begin = 0, end = 0;  // this game's leaves in the round's batch
};

SelfPlayWorker::SelfPlayWorker(const SelfPlayOptions& opts, std::shared_ptr<Evaluator> eval, ChunkWriter& writer)
    : opts_(opts), writer_(writer), eval_(std::move(eval)) {
  seed_ = opts_.seed ? opts_.seed : (uint64_t(std::random_device()()) << 32) ^ uint64_t(now_seconds() * 1e9);
}

SelfPlayWorker::~SelfPlayWorker() {
  stop();
  join();
}

void SelfPlayWorker::start(int threads, uint64_t max_games) {
  max_games_ = max_games;
  running_threads_ = threads;
  progress_ = std::make_unique<std::atomic<uint64_t>[]>(size_t(threads));
  for (int i = 0; i < threads; ++i) progress_[i] = 0;
  num_threads_ = threads;
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this, i] { thread_main(i); });
}

void SelfPlayWorker::stop() { stop_ = true; }

void SelfPlayWorker::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void SelfPlayWorker::set_evaluator(std::shared_ptr<Evaluator> eval) {
  std::lock_guard<std::mutex> lock(eval_mutex_);
  eval_ = std::move(eval);
}

std::shared_ptr<Evaluator> SelfPlayWorker::evaluator() const {
  std::lock_guard<std::mutex> lock(eval_mutex_);
  return eval_;
}

SelfPlayStats SelfPlayWorker::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  SelfPlayStats s = stats_;
  s.concurrent_games = uint64_t(std::max<int64_t>(0, active_games_.load()));
  s.moves = moves_.load();
  return s;
}

std::vector<uint64_t> SelfPlayWorker::thread_progress() const {
  std::vector<uint64_t> out(static_cast<size_t>(num_threads_));
  for (int i = 0; i < num_threads_; ++i) out[i] = progress_[i].load(std::memory_order_relaxed);
  return out;
}

std::string SelfPlayWorker::error() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return error_;
}

void SelfPlayWorker::configure_search(Game& g) {
  g.eval = evaluator();
  SearchParams p = opts_.search;
  p.full_search = std::uniform_real_distribution<double>(0, 1)(g.rng) < opts_.full_fraction;
  p.simulations = p.full_search ? opts_.full_simulations : opts_.cheap_simulations;
  p.temperature = float(temperature_at(opts_, g.rec.num_plies()));
  int ply = g.rec.num_plies();
  p.gumbel_sample_move = opts_.gumbel_sample_plies < 0 || ply < opts_.gumbel_sample_plies;
  p.root_pass = ply >= opts_.no_pass_before_ply;
  p.seed = g.rng();
  g.tree->set_params(p);
}

bool SelfPlayWorker::start_game(Game& g) {
  g.active = false;
  if (stop_) return false;
  if (max_games_ && games_started_.fetch_add(1) >= max_games_) return false;
  std::discrete_distribution<int> pick_setup(opts_.setup_weights.begin(), opts_.setup_weights.end());
  const float draw_wdl[3] = {0, 1, 0};
  for (int attempt = 0;; ++attempt) {
    g.rec = GameRecord();
    g.rec.setup = uint8_t(pick_setup(g.rng));
    g.rec.start_fen = setup_fen(opts_.ruleset, g.rec.setup);
    g.rec.ruleset = opts_.ruleset;
    g.rec.seed = g.rng();
    std::string err;
    g.pos.set_fen(g.rec.start_fen, opts_.ruleset, &err);
    g.probe = opts_.resign && std::uniform_real_distribution<double>(0, 1)(g.rng) < opts_.resign_playout_fraction;
    if (g.probe) g.rec.flags |= GAME_FLAG_NO_RESIGN;
    g.streak[0] = g.streak[1] = 0;
    // Random opening plies diversify games; they are recorded as cheap plies without a target.
    int n = int(g.rng() % uint64_t(opts_.random_opening_plies + 1));
    MoveList legal;
    bool over = false;
    for (int i = 0; i <= n; ++i) {
      generate_legal(g.pos, legal);
      if (game_result(g.pos, legal.size).over()) {
        over = true;
        break;
      }
      if (i == n) break;
      Move m = random_legal_move(g.pos, g.rng, false);
      if (m.is_none()) m = random_legal_move(g.pos, g.rng, true);  // the pass is the only move
      g.rec.add_ply(m, false, draw_wdl, {});
      g.pos.do_move(m);
    }
    if (!over || attempt >= 20) break;
  }
  configure_search(g);
  g.tree->reset(g.pos);
  g.rec.network_id = g.eval->id();
  g.active = true;
  ++active_games_;
  return true;
}

void SelfPlayWorker::finish_game(Game& g, const GameResult& r) {
  g.rec.winner = r.winner;
  g.rec.ending = r.ending;
  if (r.by_counting) g.rec.flags |= GAME_FLAG_BY_COUNTING;
  g.rec.final_margin = int16_t(material_margin(g.pos));
  {
    std::lock_guard<std::mutex> lock(stats_mutex_);
    SelfPlayStats& s = stats_;
    ++s.games;
    s.positions += g.rec.plies.size();
    for (const PlyRecord& p : g.rec.plies) s.full_positions += p.full_search;
    ++s.winners[int(r.winner)];
    ++s.endings[int(r.ending)];
    if (g.probe) {
      ++s.probe_games;
      if (g.rec.flags & GAME_FLAG_WOULD_RESIGN) {
        ++s.probe_would_resign;
        if (r.winner != winner_of(~g.rec.would_resign)) ++s.false_resigns;
      }
    }
  }
  std::string err;
  if (!writer_.add(std::move(g.rec), &err)) {
    std::lock_guard<std::mutex> lock(stats_mutex_);
    error_ = err;
    stop_ = true;
  }
  g.rec = GameRecord();
  --active_games_;
  start_game(g);
}

void SelfPlayWorker::make_move(Game& g) {
  SearchResult r = g.tree->result();
  Color us = g.pos.side_to_move();
  if (r.move.is_none()) {  // cannot happen: a finished game is never searched; end it by the rules
    GameResult res = game_result(g.pos);
    finish_game(g, res.over() ? res : decide(g.pos, Ending::LENGTH_CAP));
    return;
  }
  if (opts_.resign && g.rec.num_plies() >= opts_.resign_min_ply) {
    g.streak[us] = r.q < -opts_.resign_threshold ? g.streak[us] + 1 : 0;
    if (g.streak[us] >= opts_.resign_consecutive) {
      if (!g.probe) {
        finish_game(g, GameResult{winner_of(~us), Ending::RESIGNATION, false});
        return;
      }
      if (!(g.rec.flags & GAME_FLAG_WOULD_RESIGN)) {
        g.rec.flags |= GAME_FLAG_WOULD_RESIGN;
        g.rec.would_resign = us;
      }
    }
  }
  std::vector<std::pair<Move, float>> target;
  if (r.is_policy_target)
    for (size_t i = 0; i < r.moves.size() && i < r.policy_target.size(); ++i)
      if (r.policy_target[i] > 0) target.push_back({r.moves[i], r.policy_target[i]});
  g.rec.add_ply(r.move, r.is_policy_target && !target.empty(), r.wdl, target);
  ++moves_;
  g.rec.network_id = g.eval->id();
  g.pos.do_move(r.move);
  GameResult res = game_result(g.pos);
  if (res.over()) return finish_game(g, res);
  if (g.rec.num_plies() >= opts_.max_plies) return finish_game(g, decide(g.pos, Ending::LENGTH_CAP));
  configure_search(g);
  g.tree->advance(r.move);
}

void SelfPlayWorker::thread_main(int index) {
  std::vector<Game> games(size_t(opts_.games_per_thread));
  for (size_t i = 0; i < games.size(); ++i) {
    std::seed_seq seq{seed_, uint64_t(index), uint64_t(i)};
    games[i].rng.seed(seq);
    start_game(games[i]);
  }
  std::vector<LeafRequest> reqs;
  std::vector<Evaluation> evals;
  std::vector<EvalInput> inputs;
  std::vector<size_t> idx;
  std::vector<Evaluation> part;
  while (!stop_) {
    double t_round = now_seconds();
    int active = 0;
    for (Game& g : games) {
      while (g.active && g.tree->finished() && !stop_) {
        make_move(g);
        progress_[index].fetch_add(1, std::memory_order_relaxed);
      }
      active += g.active;
    }
    if (active == 0 || stop_) break;
    reqs.clear();
    for (Game& g : games) {
      g.begin = reqs.size();
      if (g.active) g.tree->gather(opts_.leaves_per_game, reqs);
      g.end = reqs.size();
    }
    if (reqs.empty()) continue;
    evals.resize(reqs.size());
    // Normally one network; during a switch, games still on the old one are evaluated by it.
    std::vector<Evaluator*> nets;
    for (Game& g : games)
      if (g.end > g.begin && std::find(nets.begin(), nets.end(), g.eval.get()) == nets.end())
        nets.push_back(g.eval.get());
    double t_eval = now_seconds();
    for (Evaluator* net : nets) {
      inputs.clear();
      idx.clear();
      for (Game& g : games) {
        if (g.eval.get() != net) continue;
        for (size_t k = g.begin; k < g.end; ++k) {
          inputs.push_back(reqs[k].input());
          idx.push_back(k);
        }
      }
      if (nets.size() == 1) {
        net->evaluate(inputs.data(), int(inputs.size()), evals.data());
      } else {
        part.resize(inputs.size());
        net->evaluate(inputs.data(), int(inputs.size()), part.data());
        for (size_t k = 0; k < idx.size(); ++k) evals[idx[k]] = std::move(part[k]);
      }
    }
    double eval_time = now_seconds() - t_eval;
    for (Game& g : games)
      if (g.end > g.begin) g.tree->apply(&reqs[g.begin], &evals[g.begin], int(g.end - g.begin));
    progress_[index].fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats_.leaf_evals += reqs.size();
    stats_.eval_calls += nets.size();
    stats_.eval_seconds += eval_time;
    stats_.thread_seconds += now_seconds() - t_round;
  }
  for (Game& g : games) active_games_ -= g.active;  // dropped unfinished
  --running_threads_;
}

}  // namespace jz
