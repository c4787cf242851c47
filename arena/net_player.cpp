// net:PATH[,sims=N|movetime=MS][,batch=B][,reuse=0|1][,mate1=0|1][,guard=0|1][,verify=0|1][,score=W]
//   [,device=cpu|cuda|auto]
//   [,precision=fp32|bf16|auto][,cpuct=C,cpuct_growth=G,fpu=F,ptemp=T] (search constants, for tuning play)
//   [,vvisit=0|1,collisions=N] (how a batch is gathered: SearchParams::virtual_visit, max_collisions)
// MCTS (mcts/) with a network from a model file (nn/). Networks are loaded once per process and
// path and shared by every game (NetworkEvaluator is thread-safe); each player has its own tree.
// A sims budget is the repeatable yardstick: a fresh tree per move, one leaf per network call. A movetime
// player searches as the UCI engine does: the tree kept between moves, PLAY_BATCH leaves per call (8: 2.3x
// the playouts per CPU second of batch 1 for a 4x32 network on this project's CPU machine), and in bf16 where
// the hardware runs it natively (precision auto: about 2x the evaluations per second on AVX512-BF16).
// A sims player stays fp32 unless told: its games then replay the same on any machine.
// guard=0|1: the root's mate guard (SearchParams::mate_guard, PLAY_MATE_GUARD), on by default for movetime
// players as in the UCI engine (about 1-2% of a 1 s move); sims players keep the plain search of the
// learning curves unless told. verify=0|1: the chosen move checked deeper before it is played
// (SearchParams::mate_verify, PLAY_MATE_VERIFY); it follows guard unless told.
// tactics=D: the chosen move checked by a depth-D alpha-beta search (alphabeta/tactics.h) and replaced by the
// search's next move that does not lose tactics_margin=CP (250), in a tenth of a movetime player's time; 0 = off.
// Movetime players check at PLAY_TACTICS_DEPTH as the UCI engine does; sims players do not unless told.
#include <torch/torch.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <sys/stat.h>

#include "alphabeta/tactics.h"
#include "arena/player.h"
#include "mcts/search.h"
#include "nn/network_evaluator.h"

namespace jz {

namespace {

std::shared_ptr<Evaluator> shared_network(const std::string& path, const std::string& device,
                                          const std::string& precision, std::string* error) {
  static std::once_flag once;
  std::call_once(once, [] { torch::set_num_threads(1); });  // parallelism comes from concurrent games
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<Evaluator>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[device + "|" + precision + "|" + path];
  if (!slot) {
    try {
      NetworkOptions opts;
      opts.device = device;
      opts.precision = precision;
      slot = NetworkEvaluator::from_file(path, opts);
    } catch (const std::exception& e) {
      *error = e.what();
      return nullptr;
    }
  }
  return slot;
}

// Counts the positions a search sends to the network: the search effort a match records (playouts would
// count the free re-visits of proven subtrees too, hundreds of thousands per second near a mate).
class CountingEvaluator : public Evaluator {
 public:
  explicit CountingEvaluator(Evaluator& net) : net_(net) {}
  void evaluate(const EvalInput* in, int n, Evaluation* out) override {
    net_.evaluate(in, n, out);
    count += n;
  }
  std::string id() const override { return net_.id(); }
  int preferred_batch() const override { return net_.preferred_batch(); }
  RuleOptions rule_options() const override { return net_.rule_options(); }
  GameKind game() const override { return net_.game(); }
  int64_t count = 0;

 private:
  Evaluator& net_;
};

class NetPlayer : public Player {
 public:
  NetPlayer(std::shared_ptr<Evaluator> net, const SearchParams& params, int batch, bool reuse,
            const TacticsCheck& tactics)
      : net_(std::move(net)), tree_(params), batch_(batch), reuse_(reuse), tactics_(tactics) {
    if (tactics_.depth > 0) ab_ = std::make_unique<AlphaBetaEngine>();
  }
  bool accepts(const Position& start, std::string* error) override { return network_accepts(*net_, start, error); }
  PlayerReply play(const Position& pos, const std::string&, const std::vector<Move>&) override {
    if (reuse_)
      tree_.reach(pos);
    else
      tree_.reset(pos);
    CountingEvaluator counted(*net_);
    SearchResult s = run_search(tree_, counted, batch_);
    PlayerReply r;
    r.move = s.move;
    if (r.move.is_none()) r.error = "search found no move";
    r.info = "visits " + std::to_string(s.root_visits) + " q " + std::to_string(s.q);
    r.nodes = counted.count;
    if (ab_ && !r.move.is_none()) {
      TacticsVerdict v = check_tactics(*ab_, pos, moves_by_preference(s), tactics_);
      r.move = v.move;
      if (v.vetoed) r.info += " tactics " + std::to_string(v.first_cp) + "<" + std::to_string(v.best_cp);
    }
    return r;
  }

