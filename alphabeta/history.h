// Move-ordering statistics of the alpha-beta search: butterfly history, continuation history (the move
// one and two plies back), capture history and counter moves, with Stockfish's gravity update.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/position.h"

namespace jz::ab {

constexpr int PIECE_NB = 16;
constexpr int HISTORY_MAX = 16384;

// Pulls v towards +-HISTORY_MAX: large values move less, so old lessons fade as new ones arrive.
inline void gravity(int16_t& v, int bonus) {
  bonus = bonus > HISTORY_MAX ? HISTORY_MAX : bonus < -HISTORY_MAX ? -HISTORY_MAX : bonus;
  v = int16_t(v + bonus - v * std::abs(bonus) / HISTORY_MAX);
}

struct PieceTo {
  Piece piece = NO_PIECE;
  Square to = 0;
  bool valid() const { return piece != NO_PIECE; }
};

// What moved on the ply `back` plies before the current position (none for a pass or beyond the root
// of the position's history).
inline PieceTo previous_move(const Position& pos, int back) {
  if (pos.history_size() <= back) return {};
  const StateInfo& st = pos.state(back);
  if (st.move.is_pass()) return {};
  return {st.moved, st.move.to()};
}

struct SearchHistory {
  int16_t butterfly[2][SQUARE_NB][SQUARE_NB];
  int16_t continuation[PIECE_NB][SQUARE_NB][PIECE_NB][SQUARE_NB];  // [previous piece][to][piece][to]
  int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];             // [piece][to][captured type]
  Move counter[PIECE_NB][SQUARE_NB];                               // reply to [previous piece][to]

  void clear() {
    std::memset(butterfly, 0, sizeof butterfly);
    std::memset(continuation, 0, sizeof continuation);
    std::memset(capture, 0, sizeof capture);
    for (auto& a : counter)
      for (Move& m : a) m = Move::none();
  }
  // Between searches: keep the lessons, at half weight.
  void age() {
    for (auto& a : butterfly)
      for (auto& b : a)
        for (int16_t& h : b) h /= 2;
  }

  // Quiet-move score: butterfly plus the continuations of the last two plies.
  int quiet_score(const Position& pos, Move m, const PieceTo prev[2]) const {
    Piece pc = pos.piece_on(m.from());
    int s = butterfly[color_of(pc)][m.from()][m.to()];
    for (int i = 0; i < 2; ++i)
      if (prev[i].valid()) s += continuation[prev[i].piece][prev[i].to][pc][m.to()];
    return s;
  }
  int capture_score(const Position& pos, Move m) const {
    return capture[pos.piece_on(m.from())][m.to()][type_of(pos.piece_on(m.to()))];
  }
  void update_quiet(const Position& pos, Move m, const PieceTo prev[2], int bonus) {
    Piece pc = pos.piece_on(m.from());
    gravity(butterfly[color_of(pc)][m.from()][m.to()], bonus);
    for (int i = 0; i < 2; ++i)
      if (prev[i].valid()) gravity(continuation[prev[i].piece][prev[i].to][pc][m.to()], bonus);
  }
  void update_capture(const Position& pos, Move m, int bonus) {
    gravity(capture[pos.piece_on(m.from())][m.to()][type_of(pos.piece_on(m.to()))], bonus);
  }
};

}  // namespace jz::ab
