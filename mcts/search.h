// PUCT / Gumbel search over the rules core. A Tree is one game's search; leaves are handed out in
// batches (gather) and their evaluations handed back (apply), so that one thread can drive many trees
// (self-play) and fill one evaluator batch. run_search() is the synchronous single-tree driver;
// mcts/parallel.h searches one tree with many threads (play).
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "mcts/gumbel.h"
#include "nn/evaluator.h"

namespace jz {

// The mate guard of play (UCI engine, timed match players): mates in 3 moves whose first may be quiet, and
// 5-move check sequences. Its cost per root (`janggi-zero bench guard`, about 1% of a 1 s move) and what it
// catches in lost games are measured in docs/training/warmstart-5/README.md.
constexpr int PLAY_MATE_GUARD = 3, PLAY_MATE_GUARD_CHECKS = 5;
// The move play is about to make is checked deeper (SearchParams::mate_verify): mates in 4 moves whose first 2
// may be quiet, and 7-move check sequences. Too dear for every root move (bench guard: ~18% of a 1 s move for
// 2 quiet moves at 3), cheap for the one played; docs/training/xiangqi/README.md has what it caught.
constexpr int PLAY_MATE_VERIFY = 4, PLAY_MATE_VERIFY_QUIET = 2, PLAY_MATE_VERIFY_CHECKS = 7;
// Positions the checks of one move may visit: about 0.4 s at worst (unbounded, a rare one took 1.3 s); the
// 300 Janggi and 600 Xiangqi match positions of `bench guard` all fit, their p99 under 170,000.
constexpr int64_t PLAY_MATE_VERIFY_NODES = 250000;

// Leaves per network call in play (UCI engine, web, timed match players): a 1 s move is nearly all network
// time, and larger batches give more evaluations (16: +23%, 32: +35%) but each batch's leaves are chosen
// before any is evaluated: at equal evaluations batch 16 scored 32.5% against 8 with virtual loss; with
// virtual visits batches of 16 and 32 scored 45%, but end early at collisions and gain only 0-16%
// evaluations per second (docs/training/dagger/README.md, sessions 33-34).
constexpr int PLAY_BATCH = 8;

struct SearchParams {
  // Budget. simulations = visits to the root's children to reach, reused subtree visits included.
  int simulations = 800;
  double time_limit = 0;  // seconds per search; 0 = none

  // Selection: cpuct(N) = cpuct + cpuct_growth * log((N + cpuct_base) / cpuct_base) (lc0 style; 0 = KataGo
  // constant). Unvisited children take the parent's Q minus fpu_reduction * sqrt(visited policy mass).
  float cpuct = 1.1f;
  float cpuct_growth = 0.0f;
  float cpuct_base = 19652.0f;
  float fpu_reduction = 0.2f;
  float fpu_reduction_root = 0.1f;  // 0 is used instead while root noise is on
  int virtual_loss = 1;             // in-flight leaves count as this many lost visits each
  // In-flight leaves count as visits at the child's own mean instead of losses (WU-UCT, Liu et al. 2020):
  // a batch is still spread by the visit counts, but a good move is not made to look lost while in flight.
  bool virtual_visit = false;
  // A descent that ends on a leaf already in this batch (a collision) keeps its in-flight counts until the
  // gather returns, steering later descents elsewhere (lc0), up to this many per gather; 0 = the first
  // collision ends the batch.
  int max_collisions = 0;
  // Priors are the network's policy to the power 1/policy_temperature, renormalised (lc0's
  // PolicySoftmaxTemp): above 1 a sharp prior is flattened, so a large search looks at more moves.
  float policy_temperature = 1.0f;

  // Self-play root handling (only in full searches).
  bool root_noise = false;       // Dirichlet noise (PUCT root) or Gumbel noise g (Gumbel root)
  float dirichlet_alpha = 0.0f;  // per-move alpha; 0 = dirichlet_total / legal moves (KataGo)
  float dirichlet_total = 10.83f;
  float dirichlet_weight = 0.25f;
  float temperature = 0.0f;  // move choice ~ visits^(1/T); 0 = most visits (ignored by Gumbel)

  // Gumbel root (Danihelka et al. 2022): Gumbel-top-k of m actions, sequential halving on
  // g + logits + sigma(q), sigma(q) = (c_visit + max N) * c_scale * q with q mapped to [0, 1].
  bool gumbel = false;
  int gumbel_m = 16;
  float gumbel_c_visit = 50.0f;
  float gumbel_c_scale = 0.1f;
  bool gumbel_interior = false;    // interior nodes: deterministic improved-policy rule instead of PUCT
  bool gumbel_rescale_q = false;   // min-max rescaled completed Q (mctx rescale_values)
  bool gumbel_sample_move = true;  // play the Gumbel-sampled action; false: best improved-policy action
                                   // among the most visited (g ignored for the choice)

