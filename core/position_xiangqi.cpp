// Xiangqi's attacks: cannons capture over any one screen, generals attack along an open file (facing
// generals is illegal, so a general "attacks" the other one there), advisors and elephants stay home.
#include "geometry.h"
#include "position.h"

namespace jz {

bool Position::attacked_xiangqi(Square s, Color by) const {
  const geo::Tables& t = geo::xiangqi_tables();
  const Piece chariot = make_piece(by, CHARIOT), cannon = make_piece(by, CANNON), general = make_piece(by, GENERAL);
  for (int i = 0; i < t.ray_count[s]; ++i) {
    const geo::Ray& ray = t.rays[s][i];
    int j = 0;
    while (j < ray.len && !board_[ray.sq[j]]) ++j;
    if (j == ray.len) continue;
    Piece first = board_[ray.sq[j]];
    if (first == chariot) return true;
    if (first == general && file_of(ray.sq[j]) == file_of(s) && type_of(board_[s]) == GENERAL) return true;
    for (++j; j < ray.len; ++j)
      if (Piece p = board_[ray.sq[j]]) {
        if (p == cannon) return true;
        break;
      }
  }
  const Piece horse = make_piece(by, HORSE);
  for (int i = 0; i < t.horse_from_count[s]; ++i) {
    const geo::Leap& l = t.horse_from[s][i];
    if (board_[l.to] == horse && !board_[l.block1]) return true;
  }
  const Piece soldier = make_piece(by, SOLDIER);
  for (int i = 0; i < t.soldier_from_count[by][s]; ++i)
    if (board_[t.soldier_from[by][s][i]] == soldier) return true;
  // Elephants, advisors and the general's steps reach only squares on their own side.
  if (by == CHO ? rank_of(s) > 4 : rank_of(s) < 5) return false;
  const Piece elephant = make_piece(by, ELEPHANT), advisor = make_piece(by, GUARD);
  for (int i = 0; i < t.elephant_from_count[s]; ++i) {
    const geo::Leap& l = t.elephant_from[s][i];
    if (board_[l.to] == elephant && !board_[l.block1]) return true;
  }
  if (!t.in_palace[by][s]) return false;
  for (int i = 0; i < t.advisor_step_count[s]; ++i)
    if (board_[t.advisor_step[s][i]] == advisor) return true;
  for (int i = 0; i < t.palace_step_count[s]; ++i)
    if (board_[t.palace_step[s][i]] == general) return true;
  return false;
}

bool Position::attacks_from_xiangqi(Square from, Square target) const {
  const geo::Tables& t = geo::xiangqi_tables();
  Piece p = board_[from];
  auto in = [&](const Square* list, int n) {
    for (int i = 0; i < n; ++i)
      if (list[i] == target) return true;
    return false;
  };
  switch (type_of(p)) {
    case CHARIOT:
    case CANNON:
    case GENERAL:
      for (int i = 0; i < t.ray_count[from]; ++i) {
        const geo::Ray& ray = t.rays[from][i];
        int between = 0;
        for (int j = 0; j < ray.len && ray.sq[j] != target; ++j) between += board_[ray.sq[j]] != NO_PIECE;
        bool on_ray = false;
        for (int j = 0; j < ray.len; ++j) on_ray |= ray.sq[j] == target;
        if (!on_ray) continue;
        if (type_of(p) == CHARIOT) return between == 0;
        if (type_of(p) == CANNON) return between == 1;
        if (between == 0 && type_of(board_[target]) == GENERAL && file_of(from) == file_of(target)) return true;
      }
      return type_of(p) == GENERAL && in(t.palace_step[from], t.palace_step_count[from]);
    case HORSE:
      for (int i = 0; i < t.horse_count[from]; ++i)
        if (t.horse[from][i].to == target && !board_[t.horse[from][i].block1]) return true;
      return false;
    case ELEPHANT:
      for (int i = 0; i < t.elephant_count[from]; ++i)
        if (t.elephant[from][i].to == target && !board_[t.elephant[from][i].block1]) return true;
      return false;
    case SOLDIER:
      return in(t.soldier[color_of(p)][from], t.soldier_count[color_of(p)][from]);
    case GUARD:
      return in(t.advisor_step[from], t.advisor_step_count[from]);
    default:
      return false;
  }
}

}  // namespace jz
