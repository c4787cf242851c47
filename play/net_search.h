// Internal to jz_play: the network (MCTS) half of PlayEngine, compiled only when jz_mcts exists.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "play/engine.h"

namespace jz::play_detail {

struct NetThink {
  int simulations = 800;  // 0 = unlimited (time or stop ends the search)
  double seconds = 0;     // 0 = no time limit
  int threads = 1;
  bool infinite = false;
};

class NetSearch {
 public:
  virtual ~NetSearch() = default;
  virtual void new_game() = 0;
  virtual Move think(Evaluator& net, const Position& pos, const NetThink& t,
                     const std::function<void(const ThinkInfo&)>& on_info, std::atomic<bool>* stop,
                     ThinkInfo& final_info) = 0;
  // The last think's root moves with visits, its choice first and then by visits.
  virtual const std::vector<Move>& preference() const = 0;
};

// nullptr when this build has no MCTS.
std::unique_ptr<NetSearch> make_net_search();

}  // namespace jz::play_detail