  // Score utility (KataGo): selection adds weight * (2/pi) * atan(margin / scale) to W - L, with the
  // margin head (material points) and the exact counting margin at terminal nodes. 0 = off.
  float score_utility_weight = 0.0f;
  float score_utility_scale = 10.0f;

  // The root may pass (false: the pass is not searched or played unless it is the only legal move or
  // the side to move stands in bikjang). Self-play bans early passes with it.
  bool root_pass = true;

  // Mate in one at expansion (CrazyAra): a leaf whose side to move can mate at once is proven when it is
  // expanded, so a mate the prior hides is neither missed nor walked into. A pass that answers bikjang
  // and wins the count counts as such a mate: the move that faces the generals while behind is lost.
  bool mate_in_one = true;

  // Mate guard at the root (play): each root move is checked with a small exhaustive mate search
  // (mcts/mate_search.h) before the search spends visits on it: wins within mate_guard moves whose first
  // mate_guard_quiet may be any move and the rest checks, and within mate_guard_checks moves that are all
  // checks (Janggi's long mates are check sequences). A move after which the opponent has such a win is
  // proven lost; one that gives the side to move such a win is proven won. 0 = off (self-play).
  int mate_guard = 0;
  int mate_guard_quiet = 1;
  int mate_guard_checks = 0;
  // The same question, deeper, for the move the search chose (result()): a proven loss is marked and the
  // next choice checked, until one is not proven lost (play; 0 = off, self-play).
  int mate_verify = 0;
  int mate_verify_quiet = 2;
  int mate_verify_checks = 0;
  int64_t mate_verify_nodes = 0;  // positions all the checks of one result() may visit; 0 = no limit

  // KataGo forced playouts at the root (PUCT root only, full searches) + policy target pruning.
  bool forced_playouts = false;
  float forced_k = 2.0f;

  // Playout cap randomisation: cheap searches (false) disable noise/forced playouts and are not
  // policy targets. The caller picks full/cheap and `simulations` per move.
  bool full_search = true;

  uint64_t seed = 0;  // reset() reseeds the tree's RNG from this
};

struct SearchResult {
  Move move;                         // chosen move (none if the root is terminal)
  std::vector<Move> moves;           // root legal moves, generate_legal order
  std::vector<int> visits;           // completed visits per root move
  std::vector<float> prior;          // root priors: the network policy after policy_temperature, before noise
  std::vector<float> policy_target;  // visits (pruned with forced playouts) or Gumbel improved policy; sums to 1
  bool is_policy_target = false;     // full search: record policy_target for training
  float wdl[3] = {0, 1, 0};          // root, side to move's view
  float q = 0;                       // wdl[0] - wdl[2]
  float margin = 0;                  // expected material margin, side to move's view
  float raw_wdl[3] = {0, 1, 0};      // network's own evaluation of the root
  std::vector<Move> pv;              // best line
  int playouts = 0;                  // playouts of this search (terminal re-visits included)
  int root_visits = 0;               // sum of visits over the root's children
  int max_depth = 0;                 // deepest leaf of this search (plies below the root)
  float avg_depth = 0;
  double seconds = 0;
  double nps = 0;         // playouts per second
  bool terminal = false;  // root is a finished game
  int proven = 0;         // solved by the search: +1 side to move wins, -1 loses, 0 unknown
  int proof_plies = 0;    // plies to the end along the proof (mate distance) when proven
};

namespace mcts {
struct Node;
}

// One leaf handed out by gather(): the caller evaluates input() and passes the Evaluation to apply().
struct LeafRequest {
  Position pos;    // the leaf, with full game history
  MoveList moves;  // its legal moves (generate_legal order)
  mcts::Node* node = nullptr;
  const void* owner = nullptr;  // the tree that handed it out
  int depth = 0;
  int mate_edge = -1;     // a move of pos that wins at once (SearchParams::mate_in_one), or -1
  float mate_margin = 0;  // the mover's material margin after it
  EvalInput input() const { return EvalInput{&pos, &moves}; }
};

class Tree {
 public:
  explicit Tree(const SearchParams& params = SearchParams());
  ~Tree();
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  // New game / position (the history it carries is used for repetition). Frees the old tree, reseeds.
  void reset(const Position& pos);
  // Plays m at the root and keeps its subtree; returns false (tree unchanged) if m is illegal.
  bool advance(Move m);
  // Moves the root to pos when pos continues the root's game by at most max_plies moves, keeping the
  // subtree (tree reuse between the moves of a game); otherwise reset(pos). Returns true if it kept it.
  bool reach(const Position& pos, int max_plies = 8);
  // Parameters for the next search (applied at reset/advance/new_search).
  void set_params(const SearchParams& params);
  const SearchParams& params() const { return params_; }
  // Starts a new search of the same root (keeps the tree, fresh budget, root noise re-drawn).
  void new_search();

