// One game being played by people and engines: start position, rule set, moves, undo, resignation,
// and its record (JSON) for save / load / download. Shared by `play` and `serve`.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"

namespace jz {

class Game {
 public:
  Game();
  // Starts from a FEN (history empty). False + one-line *error on a bad FEN.
  bool start(const std::string& fen, Ruleset rules, std::string* error);
  bool start(const std::string& fen, Ruleset rules, RuleOptions options, std::string* error);
  // Starts from a setup index (core/setups.h) or name; elephant-chariot needs that rule option. Xiangqi
  // has one start position (Position::start_fen): only the default setup, inner-inner, names it.
  bool start_setup(const std::string& setup, Ruleset rules, std::string* error);
  bool start_setup(const std::string& setup, Ruleset rules, RuleOptions options, std::string* error);

  const Position& pos() const { return pos_; }
  Ruleset rules() const { return pos_.ruleset(); }
  RuleOptions options() const { return pos_.options(); }
  const std::string& start_fen() const { return start_fen_; }
  const std::string& setup() const { return setup_; }  // setup name if started from one
  const std::vector<Move>& moves() const { return moves_; }
  int ply() const { return int(moves_.size()); }

  // Result so far: resignation if any, else the rules' verdict on the position.
  GameResult result() const;
  bool over() const { return result().over(); }

  // Plays a legal move (game not over). False + *error otherwise; the game is unchanged.
  bool play(Move m, std::string* error);
  // Parses UCI or Korean numeric notation (core/notation.h parse_any_move) and plays it.
  bool play_text(const std::string& text, Move* played, std::string* error);
  // Takes back up to n plies (and any resignation). Returns the number taken back.
  int undo(int n = 1);
  void resign(Color loser);

  // Move i (0-based) in Korean notation (the position before it is replayed).
  std::string korean(int i, bool hanja = false) const;
  std::vector<std::string> korean_moves(bool hanja = false) const;
  // The same in the game's own notation: Korean for Janggi, Chinese (炮二平五) for Xiangqi.
  std::string notation(int i) const;
  std::vector<std::string> notation_moves() const;

  // Record: {"format":"janggi-zero-game","rules","rule_options" (only when any is on),"setup","start_fen",
  //          "moves":[UCI],"korean":[...],"chinese":[...] (Xiangqi only),"result","winner","ending"}.
  std::string to_json() const;
  // Replays a record through the rules core (every move must be legal). Game unchanged on failure.
  bool from_json(const std::string& text, std::string* error);
  bool save(const std::string& path, std::string* error) const;
  bool load(const std::string& path, std::string* error);

 private:
  Position position_before(int i) const;  // replayed from the start position
  std::vector<std::string> write_moves(const std::function<std::string(const Position&, Move)>& write) const;

  Position pos_;
  std::string start_fen_, setup_;
  std::vector<Move> moves_;
  GameResult resigned_;
};

const char* winner_word(Winner w);  // "cho", "han", "draw", ""

}  // namespace jz
