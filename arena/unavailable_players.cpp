// The factory of network players where this build lacks LibTorch: it explains instead of failing to link.
#include "arena/player.h"

namespace jz {

#ifndef JZ_ARENA_NET
bool make_net_player(const PlayerSpec& s, uint64_t, std::unique_ptr<Player>*, std::string* error) {
  *error = "player spec '" + s.text + "': this build has no network players (needs LibTorch, nn/ and mcts/)";
  return false;
}
#endif

}  // namespace jz
