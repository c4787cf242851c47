#include "perft.h"

#include "movegen.h"
#include "rules.h"

namespace jz {

uint64_t perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  if (pos.pass_ended()) return 0;
  if (option_ended(pos)) return 0;
  if (depth == 1) return uint64_t(count_legal(pos));
  MoveList list;
  generate_legal(pos, list);
  uint64_t n = 0;
  for (Move m : list) {
    pos.do_move(m);
    n += perft(pos, depth - 1);
    pos.undo_move();
  }
  return n;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(const Position& root, int depth, int threads) {
  std::vector<std::pair<Move, uint64_t>> out;
  if (depth < 1 || root.pass_ended()) return out;
  if (option_ended(root)) return out;
  MoveList list;
  generate_legal(root, list);
  out.resize(list.size);
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1)
  for (int i = 0; i < list.size; ++i) {
    Position pos = root;
    pos.do_move(list[i]);
    out[i] = {list[i], perft(pos, depth - 1)};
  }
  return out;
}

}  // namespace jz
