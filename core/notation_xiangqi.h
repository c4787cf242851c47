// Xiangqi move notation: the Chinese four-character form (炮二平五, 馬8進7, 前俥進一) and its WXF letters
// (C2.5, H8+7, R+.3). Files count 1..9 from the mover's own right (Red 一..九, Black 1..9); 進/+ forward,
// 退/- back, 平/. sideways; the last figure is ranks moved for straight moves, else the destination file.
// Like chariots, horses, cannons or soldiers on one file are named front to back instead of by file:
// two 前/後, three 前/中/後, four or five 前/二/三/四/五; when soldiers stand so on two files the file
// replaces the piece (前七進一). WXF: + and - for the front and rear of two or three, the middle of three
// by its file; of four or five ++ P+ (P3) P- --; on two files the file leads (3+.4, 33.4, 3-.4).
// Advisors and elephants are never so named: the direction tells them apart. Sources: the WXF's
// "Official Xiangqi piece names and notation" (wxf.org/xq/computer/wxf_notation.html), and for the
// Chinese form the Chinese Xiangqi Association's rules as summarised on Wikipedia (象棋 棋譜).
#pragma once
#include <string>

#include "position.h"

namespace jz {

// Traditional piece characters: red 帥仕相傌俥炮兵, black 將士象馬車砲卒 ("" for NO_PIECE).
const char* piece_name_chinese(Piece p);
// The number side c gives a file (0 = a), as it writes it: Red 一..九 from file i, Black 1..9 from file a
// (ascii: digits for both).
std::string file_figure(Color c, int file, bool ascii = false);

// Canonical text of a legal move of pos (a Xiangqi position): Traditional characters, Red's figures
// Chinese numerals, Black's ASCII digits.
std::string move_to_chinese(const Position& pos, Move m);
std::string move_to_wxf(const Position& pos, Move m);

// Read leniently (Simplified characters, full-width digits, either side's figures and piece names,
// spaces ignored) and check legality in pos; on failure a one-line reason, also when the text fits
// more than one legal move.
bool parse_chinese_move(const Position& pos, const std::string& s, Move& out, std::string* error);
// WXF letters either case (B for E, N for H), '=' for '.'.
bool parse_wxf_move(const Position& pos, const std::string& s, Move& out, std::string* error);

// The move as its game writes it: Chinese for Xiangqi, Korean numeric for Janggi.
std::string move_to_game_notation(const Position& pos, Move m);

}  // namespace jz
