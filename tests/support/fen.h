// Positions for tests: from a FEN the test expects to be valid, and their legal moves as the reference
// vectors list them.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"

namespace jz::test {

// A failed expectation names the FEN's fault.
inline Position position_of(const std::string& fen, Ruleset rules = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, rules, &err)) << err;
  return p;
}

// The legal moves in UCI, sorted, joined by spaces (tests/data/*legal_moves*.tsv).
inline std::string sorted_legal_moves(const Position& p) {
  MoveList list;
  generate_legal(p, list);
  std::vector<std::string> got;
  for (Move m : list) got.push_back(move_to_uci(m));
  std::sort(got.begin(), got.end());
  std::string joined;
  for (auto& s : got) joined += (joined.empty() ? "" : " ") + s;
  return joined;
}

}  // namespace jz::test
