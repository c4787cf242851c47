// The search driver: iterative deepening with aspiration windows, time control (a fixed movetime, or a
// clock's soft target and hard cap), the people levels' deliberate weaker moves, and root scoring.
#include "alphabeta/search_impl.h"

namespace jz {

using namespace ab;

AlphaBetaEngine::AlphaBetaEngine(size_t hash_mb) : impl_(new Impl) { impl_->tt.resize(hash_mb); }
AlphaBetaEngine::~AlphaBetaEngine() = default;

void AlphaBetaEngine::set_hash(size_t hash_mb) { impl_->tt.resize(hash_mb); }
void AlphaBetaEngine::new_game() {
  impl_->tt.clear();
  impl_->clear_tables();
}
int AlphaBetaEngine::evaluate(const Position& pos) { return ab::evaluate(pos); }

Move AlphaBetaEngine::search(const Position& root_pos, const AbLimits& lim,
                             const std::function<void(const AbInfo&)>& on_info, std::atomic<bool>* stop) {
  Impl& s = *impl_;
  // The same board under other rules (UCI_Variant, a rule option) is another game: its table entries,
  // killers and history would steer this search, so it starts as a fresh engine does.
  int rules_id = int(root_pos.ruleset()) << 8 | root_pos.options().bits;
  if (s.rules_id >= 0 && s.rules_id != rules_id) new_game();
  s.rules_id = rules_id;
  s.pos = root_pos;
  s.info = &ruleset_info(root_pos.ruleset());
  s.start = Clock::now();
  s.nodes = 0;
  s.node_limit = lim.node_bound();
  s.seldepth = 0;
  s.aborted = false;
  s.stop = stop;
  auto eval_fn = lim.version == 1 ? ab::evaluate_classic : ab::evaluate;
  if (s.eval_fn != eval_fn) std::fill(s.eval_cache.begin(), s.eval_cache.end(), Impl::EvalEntry{});
  s.eval_fn = eval_fn;
  s.static_evals[0] = root_pos.in_check() ? NO_EVAL : s.static_eval(root_pos);  // "improving" two plies on
  s.features = lim.features >= 0 ? unsigned(lim.features) : lim.version == 1 ? 0u : AB_ALL_FEATURES;
  s.tt.new_search();
  for (auto& k : s.killers) k[0] = k[1] = Move::none();
  s.hist.age();
  last_ = AbInfo{};

  // Time: a fixed movetime is a hard limit; a clock gives a soft target and a hard cap.
  Color us = root_pos.side_to_move();
  const TimePlan plan = plan_time(lim, us);
  s.soft_ms = plan.soft_ms;
  s.hard_ms = plan.hard_ms;
  bool timed = s.hard_ms > 0;

  MoveList ml;
  generate_legal(s.pos, ml);
  if (ml.size == 0) return Move::none();
  // Root order: TT move, then captures by MVV-LVA, then the rest.
  Move tt_move = Move::none();
  if (const TTEntry* e = s.tt.probe(s.tt_key())) tt_move.raw = e->move;
  int sc[MoveList::CAPACITY];
  PieceTo before_root[2] = {previous_move(s.pos, 0), previous_move(s.pos, 1)};
  s.score_moves(ml, sc, tt_move, 0, before_root);
  s.root.clear();
  for (int i = 0; i < ml.size; ++i) s.root.push_back({Impl::pick(ml, sc, i), -INF});

  int max_depth = lim.depth > 0 ? std::min(lim.depth, MAX_DEPTH) : MAX_DEPTH;
  if (timed && ml.size == 1) max_depth = 1;
  Move best = s.root[0].move;
  int prev = 0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    s.root_depth = depth;
    int delta = 35, alpha = -INF, beta = INF;
    if (depth >= 4 && std::abs(prev) < DECISIVE)
      alpha = std::max(prev - delta, -INF), beta = std::min(prev + delta, INF);
    int score;
    while (true) {
      score = s.search_root(depth, alpha, beta);
      if (s.aborted) break;
      if (score <= alpha)
        beta = (alpha + beta) / 2, alpha = std::max(score - delta, -INF);
      else if (score >= beta)
        beta = std::min(score + delta, INF);
      else
        break;
      delta += delta;
      if (delta > 1000) alpha = -INF, beta = INF;
    }
    // A partial iteration still counts if it proved a move at least as good as the previous best.
    best = s.root[0].move;
    if (s.aborted) break;
    prev = score;
    AbInfo& in = last_;
    in.depth = depth;
    in.seldepth = s.seldepth;
    in.score_cp = score;
    in.mate = score >= MATE - MAX_PLY ? (MATE - score + 1) / 2 : score <= -MATE + MAX_PLY ? -(MATE + score) / 2 : 0;
    in.nodes = s.nodes;
    in.time_ms = int(s.elapsed_ms());
    in.nps = in.time_ms > 0 ? s.nodes * 1000 / in.time_ms : s.nodes * 1000;
    in.hashfull = s.tt.hashfull();
    in.pv.assign(s.pv[0], s.pv[0] + s.pv_len[0]);
    if (in.pv.empty() || in.pv[0] != best) in.pv.assign(1, best);
    if (on_info) on_info(in);
    // Stop early when a new iteration would likely not finish, or the game is decided.
    if (s.soft_ms && s.elapsed_ms() * 2 > s.soft_ms) break;
    if (std::abs(score) >= DECISIVE && timed &&
        depth > (std::abs(score) >= MATE - MAX_PLY ? MATE : WIN) - std::abs(score) + 2)
      break;
    std::stable_sort(s.root.begin(), s.root.end(),
                     [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
  }
  last_.nodes = s.nodes;
  last_.time_ms = int(s.elapsed_ms());

  // People-level weakening: sometimes a reasonable but weaker move, chosen with a seeded RNG.
  bool stopped = stop && stop->load();
  if (lim.blunder_pct > 0 && s.root.size() > 1 && last_.depth >= 1 && !stopped) {
    uint64_t rng = lim.seed ^ root_pos.key() ^ (uint64_t(root_pos.game_ply()) << 32);
    if (int(splitmix64(rng) % 100) < lim.blunder_pct) {
      int d = std::clamp(last_.depth - 1, 1, 3);
      std::vector<std::pair<Move, int>> scored = score_root_moves(d);
      int top = -INF;
      for (auto& mv : scored) top = std::max(top, mv.second);
      std::vector<Move> cand;
      for (auto& [m, v] : scored)
        if (m != best && v >= top - lim.blunder_margin_cp && v > -DECISIVE) cand.push_back(m);
      if (!cand.empty()) best = cand[splitmix64(rng) % cand.size()];
    }
  }
  return best;
}

std::vector<std::pair<Move, int>> AlphaBetaEngine::score_root_moves(int depth) {
  Impl& s = *impl_;
  s.aborted = false;
  s.node_limit = 0;
  s.hard_ms = 0;
  s.stop = nullptr;
  depth = std::max(depth, 1);
  std::vector<std::pair<Move, int>> scored;
  for (const RootMove& rm : s.root) {
    s.pos.do_move(rm.move);
    int v = -s.search(depth - 1, -INF, INF, 1, false);
    s.pos.undo_move();
    scored.push_back({rm.move, v});
  }
  return scored;
}

}  // namespace jz
