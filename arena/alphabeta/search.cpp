// Iterative-deepening PVS: aspiration windows, TT, null move (= a real pass), LMR, check extension,
// quiescence on captures. Game endings come from the rules core at every node, so passes, bikjang,
// counting, repetition and perpetual check are scored exactly.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "arena/alphabeta/checks.h"
#include "arena/alphabeta/engine.h"
#include "arena/alphabeta/eval.h"
#include "arena/alphabeta/history.h"
#include "arena/alphabeta/tt.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "util/random.h"

namespace jz {

using namespace ab;

namespace {

using Clock = std::chrono::steady_clock;
constexpr int MAX_PLY = AlphaBetaEngine::MAX_PLY;
constexpr int MATE = AlphaBetaEngine::MATE, WIN = AlphaBetaEngine::WIN;
constexpr int INF = 32500;
constexpr int DECISIVE = WIN - MAX_PLY;  // |score| >= DECISIVE: the game is decided
constexpr int QS_MAX = 12;               // quiescence plies
constexpr uint64_t PASS_KEY = 0x5bd1e9955bd1e995ULL;
constexpr int NO_EVAL = INT32_MIN;

int score_to_tt(int s, int ply) { return s >= DECISIVE ? s + ply : s <= -DECISIVE ? s - ply : s; }
int score_from_tt(int s, int ply) { return s >= DECISIVE ? s - ply : s <= -DECISIVE ? s + ply : s; }

bool is_capture(const Position& pos, Move m) { return !m.is_pass() && pos.piece_on(m.to()) != NO_PIECE; }

int mvv_lva(const Position& pos, Move m) {
  return PIECE_CP[type_of(pos.piece_on(m.to()))] * 8 - PIECE_CP[type_of(pos.piece_on(m.from()))] / 100;
}

struct Reductions {
  int8_t r[64][64];
  Reductions() {
    for (int d = 0; d < 64; ++d)
      for (int m = 0; m < 64; ++m) r[d][m] = int8_t(d && m ? 0.5 + std::log(d) * std::log(m) / 2.2 : 0);
  }
};
const Reductions LMR;
constexpr int LMP_COUNT[4] = {0, 8, 14, 22};

struct RootMove {
  Move move;
  int score = -INF;
};

}  // namespace

struct AlphaBetaEngine::Impl {
  TT tt;
  Position pos;
  const RulesetInfo* info = nullptr;
  SearchHistory hist;
  Move killers[MAX_PLY + 2][2];
  Move excluded[MAX_PLY + 2];     // per ply: the move a singular-extension search leaves out
  int static_evals[MAX_PLY + 2];  // per ply, NO_EVAL in check: "improving" compares with two plies back
  Move pv[MAX_PLY + 2][MAX_PLY + 2];
  int pv_len[MAX_PLY + 2];
  std::vector<RootMove> root;
  uint64_t nodes = 0, node_limit = 0;
  int seldepth = 0, root_depth = 0;
  bool aborted = false;
  std::atomic<bool>* stop = nullptr;
  int (*eval_fn)(const Position&) = ab::evaluate;  // by version: tuned or classic
  // Evaluation cache: quiescence nodes are not in the TT, and many are reached again.
  struct EvalEntry {
    uint64_t key = 0;
    int score = 0;
  };
  std::vector<EvalEntry> eval_cache = std::vector<EvalEntry>(1 << 15);
  unsigned features = AB_ALL_FEATURES;
  Clock::time_point start;
  int64_t hard_ms = 0, soft_ms = 0;

  Impl() { clear_tables(); }
  void clear_tables() {
    hist.clear();
    for (auto& k : killers) k[0] = k[1] = Move::none();
    for (auto& m : excluded) m = Move::none();
  }
  bool has(unsigned feature) const { return features & feature; }

  int64_t elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  }

