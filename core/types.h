// Basic types of both games (Janggi, Xiangqi): colors, pieces, squares, moves, rule sets.
#pragma once
#include <cstdint>
#include <string>

namespace jz {

// Cho (uppercase in FEN, 'w') moves first; Han (lowercase, 'b'). In Xiangqi the same slots hold Red (first)
// and Black: the engine's colour names stay "cho"/"han" in files; front-ends name Xiangqi's sides.
enum Color : int8_t { CHO = 0, HAN = 1, NO_COLOR = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }
// "cho" or "han": the sides' names in every file format and message.
constexpr const char* color_name(Color c) { return c == CHO ? "cho" : "han"; }

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

// Move: from (7 bits) | to (7 bits) << 7 | promotion piece type (3 bits) << 16. A pass is from == to
// (the general's square). The low 16 bits alone are the move whenever it does not promote, so 16-bit
// stores (replay files, the transposition table) keep their format.
struct Move {
  uint32_t raw = 0xFFFF;
  constexpr Move() = default;
  constexpr Move(Square from, Square to) : raw(uint32_t(from | (to << 7))) {}
  constexpr Move(Square from, Square to, PieceType promo) : raw(uint32_t(from | (to << 7) | (promo << 16))) {}
  constexpr Square from() const { return Square(raw & 127); }
  constexpr Square to() const { return Square((raw >> 7) & 127); }
  // Soldier promotion (rule option): the piece type the soldier becomes, or NO_PIECE_TYPE.
  constexpr PieceType promotion() const { return PieceType(raw >> 16); }
  constexpr bool is_pass() const { return from() == to(); }
  constexpr bool is_none() const { return raw == 0xFFFF; }
  constexpr bool operator==(Move o) const { return raw == o.raw; }
  constexpr bool operator!=(Move o) const { return raw != o.raw; }
  static constexpr Move none() { return Move(); }
};

// Optional rules that Janggi sources describe, each off by default (docs/rules.md "Rule options").
// A rule set plus these flags define the game; bits are stable (they may be stored).
struct RuleOptions {
  enum Flag : uint8_t { ELEPHANT_CHARIOT = 1, PROMOTION = 2, SAME_PIECE_CHECK = 4, FACING_DRAW = 8 };
  uint8_t bits = 0;
  constexpr bool has(Flag f) const { return bits & f; }
  constexpr bool any() const { return bits != 0; }
  constexpr bool operator==(RuleOptions o) const { return bits == o.bits; }
  constexpr bool operator!=(RuleOptions o) const { return bits != o.bits; }
};
constexpr int RULE_OPTION_NB = 4;
// "elephant-chariot", "soldier-promotion", "same-piece-check", "facing-draw" (bit i = 1 << i).
const char* rule_option_name(int i);
// Adds the named option to out; false if the name is unknown.
bool parse_rule_option(const std::string& name, RuleOptions& out);
// Comma-separated names of the options that are on ("" if none), and its inverse ("" = none).
std::string rule_options_str(RuleOptions o);
bool parse_rule_options(const std::string& list, RuleOptions& out, std::string* error);

// Rule sets (docs/rules.md). Order is stable: it is stored in replay files and encodings. The first
// JANGGI_RULESET_NB are Janggi's (the network's one-hot rule-set planes cover exactly these); XIANGQI is the
// second game on the same 9x10 board (docs/xiangqi.md).
enum class Ruleset : uint8_t { JANGGI = 0, TRADITIONAL = 1, MODERN = 2, CASUAL = 3, XIANGQI = 4 };
constexpr int JANGGI_RULESET_NB = 4;
constexpr int RULESET_NB = 5;

// The game a rule set belongs to: where the two differ in pieces, board lines or endings.
enum class GameKind : uint8_t { JANGGI = 0, XIANGQI = 1 };
constexpr GameKind game_of(Ruleset r) { return r == Ruleset::XIANGQI ? GameKind::XIANGQI : GameKind::JANGGI; }
constexpr const char* game_name(GameKind g) { return g == GameKind::XIANGQI ? "xiangqi" : "janggi"; }

struct RulesetInfo {
  const char* name;
  bool bikjang;         // facing generals restrict moves; a pass in bikjang ends the game
  bool counting;        // non-mate endings decided by material counting (else draw)
  int repetition;       // n-fold repetition ends the game
  int move_rule;        // plies without capture
  bool back_and_forth;  // 5th consecutive back-and-forth move loses
  bool pass;            // a pass is a move (Janggi); without it no legal move loses (Xiangqi)
};
const RulesetInfo& ruleset_info(Ruleset r);
// Parses "janggi", "janggitraditional", "janggimodern", "janggicasual", "xiangqi". Returns false if unknown.
bool parse_ruleset(const std::string& name, Ruleset& out);
inline const char* ruleset_name(Ruleset r) { return ruleset_info(r).name; }

}  // namespace jz
