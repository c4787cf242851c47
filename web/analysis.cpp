#include "web/analysis.h"

#include <chrono>
#include <cmath>

#include "alphabeta/engine.h"
#include "core/notation.h"
#include "play/engine.h"

namespace jz {

using json = nlohmann::json;

struct Analyzer::Job {
  Game game;
  std::vector<PositionEval> evals;  // filled in order by the worker
  std::string status = "queued";
  double seconds = 0;
  uint64_t used = 0;  // last request, for eviction
};

namespace {

double expected_score(int cp) { return 1.0 / (1.0 + std::pow(10.0, -cp / 400.0)); }

// The evaluation of the final position of a finished game: its result.
PositionEval final_eval(const GameResult& r) {
  PositionEval e;
  e.score = r.winner == Winner::CHO ? 1.0 : r.winner == Winner::HAN ? 0.0 : 0.5;
  e.cp = r.winner == Winner::CHO ? AlphaBetaEngine::WIN : r.winner == Winner::HAN ? -AlphaBetaEngine::WIN : 0;
  return e;
}

PositionEval search_eval(AlphaBetaEngine& engine, const Position& pos, uint64_t nodes) {
  AbLimits limits = AlphaBetaEngine::level("expert");
  limits.movetime_ms = 0;  // a fixed node budget: the same result on a busy machine
  limits.depth = 0;
  limits.blunder_pct = 0;
  limits.nodes = nodes;
  Move best = engine.search(pos, limits);
  const AbInfo& info = engine.last_info();
  int sign = pos.side_to_move() == CHO ? 1 : -1;
  PositionEval e;
  e.cp = sign * info.score_cp;
  e.mate = sign * info.mate;
  e.score = info.mate ? (e.mate > 0 ? 1.0 : 0.0) : expected_score(e.cp);
  e.best = best.is_none() ? "" : move_to_uci(best);
  return e;
}

json eval_json(const PositionEval& e) {
  return {{"score", std::round(e.score * 1000) / 1000}, {"cp", e.cp}, {"mate", e.mate}, {"best", e.best}};
}

}  // namespace

std::vector<Mistake> find_mistakes(const Game& game, const std::vector<PositionEval>& evals) {
  std::vector<Mistake> out;
  Game replay;
  std::string err;
  if (!replay.start(game.start_fen(), game.rules(), game.options(), &err)) return out;
  for (size_t i = 0; i < game.moves().size() && i + 1 < evals.size(); ++i) {
    Color mover = replay.pos().side_to_move();
    double before = mover == CHO ? evals[i].score : 1 - evals[i].score;
    double after = mover == CHO ? evals[i + 1].score : 1 - evals[i + 1].score;
    std::string played = move_to_uci(game.moves()[i]);
    double drop = before - after;
    if (drop >= 0.10 && !evals[i].best.empty() && evals[i].best != played)
      out.push_back({int(i), std::round(drop * 1000) / 1000,
                     drop >= 0.30 ? "blunder" : drop >= 0.20 ? "mistake" : "inaccuracy", played, evals[i].best});
    if (!replay.play(game.moves()[i], &err)) break;
  }
  return out;
}

Analyzer::Analyzer(const AnalysisOptions& o) : opts_(o) {}

Analyzer::~Analyzer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

json Analyzer::request(const std::string& key, const Game& game) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (game.ply() > opts_.max_plies) return {{"error", "the game is too long to analyse"}};
  auto& job = jobs_[key];
  if (!job) {
    job = std::make_shared<Job>();
    job->game = game;
    queue_.push_back(job);
    evict();
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    wake_.notify_one();
  }
  job->used = ++clock_;
  json evals = json::array();
  for (const PositionEval& e : job->evals) evals.push_back(eval_json(e));
  json mistakes = json::array();
  for (const Mistake& m : find_mistakes(job->game, job->evals))
    mistakes.push_back({{"ply", m.ply}, {"drop", m.drop}, {"kind", m.kind}, {"played", m.played}, {"best", m.best}});
  return {{"status", job->status}, {"done", job->evals.size()}, {"total", job->game.ply() + 1},
          {"nodes", opts_.nodes}, {"engine", "alpha-beta expert evaluation"}, {"seconds", job->seconds},
          {"evals", evals}, {"mistakes", mistakes}};
}

// Drops the least recently requested analyses beyond `keep` (never one that is queued or running).
void Analyzer::evict() {
  while (int(jobs_.size()) > opts_.keep) {
    auto oldest = jobs_.end();
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it)
      if (it->second->status == "done" && (oldest == jobs_.end() || it->second->used < oldest->second->used))
        oldest = it;
    if (oldest == jobs_.end()) return;
    jobs_.erase(oldest);
  }
}

void Analyzer::work() {
  AlphaBetaEngine engine(16);
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      job = queue_.front();
      queue_.pop_front();
      job->status = "running";
    }
    auto t0 = std::chrono::steady_clock::now();
    engine.new_game();
    Game replay;
    std::string err;
    replay.start(job->game.start_fen(), job->game.rules(), job->game.options(), &err);
    for (int i = 0; i <= job->game.ply(); ++i) {
      // The last position of a finished game is worth its result (a resignation included).
      PositionEval e = i == job->game.ply() && job->game.over() ? final_eval(job->game.result())
                       : replay.over()                           ? final_eval(replay.result())
                                                                 : search_eval(engine, replay.pos(), opts_.nodes);
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_) return;
      job->evals.push_back(e);
      if (i < job->game.ply() && !replay.play(job->game.moves()[i], &err)) break;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    job->status = "done";
    job->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
}

}  // namespace jz