  // Called on entering a node, before counting it: the node limit is never exceeded.
  bool check_abort() {
    if (aborted) return true;
    if (node_limit && nodes >= node_limit) return aborted = true;
    if ((nodes & 1023) == 0) {
      if (stop && stop->load(std::memory_order_relaxed)) return aborted = true;
      if (hard_ms && elapsed_ms() >= hard_ms) return aborted = true;
    }
    return false;
  }

  // Key of the search state: the board, plus what the board does not show but changes the game:
  // that the opponent just passed (our pass ends it) and the last plies before the move rule.
  uint64_t tt_key() const {
    uint64_t k = pos.key();
    if (opponent_passed(pos)) k ^= PASS_KEY;
    int left = info->move_rule - pos.rule50();
    if (left <= 30) k ^= uint64_t(left + 1) * GOLDEN_GAMMA;
    return k;
  }

  // The evaluation reads what tt_key() carries and also the last 40 plies before the move rule.
  int static_eval(const Position& p) {
    uint64_t k = p.key() ^ (opponent_passed(p) ? PASS_KEY : 0);
    int left = info->move_rule - p.rule50();
    if (left < 40) k ^= uint64_t(left + 1) * GOLDEN_GAMMA;
    k ^= uint64_t(int(p.ruleset()) + 1) * 0xd6e8feb86659fd93ULL;  // one engine may play several rule sets
    EvalEntry& e = eval_cache[k & (eval_cache.size() - 1)];
    if (e.key != k) e = {k, eval_fn(p)};
    return e.score;
  }

  int result_score(const GameResult& r, int ply) const {
    if (r.winner == Winner::DRAW) return 0;
    int s = r.ending == Ending::CHECKMATE ? MATE - ply : WIN - ply;
    return r.winner == winner_of(pos.side_to_move()) ? s : -s;
  }

  // Our pass would end the game right now (after the opponent's pass, or in bikjang): its exact score.
  bool pass_ends_game(int ply, int& score) const {
    if (pos.in_check() && !pos.in_bikjang()) return false;  // the pass is illegal
    if (!opponent_passed(pos) && !pos.in_bikjang()) return false;
    GameResult r = decide(pos, pos.in_bikjang() ? Ending::BIKJANG : Ending::DOUBLE_PASS);
    score = r.winner == Winner::DRAW                    ? 0
            : r.winner == winner_of(pos.side_to_move()) ? WIN - (ply + 1)
                                                        : -(WIN - (ply + 1));
    return true;
  }

  void update_pv(int ply, Move m) {
    pv[ply][ply] = m;
    for (int i = ply + 1; i < pv_len[ply + 1]; ++i) pv[ply][i] = pv[ply + 1][i];
    pv_len[ply] = std::max(pv_len[ply + 1], ply + 1);
  }

  // Order: TT move, good captures, killers, the counter move, quiets by history, bad captures.
  void score_moves(const MoveList& ml, int* sc, Move tt_move, int ply, const PieceTo prev[2]) const {
    bool v2 = has(AB_HISTORY);
    Move counter = v2 && prev[0].valid() ? hist.counter[prev[0].piece][prev[0].to] : Move::none();
    for (int i = 0; i < ml.size; ++i) {
      Move m = ml[i];
      if (m == tt_move)
        sc[i] = 1 << 30;
      else if (is_capture(pos, m))
        // A defended victim worth less than the attacker probably loses material: after the killers.
        sc[i] = (bad_capture(m) ? 1 << 26 : 1 << 28) + mvv_lva(pos, m) + (v2 ? hist.capture_score(pos, m) / 16 : 0);
      else if (m == killers[ply][0])
        sc[i] = (1 << 27);
      else if (m == killers[ply][1])
        sc[i] = (1 << 27) - 1;
      else if (m == counter)
        sc[i] = (1 << 27) - 2;
      else
        sc[i] = (v2 ? hist.quiet_score(pos, m, prev) : hist.butterfly[pos.side_to_move()][m.from()][m.to()]) -
                (m.is_pass() ? 1 << 16 : 0);
    }
  }

