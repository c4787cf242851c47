// Node searches: PVS with aspiration-window roots, TT, null move (= a real pass), LMR, singular and
// check extensions, quiescence on captures. Game endings come from the rules core at every node, so
// passes, bikjang, counting, repetition and perpetual check are scored exactly.
#include <cmath>

#include "alphabeta/search_impl.h"

namespace jz {

using namespace ab;

namespace {

int score_to_tt(int s, int ply) { return s >= DECISIVE ? s + ply : s <= -DECISIVE ? s - ply : s; }
int score_from_tt(int s, int ply) { return s >= DECISIVE ? s - ply : s <= -DECISIVE ? s + ply : s; }

struct Reductions {
  int8_t r[64][64];
  Reductions() {
    for (int d = 0; d < 64; ++d)
      for (int m = 0; m < 64; ++m) r[d][m] = int8_t(d && m ? 0.5 + std::log(d) * std::log(m) / 2.2 : 0);
  }
};
const Reductions LMR;
constexpr int LMP_COUNT[4] = {0, 8, 14, 22};

}  // namespace

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

}  // namespace jz
