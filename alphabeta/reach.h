// The squares a piece attacks or defends (own pieces included), one callback per square: the classic
// evaluation counts its mobility with it, the term evaluation also fills its attack maps. Each game's own
// steps (geo::tables(game)); a Xiangqi cannon's reach is what it attacks (beyond its screen), not its slides.
#pragma once
#include "core/geometry.h"
#include "core/position.h"

namespace jz::ab {

template <class Hit>
inline void for_each_reach(const Position& pos, Square from, PieceType t, Color us, Hit&& hit) {
  const bool xiangqi = pos.xiangqi();
  const geo::Tables& g = xiangqi ? geo::xiangqi_tables() : geo::tables();
  switch (t) {
    case CHARIOT:
      for (int r = 0; r < g.ray_count[from]; ++r) {
        const geo::Ray& ray = g.rays[from][r];
        for (int j = 0; j < ray.len; ++j) {
          hit(ray.sq[j]);
          if (pos.piece_on(ray.sq[j])) break;
        }
      }
      return;
    case CANNON:  // over exactly one screen; in Janggi never a cannon as screen or target
      for (int r = 0; r < g.ray_count[from]; ++r) {
        const geo::Ray& ray = g.rays[from][r];
        int j = 0;
        while (j < ray.len && !pos.piece_on(ray.sq[j])) ++j;
        if (j == ray.len || (!xiangqi && type_of(pos.piece_on(ray.sq[j])) == CANNON)) continue;
        for (++j; j < ray.len; ++j) {
          Piece q = pos.piece_on(ray.sq[j]);
          if (!xiangqi && q && type_of(q) == CANNON) break;
          hit(ray.sq[j]);
          if (q) break;
        }
      }
      return;
    case HORSE:
      for (int j = 0; j < g.horse_count[from]; ++j)
        if (!pos.piece_on(g.horse[from][j].block1)) hit(g.horse[from][j].to);
      return;
    case ELEPHANT:
      for (int j = 0; j < g.elephant_count[from]; ++j) {
        const geo::Leap& l = g.elephant[from][j];
        if (!pos.piece_on(l.block1) && !pos.piece_on(l.block2)) hit(l.to);
      }
      return;
    case SOLDIER:
      for (int j = 0; j < g.soldier_count[us][from]; ++j) hit(g.soldier[us][from][j]);
      return;
    case GUARD:
      if (xiangqi) {  // advisors: diagonal palace steps (the general's are orthogonal)
        for (int j = 0; j < g.advisor_step_count[from]; ++j) hit(g.advisor_step[from][j]);
        return;
      }
      [[fallthrough]];
    default:  // general (and Janggi's guards): palace steps
      for (int j = 0; j < g.palace_step_count[from]; ++j) hit(g.palace_step[from][j]);
      return;
  }
}

}  // namespace jz::ab
