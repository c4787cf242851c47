// Game records: replaying a stored game through the rules core, checking it, and exporting it as
// text (PGN-like), one-line JSON, or a UCI `position fen ... moves ...` command.
#pragma once
#include <string>

#include "core/position.h"
#include "core/rules.h"  // winner_name
#include "replay/replay_format.h"

namespace jz {

// Sets pos to the game's start and plays its first `plies` moves (all if plies < 0), checking
// that each is legal. False with a reason if the FEN or a move is bad.
bool replay_game(const GameRecord& game, Position& pos, int plies, std::string* error);

// Full check of a stored game: every move legal and played while the game was still on, every
// policy target over legal moves, and the stored result and margin are what the rules give at the
// end (resignation and length-cap adjudication are checked for consistency).
bool validate_game(const GameRecord& game, std::string* error);

std::string game_to_uci(const GameRecord& game);   // "position fen <fen> moves b1c3 ..."
std::string game_to_json(const GameRecord& game);  // one line
std::string game_to_text(const GameRecord& game);  // headers + numbered moves, PGN-like
// Reads one game_to_json line back: start, rule set, moves (each checked legal), result. Plies get
// no search data (cheap, no target); on an illegal move *bad_ply is its index, else -1.
bool game_from_json(const std::string& line, GameRecord& game, int* bad_ply, std::string* error);

}  // namespace jz
