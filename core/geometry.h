// Precomputed board geometry: rays, piece steps and their blocking points, one table per game (the
// board is the same 9x10 grid; Janggi draws palace diagonals, Xiangqi has a river).
#pragma once
#include "types.h"

namespace jz::geo {

struct Ray {
  int8_t len;
  Square sq[9];
};
struct Leap {
  Square to;
  Square block1;
  Square block2;
};  // block2 = NO_SQUARE for horses

struct Tables {
  // Chariot/cannon lines: 4 orthogonal rays, plus palace diagonal rays where drawn.
  Ray rays[SQUARE_NB][8];
  int8_t ray_count[SQUARE_NB];
  Leap horse[SQUARE_NB][8];
  int8_t horse_count[SQUARE_NB];
  Leap elephant[SQUARE_NB][8];
  int8_t elephant_count[SQUARE_NB];
  // Reverse leaps: pieces at .to attack the square when blocks are empty (to = attacker square).
  Leap horse_from[SQUARE_NB][8];
  int8_t horse_from_count[SQUARE_NB];
  Leap elephant_from[SQUARE_NB][8];
  int8_t elephant_from_count[SQUARE_NB];
  // General/guard steps along palace lines (inside the palace the square belongs to). Xiangqi: the
  // general's orthogonal steps only, and the advisor's diagonal steps in advisor_step.
  Square palace_step[SQUARE_NB][8];
  int8_t palace_step_count[SQUARE_NB];
  Square advisor_step[SQUARE_NB][4];
  int8_t advisor_step_count[SQUARE_NB];
  // Soldier steps per color, and the reverse (squares a soldier of that color attacks from).
  Square soldier[2][SQUARE_NB][5];
  int8_t soldier_count[2][SQUARE_NB];
  Square soldier_from[2][SQUARE_NB][6];
  int8_t soldier_from_count[2][SQUARE_NB];
  // in_palace[c][sq]: sq lies in color c's palace.
  bool in_palace[2][SQUARE_NB];
  // danger[k][s]: bit 1 = s is on a line (ray) from k, bit 2 = s blocks a horse/elephant leap onto k.
  uint8_t danger[SQUARE_NB][SQUARE_NB];
};

// Janggi's tables (the hot path of every Janggi search) and Xiangqi's: elephants leap two diagonal
// steps (block1 = block2 = the eye) without crossing the river, soldiers step sideways only across it,
// and no palace diagonals.
const Tables& tables();
const Tables& xiangqi_tables();
inline const Tables& tables(GameKind g) { return g == GameKind::XIANGQI ? xiangqi_tables() : tables(); }

}  // namespace jz::geo