  bool bad_capture(Move m) const {
    return PIECE_CP[type_of(pos.piece_on(m.from()))] > PIECE_CP[type_of(pos.piece_on(m.to()))] &&
           pos.attacked(m.to(), ~pos.side_to_move());
  }

  static Move pick(MoveList& ml, int* sc, int i) {
    int b = i;
    for (int j = i + 1; j < ml.size; ++j)
      if (sc[j] > sc[b]) b = j;
    std::swap(ml.moves[i], ml.moves[b]);
    std::swap(sc[i], sc[b]);
    return ml.moves[i];
  }

  // After a beta cutoff: reward the move that cut, punish the quiets (and captures) tried before it.
  void update_stats(Move best, bool best_quiet, const Move* quiets, int nq, const Move* captures, int nc, int depth,
                    int ply, const PieceTo prev[2]) {
    int bonus = std::min(depth * depth * 8, 4000);
    PieceTo none[2];
    const PieceTo* p = has(AB_HISTORY) ? prev : none;  // version 1: butterfly only
    if (best_quiet) {
      hist.update_quiet(pos, best, p, bonus);
      for (int i = 0; i < nq; ++i) hist.update_quiet(pos, quiets[i], p, -bonus);
      if (killers[ply][0] != best) killers[ply][1] = killers[ply][0], killers[ply][0] = best;
      if (has(AB_HISTORY) && prev[0].valid()) hist.counter[prev[0].piece][prev[0].to] = best;
    }
    if (!has(AB_HISTORY)) return;
    if (!best_quiet) hist.update_capture(pos, best, bonus);
    for (int i = 0; i < nc; ++i) hist.update_capture(pos, captures[i], -bonus);
  }

  bool can_null(int ply) const {
    Color us = pos.side_to_move();
    // The pass is a real move here, so there is no zugzwang issue; but right after the opponent's
    // pass (or in bikjang) our pass ends the game, and with bare material or near the move rule the
    // counting result dominates what a reduced search can see.
    return ply > 0 && !pos.in_check() && !pos.in_bikjang() && !opponent_passed(pos) && pos.material(us) - 2 * 3 >= 7 &&
           info->move_rule - pos.rule50() > 12;
  }

  int qsearch(int alpha, int beta, int ply, int qply);
  int search(int depth, int alpha, int beta, int ply, bool cut_node);
  int search_root(int depth, int alpha, int beta);
};

int AlphaBetaEngine::Impl::qsearch(int alpha, int beta, int ply, int qply) {
  pv_len[ply] = ply;
  if (check_abort()) return 0;
  ++nodes;
  seldepth = std::max(seldepth, ply);
  if (pos.pass_ended()) return result_score(game_result(pos, 1), ply);
  // Out of check the pass is legal, so the game is not mated: the moves wait until the stand-pat fails.
  bool in_check = pos.in_check();
  MoveList ml;
  if (in_check) generate_legal(pos, ml);
  GameResult r = game_result(pos, in_check ? ml.size : 1);
  if (r.over()) return result_score(r, ply);
  if (ply >= MAX_PLY) return static_eval(pos);

  int best = -INF, pass_score;
  if (!in_check || qply >= QS_MAX) {
    best = static_eval(pos);
    if (pass_ends_game(ply, pass_score)) best = std::max(best, pass_score);
    if (best >= beta || qply >= QS_MAX) return best;
    alpha = std::max(alpha, best);
  }
  if (!in_check) generate_legal(pos, ml);
  // Captures; all evasions in check; quiet checks on the first quiescence ply only.
  constexpr int SKIP = -(1 << 30), QUIET_CHECK = -(1 << 29);
  int sc[MoveList::CAPACITY];
  Color us = pos.side_to_move();
  for (int i = 0; i < ml.size; ++i) {
    Move m = ml[i];
    sc[i] = is_capture(pos, m)                                    ? (1 << 20) + mvv_lva(pos, m)
            : in_check                                            ? hist.butterfly[us][m.from()][m.to()]
            : qply == 0 && !m.is_pass() && may_give_check(pos, m) ? QUIET_CHECK
                                                                  : SKIP;
  }
  for (int i = 0; i < ml.size; ++i) {
    Move m = pick(ml, sc, i);
    if (sc[i] == SKIP) break;
    if (sc[i] == QUIET_CHECK) {
      pos.do_move(m);
      bool check = pos.in_check();
      int s = check ? -qsearch(-beta, -alpha, ply + 1, qply + 1) : -INF;
      pos.undo_move();
      if (aborted) return 0;
      if (s > best) {
        best = s;
        if (s > alpha) {
          alpha = s;
          update_pv(ply, m);
          if (s >= beta) break;
        }
      }
      continue;
    }
    // Delta pruning: even winning this piece cannot lift us to alpha.
    if (!in_check && best + PIECE_CP[type_of(pos.piece_on(m.to()))] + 250 <= alpha && alpha < DECISIVE) continue;
    // Captures that probably lose material are left to the main search.
    if (!in_check && bad_capture(m)) continue;
    pos.do_move(m);
    int s = -qsearch(-beta, -alpha, ply + 1, qply + 1);
    pos.undo_move();
    if (aborted) return 0;
    if (s > best) {
      best = s;
      if (s > alpha) {
        alpha = s;
        update_pv(ply, m);
        if (s >= beta) break;
      }
    }
  }
  return best;
}