  // Descends up to max_leaves times with virtual loss and appends the leaves that need an evaluation to
  // out. Terminal leaves are scored by the rules and backed up at once. Returns the number appended;
  // 0 with !finished() means every remaining budgeted leaf is in flight (or collided).
  int gather(int max_leaves, std::vector<LeafRequest>& out);
  // Expands and backs up n leaves this tree handed out, with their evaluations (any order).
  void apply(const LeafRequest* reqs, const Evaluation* evals, int n);
  // Takes back n leaves this tree handed out without an evaluation (the evaluator failed): the tree is
  // as if they had never been gathered.
  void abandon(const LeafRequest* reqs, int n);
  // Budget (or time) spent and nothing in flight, or the root is terminal.
  bool finished() const;
  // Budget or time spent (leaves may still be in flight).
  bool budget_spent() const;
  int in_flight() const { return in_flight_; }

  // Everything about the search so far; result() also draws the move (temperature, consumes the RNG),
  // summary() reports the deterministic choice and leaves the RNG alone (info output).
  SearchResult result();
  SearchResult summary() const;
  const Position& root_position() const { return root_pos_; }
  // Tree size: nodes allocated and bytes they use (nodes + edge arrays).
  size_t node_count() const { return nodes_; }
  size_t memory_bytes() const;

 private:
  int gather_leaves(int max_leaves, std::vector<LeafRequest>& out, std::vector<mcts::Node*>& collided);
  int select_puct(const mcts::Node* node, bool is_root) const;
  int select_improved(const mcts::Node* node) const;
  int select_forced(const mcts::Node* node) const;
  int select_root_gumbel() const;
  void prepare_root();
  void guard_root();
  void verify_choice();
  void backup(mcts::Node* leaf, double v, float d, float m, int depth);
  void free_subtree(mcts::Node* node);
  mcts::Node* child_at(mcts::Node* node, int index, bool create);
  std::vector<float> root_visits_vector(bool pruned) const;
  std::vector<Move> principal_line(int choice) const;
  int gumbel_choice() const;
  mcts::QTransform qtransform() const;
  // Whether root edge may be searched, be a policy target and be played (not a banned pass): the one
  // test that selection, targets, the move choice and sampling all ask, also over a reused subtree.
  bool root_eligible(int edge) const { return edge != root_banned_; }
  float cpuct_at(double n) const;

  SearchParams params_, next_params_;
  Position root_pos_, work_;
  mcts::Node* root_ = nullptr;
  size_t nodes_ = 0, edges_ = 0;
  std::mt19937_64 rng_;
  bool rooted_ = false;  // reset() has given the tree a position
  bool root_prepared_ = false;
  bool root_noised_ = false;
  std::vector<float> root_raw_prior_;
  std::vector<float> gumbel_g_;    // per root edge
  std::vector<int> gumbel_cands_;  // root edge indices, best g + logit first
  std::vector<int> gumbel_seq_;    // sequential-halving visit schedule
  int root_banned_ = -1;           // root edge excluded from this search (a pass), or -1
  int in_flight_ = 0;
  int playouts_ = 0;
  long depth_sum_ = 0;
  int max_depth_ = 0;
  double start_time_ = 0;
};

// Play's mate search (UCI engine, web, timed match players): the root guard and the chosen move's check.
inline void set_play_mate_search(SearchParams& p, bool guard, bool verify) {
  p.mate_guard = guard ? PLAY_MATE_GUARD : 0;
  p.mate_guard_checks = guard ? PLAY_MATE_GUARD_CHECKS : 0;
  p.mate_verify = verify ? PLAY_MATE_VERIFY : 0;
  p.mate_verify_quiet = PLAY_MATE_VERIFY_QUIET;
  p.mate_verify_checks = verify ? PLAY_MATE_VERIFY_CHECKS : 0;
  p.mate_verify_nodes = PLAY_MATE_VERIFY_NODES;
}

// The search's root moves with visits, its choice first and then by visits: the candidates a play-time check
// (alphabeta/tactics.h) tries in turn.
std::vector<Move> moves_by_preference(const SearchResult& r);

// Synchronous driver: gathers up to `batch` leaves at a time (0 = evaluator's preferred batch) until
// the tree is finished.
SearchResult run_search(Tree& tree, Evaluator& eval, int batch = 0);

}  // namespace jz
