// PGN for Janggi as pychess-variants and Fairy-Stockfish write it: `[Variant "janggi"]` (or
// janggimodern, ...), optional `[FEN ...]`, `[Result ...]`, `[Termination ...]`, and moves in UCI
// (`h3e3`, pass = general's square twice) or SAN (`Ne3`, `Cxe7`, `R1a2`, `e5`; letters K A B/E N/H
// R C P as in the FEN; pass as `pass`, `@@@@` or `--`). Comments, variations and NAGs are skipped.
#pragma once
#include <string>
#include <vector>

#include "records/parsed_game.h"

namespace jz {

// Reads every game of a PGN text (UTF-8, LF). Bad games come back with their error set.
std::vector<ParsedGame> read_pgn(const std::string& text);

// Resolves one move token (UCI or SAN) in pos; false with a reason.
bool parse_pgn_move(const Position& pos, const std::string& token, Move& out, std::string* error);

// A PGN of one game as pychess-variants writes it: Variant, FEN, SetUp, Result headers and UCI moves
// (the form both tools read back). False if a move is illegal.
bool write_pgn(const std::string& start_fen, Ruleset rules, const std::vector<Move>& moves, Winner winner,
               Ending ending, std::string& out, std::string* error);

}  // namespace jz
