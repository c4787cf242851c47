// Basic Janggi types: colors, pieces, squares, moves.
#pragma once
#include <cstdint>
#include <string>

namespace jz {

// Cho (uppercase in FEN, 'w') moves first; Han (lowercase, 'b').
enum Color : int8_t { CHO = 0, HAN = 1, NO_COLOR = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : int8_t { NO_PIECE_TYPE = 0, GENERAL, GUARD, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER, PIECE_TYPE_NB };

// Piece code: 0 = empty, 1..7 = Cho pieces, 9..15 = Han pieces.
enum Piece : int8_t { NO_PIECE = 0 };
constexpr Piece make_piece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Squares 0..89: sq = rank * 9 + file, rank 0 = rank "1" (Cho's back rank), file 0 = 'a'.
using Square = int8_t;
constexpr int FILE_NB = 9, RANK_NB = 10, SQUARE_NB = 90;
constexpr Square NO_SQUARE = -1;
constexpr Square make_square(int file, int rank) { return Square(rank * 9 + file); }
constexpr int file_of(Square s) { return s % 9; }
constexpr int rank_of(Square s) { return s / 9; }
// Left-right mirror (file a <-> i).
constexpr Square mirror_square(Square s) { return make_square(8 - file_of(s), rank_of(s)); }
// Board rotated 180 degrees (used to view the board from Han's side).
constexpr Square flip_square(Square s) { return Square(89 - s); }

// Material values used by counting (Han additionally gets 1.5).
constexpr int PIECE_POINTS[PIECE_TYPE_NB] = {0, 0, 3, 3, 5, 13, 7, 2};

// Move: from (7 bits) | to (7 bits) << 7. A pass is from == to (the general's square).
struct Move {
  uint16_t raw = 0xFFFF;
  constexpr Move() = default;
  constexpr Move(Square from, Square to) : raw(uint16_t(from | (to << 7))) {}
  constexpr Square from() const { return Square(raw & 127); }
  constexpr Square to() const { return Square(raw >> 7); }
  constexpr bool is_pass() const { return from() == to(); }
  constexpr bool is_none() const { return raw == 0xFFFF; }
  constexpr bool operator==(Move o) const { return raw == o.raw; }
  constexpr bool operator!=(Move o) const { return raw != o.raw; }
  static constexpr Move none() { return Move(); }
};

// Rule sets (see RULES.md). Order is stable: it is stored in replay files and encodings.
enum class Ruleset : uint8_t { JANGGI = 0, TRADITIONAL = 1, MODERN = 2, CASUAL = 3 };
constexpr int RULESET_NB = 4;

struct RulesetInfo {
  const char* name;
  bool bikjang;         // facing generals restrict moves; a pass in bikjang ends the game
  bool counting;        // non-mate endings decided by material counting (else draw)
  int repetition;       // n-fold repetition ends the game
  int move_rule;        // plies without capture
  bool back_and_forth;  // 5th consecutive back-and-forth move loses
};
const RulesetInfo& ruleset_info(Ruleset r);
// Parses "janggi", "janggitraditional", "janggimodern", "janggicasual". Returns false if unknown.
bool parse_ruleset(const std::string& name, Ruleset& out);
inline const char* ruleset_name(Ruleset r) { return ruleset_info(r).name; }

}  // namespace jz
