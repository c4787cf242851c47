#include "nn/encoding.h"

#include <algorithm>
#include <cstring>

#include "util/random.h"

namespace jz {

int repetitions_before(const Position& pos) {
  int span = std::min(pos.rule50(), pos.history_size());
  int seen = 0;
  uint64_t key = pos.key();
  for (int k = 2; k <= span; k += 2)
    if (pos.state(k).key == key) ++seen;
  return seen;
}

bool pass_would_end(const Position& pos) {
  return pos.in_bikjang() || (pos.history_size() >= 1 && pos.state(0).move.is_pass());
}

namespace {

void fill(float* plane, float v) { std::fill(plane, plane + BOARD_SIZE, v); }

}  // namespace

void encode_position(const Position& pos, float* out) {
  std::memset(out, 0, sizeof(float) * INPUT_SIZE);
  const Color stm = pos.side_to_move();
  for (int c = 0; c < 2; ++c) {
    int base = Color(c) == stm ? PLANE_OWN_PIECES : PLANE_OPP_PIECES;
    for (int i = 0; i < pos.piece_count(Color(c)); ++i) {
      Square s = pos.piece_square(Color(c), i);
      out[(base + type_of(pos.piece_on(s)) - 1) * BOARD_SIZE + view_square(s, stm)] = 1.0f;
    }
  }
  int plies = std::min(HISTORY_PLIES, pos.history_size());
  for (int k = 0; k < plies; ++k) {
    Move m = pos.state(k).move;
    if (m.is_none()) break;
    out[(PLANE_HISTORY + 2 * k) * BOARD_SIZE + view_square(m.from(), stm)] = 1.0f;
    out[(PLANE_HISTORY + 2 * k + 1) * BOARD_SIZE + view_square(m.to(), stm)] = 1.0f;
  }
  const RulesetInfo& info = ruleset_info(pos.ruleset());
  const bool janggi = pos.game() == GameKind::JANGGI;  // Xiangqi leaves Janggi's own planes at zero
  if (janggi) {
    fill(out + (PLANE_RULESET + int(pos.ruleset())) * BOARD_SIZE, 1.0f);
    if (pos.history_size() >= 1 && pos.state(0).move.is_pass()) fill(out + PLANE_OPP_PASSED * BOARD_SIZE, 1.0f);
    if (pos.in_bikjang()) fill(out + PLANE_BIKJANG * BOARD_SIZE, 1.0f);
  }
  int reps = repetitions_before(pos);
  if (reps >= 1) fill(out + PLANE_REPEAT1 * BOARD_SIZE, 1.0f);
  if (reps >= 2) fill(out + PLANE_REPEAT2 * BOARD_SIZE, 1.0f);
  fill(out + PLANE_RULE50 * BOARD_SIZE, std::min(1.0f, float(pos.rule50()) / float(std::max(1, info.move_rule))));
  if (janggi) {
    float margin = float(pos.material(stm) - pos.material(~stm)) + (stm == HAN ? 1.5f : -1.5f);
    fill(out + PLANE_MATERIAL * BOARD_SIZE, margin / MATERIAL_PLANE_SCALE);
  }
  if (pos.in_check()) fill(out + PLANE_IN_CHECK * BOARD_SIZE, 1.0f);
  if (stm == HAN) fill(out + PLANE_STM_HAN * BOARD_SIZE, 1.0f);
  fill(out + PLANE_ONES * BOARD_SIZE, 1.0f);
  if (janggi && pass_would_end(pos)) fill(out + PLANE_PASS_ENDS * BOARD_SIZE, 1.0f);
}

void encode_batch(const Position* const* pos, int n, float* out) {
#pragma omp parallel for schedule(static) if (n >= 64)
  for (int i = 0; i < n; ++i) encode_position(*pos[i], out + size_t(i) * INPUT_SIZE);
}

namespace {}  // namespace

uint64_t encoding_key(const Position& pos) {
  // The key covers board and side to move; material and check follow from the board.
  uint64_t h = hash_combine(pos.key(), uint64_t(pos.side_to_move()) | uint64_t(pos.ruleset()) << 8);
  int plies = std::min(HISTORY_PLIES, pos.history_size());
  uint64_t moves = 0;
  for (int k = 0; k < HISTORY_PLIES; ++k) moves = moves << 16 | (k < plies ? pos.state(k).move.raw : 0xFFFF);
  h = hash_combine(h, moves);
  int rule50 = std::min(pos.rule50(), ruleset_info(pos.ruleset()).move_rule);
  uint64_t state =
      uint64_t(rule50) | uint64_t(std::min(2, repetitions_before(pos))) << 16 | uint64_t(pos.in_bikjang()) << 20;
  return hash_combine(h, state);
}

}  // namespace jz
