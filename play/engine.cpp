// PlayEngine: dispatch between the network search and the alpha-beta engine, and the shared report.
#include "play/engine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "alphabeta/engine.h"
#include "alphabeta/tactics.h"
#include "core/movegen.h"
#include "play/net_search.h"

namespace jz {

void cp_to_wdl(int cp, int out[3]) {
  // Expected score from a logistic curve; the draw share shrinks as the score leaves equality.
  double s = 1.0 / (1.0 + std::pow(10.0, -cp / 400.0));
  double d = 0.3 * (1.0 - std::fabs(2 * s - 1));
  double w = std::max(0.0, s - d / 2), l = std::max(0.0, 1 - s - d / 2);
  out[0] = int(std::lround(w * 1000));
  out[2] = int(std::lround(l * 1000));
  out[1] = 1000 - out[0] - out[2];
}

int q_to_cp(float q) {
  q = std::clamp(q, -0.999f, 0.999f);
  return int(std::lround(111.714640912 * std::tan(1.5620688421 * q)));
}

struct PlayEngine::Impl {
  explicit Impl(int hash_mb) : ab(size_t(hash_mb)) {}
  AlphaBetaEngine ab;
  AbLimits level_limits = AlphaBetaEngine::level("expert");
  std::unique_ptr<play_detail::NetSearch> net = play_detail::make_net_search();
};

PlayEngine::PlayEngine(int hash_mb) : impl_(std::make_unique<Impl>(std::clamp(hash_mb, 1, 65536))) {}
PlayEngine::~PlayEngine() = default;

bool play_has_mcts() { return play_detail::make_net_search() != nullptr; }

bool PlayEngine::set_network(std::shared_ptr<Evaluator> net, std::string* error) {
  if (net && !impl_->net) {
    if (error) *error = "this build has no MCTS search: network play is unavailable";
    return false;
  }
  net_ = std::move(net);
  if (impl_->net) impl_->net->new_game();
  return true;
}

void PlayEngine::set_hash(int mb) { impl_->ab.set_hash(size_t(std::clamp(mb, 1, 65536))); }

bool PlayEngine::set_level(const std::string& spec, std::string* error) {
  AbLimits l;
  if (!AlphaBetaEngine::parse_level(spec, l, error)) return false;
  impl_->level_limits = l;
  level_ = spec;
  return true;
}

void PlayEngine::new_game() {
  impl_->ab.new_game();
  if (impl_->net) impl_->net->new_game();
}

Move PlayEngine::think(const Position& pos, const SearchLimits& limits,
                       const std::function<void(const ThinkInfo&)>& on_info, std::atomic<bool>* stop,
                       ThinkInfo* final_info) {
  ThinkInfo fin;
  Move best = Move::none();
  std::string refused;
  if (!accepts(pos, &refused)) throw std::runtime_error(refused);  // never a wrong answer
  MoveList legal;
  generate_legal(pos, legal);
  if (legal.size == 0) {
    if (final_info) *final_info = fin;
    return best;
  }

  if (using_network()) {
    play_detail::NetThink t;
    t.threads = threads_;
    t.infinite = limits.infinite;
    t.simulations = limits.nodes ? int(std::min<uint64_t>(limits.nodes, 1u << 30)) : simulations_;
    const int64_t ms = plan_time(limits, pos.side_to_move()).target_ms();  // max_ms included
    const bool checked = tactics_depth_ > 0 && !limits.infinite;
    TacticsCheck check;
    check.depth = tactics_depth_;
    if (ms > 0) {
      if (checked) check.movetime_ms = int(std::max<int64_t>(1, ms / 10));  // the check's share of the move
      t.seconds = (ms - check.movetime_ms) / 1000.0;
      if (!limits.nodes) t.simulations = 0;  // time alone decides
    }
    if (limits.max_nodes && (t.simulations == 0 || uint64_t(t.simulations) > limits.max_nodes))
      t.simulations = int(std::min<uint64_t>(limits.max_nodes, 1u << 30));
    best = impl_->net->think(*net_, pos, t, on_info, stop, fin);
    if (checked && !best.is_none() && !(stop && stop->load()))  // a stopped search answers at once
      best = check_tactics(impl_->ab, pos, impl_->net->preference(), check).move;
  }

  if (best.is_none() || !legal.contains(best)) {
    AbLimits l = impl_->level_limits;
    if (limits.any()) static_cast<SearchLimits&>(l) = limits;  // the caller's limits replace the level's
    if (using_network()) l = AbLimits(), l.depth = 1;  // the network found nothing (finished game)
    l.max_ms = limits.max_ms, l.max_nodes = limits.max_nodes;  // a server's caps hold in every case
    auto conv = [](const AbInfo& a, ThinkInfo& t) {
      t.network = false;
      t.depth = a.depth, t.seldepth = a.seldepth;
      t.nodes = a.nodes, t.nps = a.nps, t.time_ms = a.time_ms;
      t.score_cp = a.score_cp, t.mate = a.mate, t.hashfull = a.hashfull;
      t.pv = a.pv;
      t.has_wdl = true;
      if (a.mate)
        t.wdl[0] = a.mate > 0 ? 1000 : 0, t.wdl[1] = 0, t.wdl[2] = a.mate > 0 ? 0 : 1000;
      else
        cp_to_wdl(a.score_cp, t.wdl);
    };
    std::function<void(const AbInfo&)> cb;
    if (on_info)
      cb = [&](const AbInfo& a) {
        ThinkInfo t;
        conv(a, t);
        on_info(t);
      };
    best = impl_->ab.search(pos, l, cb, stop);
    conv(impl_->ab.last_info(), fin);
    if (best.is_none() || !legal.contains(best)) best = legal[0];  // never answer without a move
  }
  if (fin.pv.empty() || fin.pv[0] != best) fin.pv.assign(1, best);
  if (final_info) *final_info = fin;
  return best;
}

}  // namespace jz
