// Test positions: the reference legal-move vectors plus short random games from the 16 setups
// (so that Han to move, history, passes and captures all occur); the same for Xiangqi.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/rules.h"
#include "core/setups.h"
#include "tests/support/tsv.h"

namespace jz::test {

inline std::vector<Position> reference_positions(GameKind game = GameKind::JANGGI) {
  const bool xq = game == GameKind::XIANGQI;
  std::vector<Position> out;
  for (auto& r : read_tsv(xq ? "xiangqi/legal_moves.tsv" : "legal_moves_public.tsv")) {
    Position p;
    std::string err;
    if (p.set_fen(r[0], xq ? Ruleset::XIANGQI : Ruleset::JANGGI, &err)) out.push_back(p);
  }
  return out;
}

// Positions along random games, n in all, every rule set of the game.
inline std::vector<Position> random_positions(int n, uint32_t seed, GameKind game = GameKind::JANGGI) {
  std::mt19937 rng(seed);
  std::vector<Position> out;
  while (int(out.size()) < n) {
    Position p;
    std::string err;
    if (game == GameKind::XIANGQI)
      p.set_fen(setup_fen(Ruleset::XIANGQI, 0), Ruleset::XIANGQI, &err);
    else
      p.set_fen(setup_fen(int(rng() % SETUP_NB)), Ruleset(rng() % JANGGI_RULESET_NB), &err);
    int plies = 1 + int(rng() % 120);
    for (int i = 0; i < plies && int(out.size()) < n; ++i) {
      MoveList ml;
      generate_legal(p, ml);
      if (ml.size == 0 || game_result(p, ml.size).over()) break;
      p.do_move(ml[int(rng() % ml.size)]);
      if (rng() % 4 == 0) out.push_back(p);
    }
  }
  return out;
}

// Left-right mirror of a FEN's board (ranks are written with digits for empty runs).
inline std::string mirror_fen(const std::string& fen) {
  size_t sp = fen.find(' ');
  std::string board = fen.substr(0, sp), out;
  size_t start = 0;
  while (start <= board.size()) {
    size_t end = board.find('/', start);
    if (end == std::string::npos) end = board.size();
    std::string rank = board.substr(start, end - start), cells;
    for (char c : rank) {
      if (c >= '1' && c <= '9')
        cells += std::string(c - '0', '.');
      else
        cells += c;
    }
    std::string rev(cells.rbegin(), cells.rend()), packed;
    int run = 0;
    for (char c : rev) {
      if (c == '.') {
        ++run;
        continue;
      }
      if (run) packed += char('0' + run), run = 0;
      packed += c;
    }
    if (run) packed += char('0' + run);
    if (!out.empty()) out += '/';
    out += packed;
    start = end + 1;
  }
  return out + fen.substr(sp);
}

}  // namespace jz::test