 private:
  std::shared_ptr<Evaluator> net_;
  Tree tree_;
  int batch_;
  bool reuse_;
  TacticsCheck tactics_;
  std::unique_ptr<AlphaBetaEngine> ab_;  // the tactics check's, when it is on
};

}  // namespace

bool make_net_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error) {
  if (s.arg.empty()) {
    *error = "player spec '" + s.text + "': net needs a model file, as net:PATH[,sims=N|movetime=MS]";
    return false;
  }
  struct stat st;
  if (::stat(s.arg.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = "player spec '" + s.text + "': no model file '" + s.arg + "'";
    return false;
  }
  int64_t sims = -1, movetime = -1, batch = -1, reuse = -1, mate1 = 1, guard = -1, verify = -1, vvisit = -1,
          collisions = -1, tactics = -1, tactics_margin = TacticsCheck{}.margin_cp;
  SearchParams params;
  double score = 0, cpuct = params.cpuct, cpuct_growth = params.cpuct_growth, fpu = params.fpu_reduction,
         ptemp = params.policy_temperature;
  if (!spec_keys(s, {"sims", "movetime", "batch", "reuse", "mate1", "guard", "verify", "score", "device", "precision",
                     "cpuct", "cpuct_growth", "fpu", "ptemp", "vvisit", "collisions", "tactics", "tactics_margin"},
                 error) ||
      !spec_double(s, "score", 0, 10, score, error) || !spec_double(s, "cpuct", 0.01, 100, cpuct, error) ||
      !spec_double(s, "cpuct_growth", 0, 100, cpuct_growth, error) || !spec_double(s, "fpu", 0, 10, fpu, error) ||
      !spec_double(s, "ptemp", 0.1, 10, ptemp, error) || !spec_int(s, "mate1", 0, 1, mate1, error) ||
      !spec_int(s, "guard", 0, 1, guard, error) || !spec_int(s, "verify", 0, 1, verify, error) ||
      !spec_int(s, "sims", 1, 100000000, sims, error) || !spec_int(s, "movetime", 1, 86400000, movetime, error) ||
      !spec_int(s, "batch", 1, 4096, batch, error) || !spec_int(s, "reuse", 0, 1, reuse, error) ||
      !spec_int(s, "vvisit", 0, 1, vvisit, error) || !spec_int(s, "collisions", 0, 4096, collisions, error) ||
      !spec_int(s, "tactics", 0, 8, tactics, error) || !spec_int(s, "tactics_margin", 0, 10000, tactics_margin, error))
    return false;
  bool timed = movetime > 0 && sims <= 0;
  if (batch < 0) batch = timed ? PLAY_BATCH : 1;
  if (reuse < 0) reuse = timed ? 1 : 0;
  std::string device = s.find("device") ? *s.find("device") : "auto";
  if (device != "cpu" && device != "auto" && device.rfind("cuda", 0) != 0) {
    *error = "player spec '" + s.text + "': device must be cpu, cuda[:N] or auto";
    return false;
  }
  std::string precision = s.find("precision") ? *s.find("precision") : timed ? "auto" : "fp32";
  if (precision != "fp32" && precision != "bf16" && precision != "auto") {
    *error = "player spec '" + s.text + "': precision must be fp32, bf16 or auto";
    return false;
  }
  params.cpuct = float(cpuct);
  params.cpuct_growth = float(cpuct_growth);
  params.fpu_reduction = float(fpu);  // the root keeps its own reduction (fpu_reduction_root)
  params.policy_temperature = float(ptemp);
  if (vvisit >= 0) params.virtual_visit = vvisit == 1;
  if (collisions >= 0) params.max_collisions = int(collisions);
  if (tactics < 0) tactics = timed ? PLAY_TACTICS_DEPTH : 0;
  TacticsCheck check;
  check.depth = int(tactics);
  check.margin_cp = int(tactics_margin);
  if (movetime >= 10 && tactics > 0) {  // the check's share of the move
    check.movetime_ms = int(std::max<int64_t>(1, movetime / 10));
    movetime -= check.movetime_ms;
  }
  if (movetime > 0) {
    params.time_limit = movetime / 1000.0;
    params.simulations = sims > 0 ? int(sims) : 100000000;  // time decides unless sims also given
  } else {
    params.simulations = sims > 0 ? int(sims) : 800;
  }
  params.seed = seed;
  params.mate_in_one = mate1 == 1;
  const bool guarded = guard == 1 || (guard < 0 && timed);
  set_play_mate_search(params, guarded, verify == 1 || (verify < 0 && guarded));
  params.score_utility_weight = float(score);
  if (!out) return true;  // checking a spec does not load the network
  std::shared_ptr<Evaluator> net = shared_network(s.arg, device, precision, error);
  if (!net) {
    *error = "player spec '" + s.text + "': " + *error;
    return false;
  }
  out->reset(new NetPlayer(std::move(net), params, int(batch), reuse == 1, check));
  return true;
}

}  // namespace jz
