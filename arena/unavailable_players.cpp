// Factories for player kinds whose libraries this build lacks: they explain instead of failing to link.
#include "arena/player.h"

namespace jz {

#ifndef JZ_ARENA_ALPHABETA
bool make_alphabeta_player(const PlayerSpec& s, uint64_t, std::unique_ptr<Player>*, std::string* error) {
  *error = "player spec '" + s.text + "': this build has no alpha-beta engine (arena/alphabeta)";
  return false;
}
#endif

#ifndef JZ_ARENA_NET
bool make_net_player(const PlayerSpec& s, uint64_t, std::unique_ptr<Player>*, std::string* error) {
  *error = "player spec '" + s.text + "': this build has no network players (needs LibTorch, nn/ and mcts/)";
  return false;
}
#endif

}  // namespace jz
