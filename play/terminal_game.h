// A game in the terminal against the network or the alpha-beta levels (`janggi-zero play`): reads
// moves and commands line by line from a stream, so a game can be scripted, and draws the board to another.
#pragma once
#include <iosfwd>
#include <string>

#include "play/board_text.h"
#include "play/engine.h"
#include "play/game.h"

namespace jz {

struct TerminalOptions {
  std::string side = "cho";  // the human's side: cho, han (Xiangqi: red, black), both (two people), none
  std::string cho_setup = "inner", han_setup = "inner";
  std::string rules = "janggi";
  std::string opponent;      // net, easy, normal, expert; empty: the default engine (play/default_engine.h)
  std::string model;         // network file (default: models/latest.jzn)
  std::string load;          // start from a saved game
  RuleOptions rule_options;  // docs/rules.md "Rule options" (a saved game brings its own)
  int sims = 800, movetime = 0, threads = 1;
  bool ascii = false, hangul = false, color = false, no_color = false;
  bool stdout_is_terminal = false;  // colours by default only on a terminal
};

class TerminalGame {
 public:
  TerminalGame(const TerminalOptions& o, std::istream& in, std::ostream& out) : a_(o), in_(in), out_(out) {}
  // Plays until the input ends or `quit`. False with a one-line reason when the game cannot start (bad
  // options, a setup or saved game that does not load, no network); mistakes during the game are
  // answered on the output and the game goes on.
  bool run(std::string* error);

 private:
  bool human(Color c) const;
  std::string side_name(Color c) const;  // cho/han, or Xiangqi's red/black
  std::string opponent_name() const;
  bool setup(std::string* error);
  bool choose_engine(std::string* error);
  void show();
  void announce(const GameResult& r);
  SearchLimits limits() const;
  std::string describe(const ThinkInfo& t) const;
  void engine_move();
  bool command(const std::string& line);

  TerminalOptions a_;
  std::string opponent_;      // as chosen: net, easy, normal, expert
  std::string default_note_;  // which engine the default is, and why (no --opponent)
  std::istream& in_;
  std::ostream& out_;
  Game game_;
  PlayEngine engine_;
  BoardStyle style_;
};

}  // namespace jz
