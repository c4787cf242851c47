#include "alphabeta/checks.h"

#include "core/geometry.h"

namespace jz::ab {

bool may_give_check(const Position& pos, Move m) {
  const geo::Tables& g = geo::tables(pos.game());
  Color us = pos.side_to_move();
  Square ek = pos.king_square(~us), from = m.from(), to = m.to();
  if ((g.danger[ek][from] & 3) || (g.danger[ek][to] & 1)) return true;
  switch (type_of(pos.piece_on(from))) {
    case HORSE:
      for (int i = 0; i < g.horse_from_count[ek]; ++i)
        if (g.horse_from[ek][i].to == to) return true;
      return false;
    case ELEPHANT:
      for (int i = 0; i < g.elephant_from_count[ek]; ++i)
        if (g.elephant_from[ek][i].to == to) return true;
      return false;
    case SOLDIER:
      for (int i = 0; i < g.soldier_from_count[us][ek]; ++i)
        if (g.soldier_from[us][ek][i] == to) return true;
      return false;
    default:
      return false;
  }
}

}  // namespace jz::ab
