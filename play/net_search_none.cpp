// Builds without jz_mcts: no network play.
#include "play/net_search.h"

namespace jz::play_detail {
std::unique_ptr<NetSearch> make_net_search() { return nullptr; }
}  // namespace jz::play_detail
