// Network input: the position from the side to move's view (board rotated 180 degrees for Han),
// as NUM_PLANES planes of 10 x 9 floats (plane-major, then rank, then file; square = rank * 9 + file
// in that view). Layout is versioned by ENCODING_VERSION (stored in model files). Xiangqi uses the same
// planes (the same seven piece types in the same slots) and leaves Janggi's own at zero: rule set, pass,
// bikjang, counting margin and pass-ends.
#pragma once
#include <cstdint>

#include "core/position.h"

namespace jz {

constexpr int ENCODING_VERSION = 2;  // 2: PLANE_PASS_ENDS added
constexpr int HISTORY_PLIES = 4;     // from/to planes of the last plies

// Plane indices.
enum : int {
  PLANE_OWN_PIECES = 0,                               // 7 planes: GENERAL..SOLDIER of the side to move
  PLANE_OPP_PIECES = 7,                               // 7 planes: the opponent's
  PLANE_HISTORY = 14,                                 // 2 per ply (from, to), most recent ply first
  PLANE_RULESET = PLANE_HISTORY + 2 * HISTORY_PLIES,  // JANGGI_RULESET_NB (4) planes, one-hot (constant)
  PLANE_OPP_PASSED = PLANE_RULESET + 4,               // constant planes from here on
  PLANE_BIKJANG,                                      // side to move stands in bikjang
  PLANE_REPEAT1,                                      // the current position occurred >= 1 time before
  PLANE_REPEAT2,                                      // ... >= 2 times before
  PLANE_RULE50,                                       // plies since capture / move rule (capped at 1)
  PLANE_MATERIAL,                                     // counting margin incl. Han's 1.5, stm view, / 20
  PLANE_IN_CHECK,
  PLANE_STM_HAN,    // side to move is Han (counting is asymmetric); Black in Xiangqi
  PLANE_ONES,       // all ones: lets convolutions see the board edge
  PLANE_PASS_ENDS,  // a pass now ends the game (KataGo's pass-would-end input)
  NUM_PLANES
};
constexpr int BOARD_SIZE = 90;
constexpr int INPUT_SIZE = NUM_PLANES * BOARD_SIZE;
constexpr float MATERIAL_PLANE_SCALE = 20.0f;

// Square in the side to move's view.
inline Square view_square(Square s, Color stm) { return stm == CHO ? s : flip_square(s); }

// How many times the current position occurred before (same key, same side to move), as the
// rules count it (only since the last capture).
int repetitions_before(const Position& pos);
// A pass by the side to move would end the game (the opponent just passed, or bikjang stands).
bool pass_would_end(const Position& pos);

// Writes INPUT_SIZE floats.
void encode_position(const Position& pos, float* out);
// Encodes n positions into out[n * INPUT_SIZE]; OpenMP-parallel for large batches.
void encode_batch(const Position* const* pos, int n, float* out);

// A hash of everything encode_position reads (board, side, last HISTORY_PLIES moves, rule set,
// rule state): equal keys give equal encodings, so a cache keyed by it is exact.
uint64_t encoding_key(const Position& pos);

}  // namespace jz
