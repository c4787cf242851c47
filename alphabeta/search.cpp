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

// Entering a node: counts it and scores it at once where the search stops, the game is over or the ply
// limit is reached; else NO_SCORE. In check the legal moves come here (the ending counts them); out of
// check they wait until the stand-pat, the TT and the pruning have not cut (generate_moves).
inline int AlphaBetaEngine::Impl::enter_node(int ply, bool& in_check, MoveList& ml) {
  pv_len[ply] = ply;
  if (check_abort()) return 0;
  ++nodes;
  seldepth = std::max(seldepth, ply);
  if (pos.pass_ended()) return result_score(game_result(pos, 1), ply);
  in_check = pos.in_check();
  if (in_check) generate_legal(pos, ml);
  GameResult r = game_result(pos, in_check ? ml.size : 1);
  if (r.over()) return result_score(r, ply);
  if (ply >= MAX_PLY) return static_eval(pos);
  return NO_SCORE;
}

int AlphaBetaEngine::Impl::qsearch(int alpha, int beta, int ply, int qply) {
  bool in_check = false;
  MoveList ml;
  if (int v = enter_node(ply, in_check, ml); v != NO_SCORE) return v;

  int best = -INF, pass_score;
  if (!in_check || qply >= QS_MAX) {
    best = static_eval(pos);
    if (pass_ends_game(ply, pass_score)) best = std::max(best, pass_score);
    if (best >= beta || qply >= QS_MAX) return best;
    alpha = std::max(alpha, best);
  }
  if (!in_check && !generate_moves(ml)) return result_score(game_result(pos, 0), ply);
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

// The node's TT entry, copied into t (the searches below may replace it): its score where it decides the
// node (a non-PV node searched at least this deep, bound on the right side), else NO_SCORE.
inline int AlphaBetaEngine::Impl::probe_tt(uint64_t key, int depth, int alpha, int beta, int ply, bool pv_node,
                                           Move skip, NodeTT& t) const {
  const TTEntry* tte = tt.probe(key);
  if (!tte) return NO_SCORE;
  t.found = true;
  t.depth = tte->depth, t.bound = tte->bound(), t.eval = tte->eval;
  t.move.raw = tte->move;  // checked against the legal moves later
  int s = t.score = score_from_tt(tte->score, ply);
  if (!pv_node && skip.is_none() && tte->depth >= depth &&
      (tte->bound() == BOUND_EXACT || (tte->bound() == BOUND_LOWER && s >= beta) ||
       (tte->bound() == BOUND_UPPER && s <= alpha)))
    return s;
  return NO_SCORE;
}

// Before the moves of a non-PV node out of check: its score where reverse futility, razoring or the null
// move cut it, else NO_SCORE.
inline int AlphaBetaEngine::Impl::prune_node(int depth, int alpha, int beta, int ply, bool cut_node, int eval,
                                             bool improving) {
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
  return NO_SCORE;
}

// Singular extension: when no other move comes within a small margin of the TT move's (lower-bound)
// score in a shallower search without it, the TT move is forced and gets one ply more (extension = 1).
// When even the others beat beta (multi-cut), the node fails high without searching the TT move: its
// score, else NO_SCORE.
inline int AlphaBetaEngine::Impl::singular_extension(int depth, int beta, int ply, bool cut_node, const NodeTT& t,
                                                     Move skip, int& extension) {
  if (!has(AB_SINGULAR) || !skip.is_none() || depth < 6 || t.move.is_none() || t.depth < depth - 3 ||
      t.bound == BOUND_UPPER || std::abs(t.score) >= DECISIVE || ply >= 2 * root_depth)
    return NO_SCORE;
  int singular_beta = t.score - 2 * depth;
  excluded[ply] = t.move;
  int v = search((depth - 1) / 2, singular_beta - 1, singular_beta, ply, cut_node);
  excluded[ply] = Move::none();
  if (aborted) return 0;
  if (v < singular_beta)
    extension = 1;
  else if (singular_beta >= beta)
    return singular_beta;
  return NO_SCORE;
}

// Late move reduction of a quiet move that gives no check, made (the mover is the side not to move),
// out of check; move_score is its ordering score.
inline int AlphaBetaEngine::Impl::reduction(int depth, int searched, int new_depth, bool pv_node, bool cut_node,
                                            bool improving, int move_score, Move m) const {
  int red = LMR.r[std::min(depth, 63)][std::min(searched, 63)];
  red += cut_node - pv_node - (move_score >= (has(AB_HISTORY) ? (1 << 27) - 2 : 1 << 27)) +
         (has(AB_IMPROVING) && !improving);
  red -= has(AB_HISTORY) ? std::clamp(move_score, -60000, 60000) / 12000
                         : hist.butterfly[~pos.side_to_move()][m.from()][m.to()] / 6000;
  return std::clamp(red, 0, new_depth - 1);
}

int AlphaBetaEngine::Impl::search(int depth, int alpha, int beta, int ply, bool cut_node) {
  if (depth <= 0) return qsearch(alpha, beta, ply, 0);
  bool pv_node = beta - alpha > 1;
  bool in_check = false;
  MoveList ml;
  if (int v = enter_node(ply, in_check, ml); v != NO_SCORE) return v;

  // Mate distance pruning.
  alpha = std::max(alpha, -MATE + ply);
  beta = std::min(beta, MATE - ply - 1);
  if (alpha >= beta) return alpha;

  uint64_t key = tt_key();
  const Move skip = excluded[ply];
  NodeTT t;
  if (int v = probe_tt(key, depth, alpha, beta, ply, pv_node, skip, t); v != NO_SCORE) return v;

  int eval = in_check ? -INF : t.found ? t.eval : static_eval(pos);
  // Improving: our static evaluation rose since our previous move (a cut is likelier; prune less).
  static_evals[ply] = in_check ? NO_EVAL : eval;
  bool improving =
      has(AB_IMPROVING) && !in_check && ply >= 2 && static_evals[ply - 2] != NO_EVAL && eval > static_evals[ply - 2];
  if (!pv_node && !in_check && skip.is_none())
    if (int v = prune_node(depth, alpha, beta, ply, cut_node, eval, improving); v != NO_SCORE) return v;

  if (!in_check && !generate_moves(ml)) return result_score(game_result(pos, 0), ply);
  if (!ml.contains(t.move)) t.move = Move::none();
  // No move to try first: a shallower look is cheaper than a wide search without ordering.
  if (t.move.is_none() && depth >= 6) --depth;
  int tt_extension = 0;
  if (int v = singular_extension(depth, beta, ply, cut_node, t, skip, tt_extension); v != NO_SCORE) return v;

  int sc[MoveList::CAPACITY];
  PieceTo prev[2] = {previous_move(pos, 0), previous_move(pos, 1)};
  score_moves(ml, sc, t.move, ply, prev);
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
    int new_depth = depth - 1 + ((gives_check && ply < 2 * root_depth) || (m == t.move && tt_extension) ? 1 : 0);
    // Principal variation search: the first move with the full window, the others with a null window
    // (reduced late quiet moves first), searched again where they beat alpha.
    int s;
    if (searched == 0) {
      s = -search(new_depth, -beta, -alpha, ply + 1, false);
    } else {
      int red = depth >= 3 && searched >= (pv_node ? 3 : 2) && quiet && !in_check && !gives_check
                    ? reduction(depth, searched, new_depth, pv_node, cut_node, improving, sc[i], m)
                    : 0;
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
