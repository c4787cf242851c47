// Network play: one MCTS tree per engine, kept between moves when the game continues from its root.
#include <algorithm>
#include <cmath>

#include "mcts/parallel.h"
#include "mcts/search.h"
#include "play/net_search.h"

namespace jz::play_detail {

namespace {

// proven: +1 the side to move wins by force in proof_plies plies, -1 loses (UCI "score mate N", N in moves).
void fill(ThinkInfo& ti, int depth, int seldepth, uint64_t playouts, double nps, double seconds, const float wdl[3],
          float q, const std::vector<Move>& pv, int proven, int proof_plies) {
  ti.network = true;
  ti.depth = depth;
  ti.seldepth = seldepth;
  ti.nodes = playouts;
  ti.nps = uint64_t(nps);
  ti.time_ms = int(seconds * 1000);
  ti.score_cp = q_to_cp(q);
  ti.mate = proven * ((proof_plies + 1) / 2);
  ti.has_wdl = true;
  ti.wdl[0] = int(std::lround(wdl[0] * 1000));  // per mille; the draw share takes the rounding
  ti.wdl[2] = int(std::lround(wdl[2] * 1000));
  ti.wdl[1] = std::max(0, 1000 - ti.wdl[0] - ti.wdl[2]);
  ti.pv = pv;
}

class MctsSearch : public NetSearch {
 public:
  void new_game() override { have_root_ = false; }

  Move think(Evaluator& net, const Position& pos, const NetThink& t,
             const std::function<void(const ThinkInfo&)>& on_info, std::atomic<bool>* stop,
             ThinkInfo& final_info) override {
    SearchParams p;
    p.simulations = t.infinite || t.simulations <= 0 ? (1 << 30) : t.simulations;
    p.time_limit = t.infinite ? 0 : t.seconds;
    p.seed = 1;
    set_play_mate_search(p, true, true);
    tree_.set_params(p);
    reach(pos);
    tree_.new_search();

    ParallelOptions opt;
    opt.threads = t.threads;
    opt.stop = stop;
    opt.info_interval = 0.5;
    if (on_info)
      opt.on_info = [&](const SearchInfo& si) {
        ThinkInfo ti;
        fill(ti, si.depth, si.seldepth, uint64_t(si.playouts), si.nps, si.seconds, si.wdl, si.q, si.pv, si.proven,
             si.proof_plies);
        on_info(ti);
      };
    SearchResult r;
    try {
      r = search_parallel(tree_, net, opt);
    } catch (...) {  // the network failed: the caller reports it; the next search starts a fresh tree
      have_root_ = false;
      throw;
    }
    fill(final_info, int(std::ceil(r.avg_depth)), r.max_depth, uint64_t(r.playouts), r.nps, r.seconds, r.wdl, r.q,
         r.pv, r.proven, r.proof_plies);
    if (!r.move.is_none() && (r.pv.empty() || r.pv[0] != r.move)) final_info.pv.assign(1, r.move);
    preference_ = moves_by_preference(r);
    return r.move;
  }
  const std::vector<Move>& preference() const override { return preference_; }

 private:
  void reach(const Position& pos) {
    if (have_root_) {
      tree_.reach(pos);
    } else {
      tree_.reset(pos);
      have_root_ = true;
    }
  }

  Tree tree_;
  bool have_root_ = false;
  std::vector<Move> preference_;
};

}  // namespace

std::unique_ptr<NetSearch> make_net_search() { return std::make_unique<MctsSearch>(); }

}  // namespace jz::play_detail
