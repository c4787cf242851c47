// A game as a record file gives it, its moves already checked legal: the common form of the .gib,
// PGN and JSONL readers, before records/importer.h turns it into training data.
#pragma once
#include <string>
#include <vector>

#include "core/rules.h"
#include "core/types.h"

namespace jz {

struct ParsedGame {
  int index = 0;  // game number in its file, 0-based
  std::string start_fen;
  Ruleset ruleset = Ruleset::JANGGI;
  std::vector<Move> moves;
  // The record's result. `ending` says how the record says it ended when that is not on the board
  // (RESIGNATION, TIME, or NONE for agreement / adjudication); the importer replaces it with the
  // rules' ending when the final position is over.
  Winner winner = Winner::NONE;
  Ending ending = Ending::NONE;
  bool by_counting = false;
  std::string error;   // non-empty: the record is bad and the game is skipped
  int error_ply = -1;  // 0-based ply the error is at; -1 for the headers
  bool ok() const { return error.empty(); }
};

// "Cho wins by resignation", "Han wins by checkmate", "Draw by repetition", "Draw".
std::string describe_result(Winner winner, Ending ending, bool by_counting);

}  // namespace jz
