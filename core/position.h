// Position: board, side to move, rule set and the full move history that game endings need.
#pragma once
#include <string>
#include <vector>

#include "types.h"

namespace jz {

// What one ply left behind; states_[0] describes the position the game (or FEN) started from.
struct StateInfo {
  uint64_t key = 0;  // Zobrist key of the position after this ply
  Move move;         // move that led here (none for the root)
  Piece captured = NO_PIECE;
  Piece moved = NO_PIECE;
  uint16_t rule50 = 0;  // plies since the last capture
  bool check = false;   // side to move is in check here
  bool facing = false;  // the two generals face each other on an open file here
};

class Position {
 public:
  static constexpr const char* START_FEN = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
  static constexpr const char* XIANGQI_START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
  // The start position of a rule set's game (Janggi's inner-inner setup; see setups.h for the others).
  static const char* start_fen(Ruleset r) { return r == Ruleset::XIANGQI ? XIANGQI_START_FEN : START_FEN; }

  Position();
  // Parses a FEN; on failure returns false and writes a one-line reason to *error.
  bool set_fen(const std::string& fen, Ruleset rules, std::string* error);
  // Same, with rule options (the FEN itself never carries them).
  bool set_fen(const std::string& fen, Ruleset rules, RuleOptions options, std::string* error);
  std::string fen() const;

  Piece piece_on(Square s) const { return board_[s]; }
  Color side_to_move() const { return side_; }
  Ruleset ruleset() const { return rules_; }
  GameKind game() const { return game_of(rules_); }
  bool xiangqi() const { return rules_ == Ruleset::XIANGQI; }
  RuleOptions options() const { return options_; }
  Square king_square(Color c) const { return king_[c]; }
  uint64_t key() const { return st().key; }
  bool in_check() const { return st().check; }
  // The side to move stands in bikjang (only under rule sets that have bikjang).
  bool in_bikjang() const { return st().facing && ruleset_info(rules_).bikjang; }
  int rule50() const { return st().rule50; }
  int game_ply() const { return start_ply_ + int(states_.size()) - 1; }
  int history_size() const { return int(states_.size()) - 1; }  // plies made since set_fen
  const StateInfo& state(int back = 0) const { return states_[states_.size() - 1 - back]; }
  Move last_move() const { return st().move; }
  // Pieces of one color: squares (the general among them).
  int piece_count(Color c) const { return count_[c]; }
  Square piece_square(Color c, int i) const { return list_[c][i]; }
  // Counting material (without Han's 1.5 bonus).
  int material(Color c) const { return material_[c]; }

  bool attacked(Square s, Color by) const;
  // Squares of the pieces of the side to move's opponent that attack the side to move's general.
  int checkers(Square* out) const;
  // The piece on `from` attacks `target` (by its own movement rules, ignoring legality).
  bool attacks_from(Square from, Square target) const;
  bool generals_facing() const;
  // Fully checks legality (used for moves that the generator's fast filter cannot clear).
  bool legal_slow(Move m) const;
  // The game ended through passes: two consecutive passes, or a pass made in bikjang.
  bool pass_ended() const;

  void do_move(Move m);
  void undo_move();

 private:
  struct EmptyTag {};
  explicit Position(EmptyTag);
  const StateInfo& st() const { return states_.back(); }
  void put(Square s, Piece p);
  void remove(Square s);
  void move_piece(Square from, Square to);
  bool compute_facing() const;
  bool attacked_xiangqi(Square s, Color by) const;
  bool attacks_from_xiangqi(Square from, Square target) const;

  Piece board_[SQUARE_NB];
  int8_t index_[SQUARE_NB];
  Square list_[2][16];
  int8_t count_[2];
  Square king_[2];
  int material_[2];
  Color side_;
  Ruleset rules_;
  RuleOptions options_;
  int start_ply_;
  std::vector<StateInfo> states_;
};

namespace zobrist {
uint64_t piece(Piece p, Square s);
uint64_t side();
}  // namespace zobrist

}  // namespace jz
