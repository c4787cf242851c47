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

// The state of a new search from root_pos: limits, evaluation version, features, aged tables.
void AlphaBetaEngine::Impl::start_search(const Position& root_pos, const AbLimits& lim, std::atomic<bool>* stop_flag) {
  pos = root_pos;
  info = &ruleset_info(root_pos.ruleset());
  start = Clock::now();
  nodes = 0;
  node_limit = lim.node_bound();
  seldepth = 0;
  aborted = false;
  stop = stop_flag;
  auto fn = lim.version == 1 ? ab::evaluate_classic : ab::evaluate;
  if (eval_fn != fn) std::fill(eval_cache.begin(), eval_cache.end(), EvalEntry{});
  eval_fn = fn;
  static_evals[0] = root_pos.in_check() ? NO_EVAL : static_eval(root_pos);  // "improving" two plies on
  features = lim.features >= 0 ? unsigned(lim.features) : lim.version == 1 ? 0u : AB_ALL_FEATURES;
  tt.new_search();
  for (auto& k : killers) k[0] = k[1] = Move::none();
  hist.age();
}

// The root moves in their first order: TT move, then captures by MVV-LVA, then the rest. Returns their count.
int AlphaBetaEngine::Impl::order_root_moves() {
  MoveList ml;
  generate_legal(pos, ml);
  Move tt_move = Move::none();
  if (const TTEntry* e = tt.probe(tt_key())) tt_move.raw = e->move;
  int sc[MoveList::CAPACITY];
  PieceTo before_root[2] = {previous_move(pos, 0), previous_move(pos, 1)};
  score_moves(ml, sc, tt_move, 0, before_root);
  root.clear();
  for (int i = 0; i < ml.size; ++i) root.push_back({pick(ml, sc, i), -INF});
  return ml.size;
}

// One iteration: a window around the previous score from depth 4, widened on each fail until the score
// falls inside it (or the search stops).
int AlphaBetaEngine::Impl::aspiration_search(int depth, int prev) {
  int delta = 35, alpha = -INF, beta = INF;
  if (depth >= 4 && std::abs(prev) < DECISIVE) alpha = std::max(prev - delta, -INF), beta = std::min(prev + delta, INF);
  while (true) {
    int score = search_root(depth, alpha, beta);
    if (aborted) return score;
    if (score <= alpha)
      beta = (alpha + beta) / 2, alpha = std::max(score - delta, -INF);
    else if (score >= beta)
      beta = std::min(score + delta, INF);
    else
      return score;
    delta += delta;
    if (delta > 1000) alpha = -INF, beta = INF;
  }
}

void AlphaBetaEngine::Impl::report_iteration(int depth, int score, Move best, AbInfo& in) const {
  in.depth = depth;
  in.seldepth = seldepth;
  in.score_cp = score;
  in.mate = score >= MATE - MAX_PLY ? (MATE - score + 1) / 2 : score <= -MATE + MAX_PLY ? -(MATE + score) / 2 : 0;
  in.nodes = nodes;
  in.time_ms = int(elapsed_ms());
  in.nps = in.time_ms > 0 ? nodes * 1000 / in.time_ms : nodes * 1000;
  in.hashfull = tt.hashfull();
  in.pv.assign(pv[0], pv[0] + pv_len[0]);
  if (in.pv.empty() || in.pv[0] != best) in.pv.assign(1, best);
}

// Stop early when a new iteration would likely not finish, or the game is decided.
bool AlphaBetaEngine::Impl::stop_deepening(int depth, int score, bool timed) const {
  if (soft_ms && elapsed_ms() * 2 > soft_ms) return true;
  return std::abs(score) >= DECISIVE && timed &&
         depth > (std::abs(score) >= MATE - MAX_PLY ? MATE : WIN) - std::abs(score) + 2;
}

namespace {

// People-level weakening: sometimes a reasonable but weaker move, chosen with a seeded RNG, among the
// root moves scored `depth` - 1 plies deep (1 to 3).
Move weaker_move(AlphaBetaEngine& engine, const Position& root_pos, const AbLimits& lim, Move best, int depth) {
  uint64_t rng = lim.seed ^ root_pos.key() ^ (uint64_t(root_pos.game_ply()) << 32);
  if (int(splitmix64(rng) % 100) >= lim.blunder_pct) return best;
  std::vector<std::pair<Move, int>> scored = engine.score_root_moves(std::clamp(depth - 1, 1, 3));
  int top = -INF;
  for (auto& mv : scored) top = std::max(top, mv.second);
  std::vector<Move> cand;
  for (auto& [m, v] : scored)
    if (m != best && v >= top - lim.blunder_margin_cp && v > -DECISIVE) cand.push_back(m);
  return cand.empty() ? best : cand[splitmix64(rng) % cand.size()];
}

}  // namespace

Move AlphaBetaEngine::search(const Position& root_pos, const AbLimits& lim,
                             const std::function<void(const AbInfo&)>& on_info, std::atomic<bool>* stop) {
  Impl& s = *impl_;
  // The same board under other rules (UCI_Variant, a rule option) is another game: its table entries,
  // killers and history would steer this search, so it starts as a fresh engine does.
  int rules_id = int(root_pos.ruleset()) << 8 | root_pos.options().bits;
  if (s.rules_id >= 0 && s.rules_id != rules_id) new_game();
  s.rules_id = rules_id;
  s.start_search(root_pos, lim, stop);
  last_ = AbInfo{};

  // Time: a fixed movetime is a hard limit; a clock gives a soft target and a hard cap.
  const TimePlan plan = plan_time(lim, root_pos.side_to_move());
  s.soft_ms = plan.soft_ms;
  s.hard_ms = plan.hard_ms;
  bool timed = s.hard_ms > 0;

  int nmoves = s.order_root_moves();
  if (nmoves == 0) return Move::none();
  int max_depth = lim.depth > 0 ? std::min(lim.depth, MAX_DEPTH) : MAX_DEPTH;
  if (timed && nmoves == 1) max_depth = 1;
  Move best = s.root[0].move;
  int prev = 0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    s.root_depth = depth;
    int score = s.aspiration_search(depth, prev);
    // A partial iteration still counts if it proved a move at least as good as the previous best.
    best = s.root[0].move;
    if (s.aborted) break;
    prev = score;
    s.report_iteration(depth, score, best, last_);
    if (on_info) on_info(last_);
    if (s.stop_deepening(depth, score, timed)) break;
    std::stable_sort(s.root.begin(), s.root.end(),
                     [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
  }
  last_.nodes = s.nodes;
  last_.time_ms = int(s.elapsed_ms());

  bool stopped = stop && stop->load();
  if (lim.blunder_pct > 0 && s.root.size() > 1 && last_.depth >= 1 && !stopped)
    best = weaker_move(*this, root_pos, lim, best, last_.depth);
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