int AlphaBetaEngine::Impl::search(int depth, int alpha, int beta, int ply, bool cut_node) {
  if (depth <= 0) return qsearch(alpha, beta, ply, 0);
  bool pv_node = beta - alpha > 1;
  pv_len[ply] = ply;
  if (check_abort()) return 0;
  ++nodes;
  seldepth = std::max(seldepth, ply);
  if (pos.pass_ended()) return result_score(game_result(pos, 1), ply);
  // Out of check the pass is legal, so the moves wait until the TT and the pruning below have not cut.
  bool in_check = pos.in_check();
  MoveList ml;
  if (in_check) generate_legal(pos, ml);
  GameResult r = game_result(pos, in_check ? ml.size : 1);
  if (r.over()) return result_score(r, ply);
  if (ply >= MAX_PLY) return static_eval(pos);

  // Mate distance pruning.
  alpha = std::max(alpha, -MATE + ply);
  beta = std::min(beta, MATE - ply - 1);
  if (alpha >= beta) return alpha;

  uint64_t key = tt_key();
  const TTEntry* tte = tt.probe(key);
  Move tt_move = Move::none();
  const Move skip = excluded[ply];
  int tt_score = 0, tt_depth = -1;  // copies: the searches below may replace the entry
  Bound tt_bound = BOUND_UPPER;
  if (tte) {
    tt_depth = tte->depth, tt_bound = tte->bound();
    tt_move.raw = tte->move;  // checked against the legal moves below
    int s = tt_score = score_from_tt(tte->score, ply);
    if (!pv_node && skip.is_none() && tte->depth >= depth &&
        (tte->bound() == BOUND_EXACT || (tte->bound() == BOUND_LOWER && s >= beta) ||
         (tte->bound() == BOUND_UPPER && s <= alpha)))
      return s;
  }

  int eval = in_check ? -INF : tte ? tte->eval : static_eval(pos);
  // Improving: our static evaluation rose since our previous move (a cut is likelier; prune less).
  static_evals[ply] = in_check ? NO_EVAL : eval;
  bool improving =
      has(AB_IMPROVING) && !in_check && ply >= 2 && static_evals[ply - 2] != NO_EVAL && eval > static_evals[ply - 2];

  if (!pv_node && !in_check && skip.is_none()) {
    // Reverse futility: far above beta at low depth.
    if (depth <= 6 && eval - 90 * (depth - improving) >= beta && std::abs(beta) < DECISIVE) return eval;
    // Razoring: far below alpha near the leaves, only captures can save it.
    if (has(AB_RAZOR) && depth <= 3 && eval + 400 + 250 * depth * depth < alpha && std::abs(alpha) < DECISIVE) {
      int v = qsearch(alpha - 1, alpha, ply, 0);
      if (aborted) return 0;
      if (v < alpha) return v;
    }
    // Null move: our pass, searched for real with reduced depth.
    if (depth >= 3 && eval >= beta && can_null(ply)) {
      int R = 3 + depth / 4;
      Square k = pos.king_square(pos.side_to_move());
      pos.do_move(Move(k, k));
      int s = -search(depth - 1 - R, -beta, -beta + 1, ply + 1, !cut_node);
      pos.undo_move();
      if (aborted) return 0;
      if (s >= beta) return s >= DECISIVE ? beta : s;
    }
  }
  if (!in_check) generate_legal(pos, ml);
  if (!ml.contains(tt_move)) tt_move = Move::none();
  // No move to try first: a shallower look is cheaper than a wide search without ordering.
  if (tt_move.is_none() && depth >= 6) --depth;

  // Singular extension: when no other move comes within a small margin of the TT move's (lower-bound)
  // score in a shallower search without it, the TT move is forced and gets one ply more. When even
  // the others beat beta (multi-cut), the node fails high without searching the TT move.
  int tt_extension = 0;
  if (has(AB_SINGULAR) && skip.is_none() && depth >= 6 && !tt_move.is_none() && tt_depth >= depth - 3 &&
      tt_bound != BOUND_UPPER && std::abs(tt_score) < DECISIVE && ply < 2 * root_depth) {
    int singular_beta = tt_score - 2 * depth;
    excluded[ply] = tt_move;
    int v = search((depth - 1) / 2, singular_beta - 1, singular_beta, ply, cut_node);
    excluded[ply] = Move::none();
    if (aborted) return 0;
    if (v < singular_beta)
      tt_extension = 1;
    else if (singular_beta >= beta)
      return singular_beta;
  }

  int sc[MoveList::CAPACITY];
  PieceTo prev[2] = {previous_move(pos, 0), previous_move(pos, 1)};
  score_moves(ml, sc, tt_move, ply, prev);
  killers[ply + 1][0] = killers[ply + 1][1] = Move::none();
  Move quiets[MoveList::CAPACITY], captures[MoveList::CAPACITY];
  int nquiets = 0, ncaptures = 0, searched = 0, best = -INF;
  Move best_move = Move::none();
  for (int i = 0; i < ml.size; ++i) {
    Move m = pick(ml, sc, i);
    if (m == skip) continue;
    bool quiet = !is_capture(pos, m);
    pos.do_move(m);
    bool gives_check = pos.in_check();
    if (!pv_node && !in_check && quiet && !gives_check && best > -DECISIVE && sc[i] < (1 << 27)) {
      // Late move pruning and futility pruning of quiet moves near the leaves.
      if ((depth <= 3 && searched >= LMP_COUNT[depth] + 4 * improving) || (depth <= 2 && eval + 120 * depth <= alpha)) {
        pos.undo_move();
        continue;
      }
    }
    int new_depth = depth - 1 + ((gives_check && ply < 2 * root_depth) || (m == tt_move && tt_extension) ? 1 : 0);
    int s;
    if (searched == 0) {
      s = -search(new_depth, -beta, -alpha, ply + 1, false);
    } else {
      int red = 0;
      if (depth >= 3 && searched >= (pv_node ? 3 : 2) && quiet && !in_check && !gives_check) {
        red = LMR.r[std::min(depth, 63)][std::min(searched, 63)];
        red += cut_node - pv_node - (sc[i] >= (has(AB_HISTORY) ? (1 << 27) - 2 : 1 << 27)) +
               (has(AB_IMPROVING) && !improving);
        red -= has(AB_HISTORY) ? std::clamp(sc[i], -60000, 60000) / 12000
                               : hist.butterfly[~pos.side_to_move()][m.from()][m.to()] / 6000;
        red = std::clamp(red, 0, new_depth - 1);
      }
      s = -search(new_depth - red, -alpha - 1, -alpha, ply + 1, true);
      if (s > alpha && red > 0) s = -search(new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
      if (s > alpha && s < beta) s = -search(new_depth, -beta, -alpha, ply + 1, false);
    }
    pos.undo_move();
    if (aborted) return 0;
    ++searched;
    if (s > best) {
      best = s;
      if (s > alpha) {
        best_move = m;
        alpha = s;
        if (pv_node) update_pv(ply, m);
        if (s >= beta) {
          if (quiet || has(AB_HISTORY)) update_stats(m, quiet, quiets, nquiets, captures, ncaptures, depth, ply, prev);
          break;
        }
      }
    }
    if (quiet && nquiets < MoveList::CAPACITY) quiets[nquiets++] = m;
    if (!quiet && ncaptures < MoveList::CAPACITY) captures[ncaptures++] = m;
  }
  if (!skip.is_none()) return searched ? best : alpha;  // the TT entry belongs to the full node
  Bound b = best >= beta ? BOUND_LOWER : pv_node && !best_move.is_none() ? BOUND_EXACT : BOUND_UPPER;
  tt.store(key, score_to_tt(best, ply), in_check ? 0 : eval, best_move, depth, b);
  return best;
}

int AlphaBetaEngine::Impl::search_root(int depth, int alpha, int beta) {
  pv_len[0] = 0;
  int best = -INF;
  for (size_t i = 0; i < root.size(); ++i) {
    Move m = root[i].move;
    bool quiet = !is_capture(pos, m);
    pos.do_move(m);
    bool gives_check = pos.in_check();
    int new_depth = depth - 1 + (gives_check ? 1 : 0), s;
    if (i == 0) {
      s = -search(new_depth, -beta, -alpha, 1, false);
    } else {
      int red = depth >= 3 && i >= 4 && quiet && !gives_check && !pos.state(1).check ? 1 : 0;
      s = -search(new_depth - red, -alpha - 1, -alpha, 1, true);
      if (s > alpha && (red || s < beta)) s = -search(new_depth, -beta, -alpha, 1, false);
    }
    pos.undo_move();
    if (aborted) return best;
    if (i == 0 || s > alpha) {
      root[i].score = s;
      update_pv(0, m);
      // Move the new best to the front, keeping the order of the others.
      std::rotate(root.begin(), root.begin() + i, root.begin() + i + 1);
      best = std::max(best, s);
      if (s > alpha) alpha = s;
      if (s >= beta) break;
    } else {
      root[i].score = -INF;
    }
  }
  return best;
}

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
  s.pos = root_pos;
  s.info = &ruleset_info(root_pos.ruleset());
  s.start = Clock::now();
  s.nodes = 0;
  s.node_limit = lim.nodes;
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
  s.hard_ms = lim.movetime_ms > 0 ? lim.movetime_ms : 0;
  s.soft_ms = 0;
  if (lim.time_ms[us] > 0) {
    int64_t t = lim.time_ms[us], inc = std::max(0, lim.inc_ms[us]);
    int mtg = lim.movestogo > 0 ? std::min(lim.movestogo, 40) : 30;
    int64_t reserve = std::min<int64_t>(t / 10, 100);  // move overhead
    int64_t avail = std::max<int64_t>(1, t - reserve);
    int64_t alloc = std::min(avail, t / mtg + inc * 3 / 4);
    int64_t hard = std::min(avail, std::max<int64_t>(alloc * 4, 1));
    if (mtg == 1) hard = avail;
    s.soft_ms = std::max<int64_t>(1, alloc);
    s.hard_ms = s.hard_ms ? std::min(s.hard_ms, hard) : hard;
  }
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
