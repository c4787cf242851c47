// Move and square notation: UCI (a1..i10, pass = general's square twice) and Korean numeric
// (row then column from the top-left with Han at the top, tenth row written 0: Cho's general is 95).
#pragma once
#include <string>

#include "position.h"

namespace jz {

std::string square_name(Square s);  // "e2", "a10"
bool parse_square(const std::string& s, Square& out);
std::string move_to_uci(Move m);  // "b1c3", "e2e2" for a pass
// Parses UCI text into a move (syntax only). Legality is the caller's business.
bool parse_uci_move(const std::string& s, Move& out);
// Parses UCI text and checks it is legal in pos; on failure writes a one-line reason.
bool parse_legal_uci_move(const Position& pos, const std::string& s, Move& out, std::string* error);

std::string korean_square(Square s);  // "95"
// "79졸78"; pass is "한수쉼". hanja=true uses Hanja piece names (卒, 兵, 車 ...).
std::string move_to_korean(const Position& pos, Move m, bool hanja = false);
// Accepts "79졸78", "79兵78", "7978", "79-78" and "한수쉼"/"pass"; checks legality in pos.
bool parse_korean_move(const Position& pos, const std::string& s, Move& out, std::string* error);
// Either notation; in a Xiangqi position UCI, Chinese or WXF instead (core/notation_xiangqi.h).
bool parse_any_move(const Position& pos, const std::string& s, Move& out, std::string* error);

// The piece type of a letter, either case: K A B/E N/H R C P (FEN, UCI promotion, SAN); NO_PIECE_TYPE otherwise.
PieceType piece_type_from_letter(char c);

// Piece names for display.
const char* piece_name_hangul(Piece p);
const char* piece_name_hanja(Piece p);

}  // namespace jz
