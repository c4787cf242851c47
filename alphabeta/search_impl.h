// Internal to the alpha-beta engine: the search state shared by the node searches (search.cpp) and
// the iterative-deepening driver with its time control (driver.cpp).
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <vector>

#include "alphabeta/checks.h"
#include "alphabeta/engine.h"
#include "alphabeta/eval.h"
#include "alphabeta/history.h"
#include "alphabeta/tt.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "util/random.h"

namespace jz::ab {

using Clock = std::chrono::steady_clock;
constexpr int MAX_PLY = AlphaBetaEngine::MAX_PLY;
constexpr int MATE = AlphaBetaEngine::MATE, WIN = AlphaBetaEngine::WIN;
constexpr int INF = 32500;
constexpr int DECISIVE = WIN - MAX_PLY;  // |score| >= DECISIVE: the game is decided
constexpr int QS_MAX = 12;               // quiescence plies
constexpr uint64_t PASS_KEY = 0x5bd1e9955bd1e995ULL;
constexpr int NO_EVAL = INT32_MIN;
constexpr int NO_SCORE = INT32_MIN;  // a phase of the node search that did not decide the node

inline bool is_capture(const Position& pos, Move m) { return !m.is_pass() && pos.piece_on(m.to()) != NO_PIECE; }

inline int mvv_lva(const Position& pos, Move m) {
  return PIECE_CP[type_of(pos.piece_on(m.to()))] * 8 - PIECE_CP[type_of(pos.piece_on(m.from()))] / 100;
}

// A node's TT entry, copied (the searches below may replace it); the defaults where there is none.
struct NodeTT {
  bool found = false;
  Move move = Move::none();
  int score = 0, depth = -1, eval = 0;
  Bound bound = BOUND_UPPER;
};

struct RootMove {
  Move move;
  int score = -INF;
};

}  // namespace jz::ab

namespace jz {

using namespace ab;  // internal header: included by search.cpp and driver.cpp only

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
  int rules_id = -1;  // rule set and options of the tables' game, -1 before the first search

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

  // The legal moves out of check; false when there are none. Janggi always has its pass, but in Xiangqi
  // no move out of check is stalemate, which enter_node cannot see before the moves exist.
  bool generate_moves(MoveList& ml) const {
    generate_legal(pos, ml);
    return ml.size > 0;
  }

    bool can_null(int ply) const {
    Color us = pos.side_to_move();
    // The pass is a real move here, so there is no zugzwang issue; but right after the opponent's
    // pass (or in bikjang) our pass ends the game, and with bare material or near the move rule the
    // counting result dominates what a reduced search can see.
    // In Xiangqi the pass is a null move (opponent_passed is false there): never two in a row either.
    bool after_pass = pos.history_size() > 0 && pos.last_move().is_pass();
    return ply > 0 && !pos.in_check() && !pos.in_bikjang() && !after_pass && pos.material(us) - 2 * 3 >= 7 &&
           info->move_rule - pos.rule50() > 12;
  }

  int qsearch(int alpha, int beta, int ply, int qply);
  int search(int depth, int alpha, int beta, int ply, bool cut_node);
  // The node search's phases (search.cpp): each returns the node's score where it decides it, else NO_SCORE.
  int enter_node(int ply, bool& in_check, MoveList& ml);
  int probe_tt(uint64_t key, int depth, int alpha, int beta, int ply, bool pv_node, Move skip, NodeTT& t) const;
  int prune_node(int depth, int alpha, int beta, int ply, bool cut_node, int eval, bool improving);
  int singular_extension(int depth, int beta, int ply, bool cut_node, const NodeTT& t, Move skip, int& extension);
  int reduction(int depth, int searched, int new_depth, bool pv_node, bool cut_node, bool improving, int move_score,
                Move m) const;
  int search_root(int depth, int alpha, int beta);
  // The driver's parts (driver.cpp).
  void start_search(const Position& root_pos, const AbLimits& lim, std::atomic<bool>* stop_flag);
  int order_root_moves();
  int aspiration_search(int depth, int prev);
  void report_iteration(int depth, int score, Move best, AbInfo& in) const;
  bool stop_deepening(int depth, int score, bool timed) const;
};

}  // namespace jz
