// Korean game records (.gib): `[key "value"]` headers (초차림/한차림 setups written from file a to i,
// 총수 move count, 대국결과 result) and numbered moves `N. 74상42병` (squares row-then-file, rows
// from Han's back rank, 0 = rank 1; captured piece and 장군 suffixes; 한수쉼 = pass).
// Notation: tests/data/gib/README.md.
#pragma once
#include <string>
#include <vector>

#include "records/parsed_game.h"

namespace jz {

// Reads every game of a .gib text (UTF-8, LF; see text_decode.h). A file may hold several games,
// each starting with its headers. Bad games come back with their error set; reading goes on.
// `rules` is the rule set to check moves under unless a [규칙 "..."] header names one.
std::vector<ParsedGame> read_gib(const std::string& text, Ruleset rules);

// The .gib text of one game (UTF-8, LF). Start positions that are not one of the 16 setups get a
// [FEN "..."] header (an extension this reader understands), other rule sets a [규칙 "..."] header.
// False if a move is illegal.
bool write_gib(const std::string& start_fen, Ruleset rules, const std::vector<Move>& moves, Winner winner,
               Ending ending, std::string& out, std::string* error);

// "상마상마" for files b, c, g, h of one side's back rank, read from a to i; false if the rank
// does not hold two horses and two elephants there.
bool gib_setup_of(const std::string& fen, Color side, std::string& out);

}  // namespace jz
