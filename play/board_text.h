// The board as terminal text: Hanja or Hangul piece names (ASCII letters as fallback), ANSI colors
// (blue Cho, red Han), palace diagonals, coordinates, the last move marked. A Xiangqi position is drawn
// with its own characters (帥 俥 ... red, 將 車 ... black) and the river (楚河 漢界) between ranks 5 and 6.
#pragma once
#include <string>

#include "core/position.h"

namespace jz {

struct BoardStyle {
  bool ascii = false;  // letters and -|/\ only (Cho uppercase, Han lowercase)
  bool hanja = true;   // Hanja names (楚 車 馬 ...; Xiangqi 帥 俥 ...), else Hangul (장 차 마 ...)
  bool color = true;   // ANSI colors
  bool flip = false;   // Han at the bottom
};

std::string render_board(const Position& pos, const BoardStyle& style);

}  // namespace jz
