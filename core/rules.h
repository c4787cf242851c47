// Game endings: checkmate, passes, bikjang, repetition and perpetual check, move rule,
// back-and-forth, and counting; Xiangqi's: checkmate and stalemate, perpetual check, repetition, move rule.
#pragma once
#include <string>

#include "position.h"

namespace jz {

enum class Winner : uint8_t { NONE = 0, CHO = 1, HAN = 2, DRAW = 3 };
enum class Ending : uint8_t {
  NONE = 0,
  CHECKMATE,
  DOUBLE_PASS,
  BIKJANG,
  REPETITION,
  PERPETUAL_CHECK,
  MOVE_RULE,
  BACK_AND_FORTH,
  RESIGNATION,
  LENGTH_CAP,
  ILLEGAL_MOVE,
  TIME,
  SAME_PIECE_CHECK,  // rule option same-piece-check: a draw
  STALEMATE         // Xiangqi: no legal move out of check loses too
};
constexpr int ENDING_NB = int(Ending::STALEMATE) + 1;

struct GameResult {
  Winner winner = Winner::NONE;
  Ending ending = Ending::NONE;
  bool by_counting = false;  // winner decided by material counting
  bool over() const { return winner != Winner::NONE; }
  std::string str() const;  // e.g. "1-0 (checkmate)", "0-1 (move rule, counting 70-72+1.5)"
};

const char* ending_name(Ending e);
// "cho", "han", "draw"; `none` for Winner::NONE (a game not over).
const char* winner_name(Winner w, const char* none = "none");
// An ending the rules decide on the board (checkmate, passes, bikjang, repetition, counting, ...), as
// opposed to resignation, time, a forfeit, a length cap or none.
bool rules_ending(Ending e);
bool parse_ending(const std::string& s, Ending& out);
Winner winner_of(Color c);
// The result as records write it: "1-0" (Cho wins), "0-1", "1/2-1/2", or "*" (not over).
const char* score_text(Winner w);

// Cho's material minus Han's (without the 1.5 bonus).
inline int material_margin(const Position& pos) { return pos.material(CHO) - pos.material(HAN); }
// Winner by counting: Cho iff its material exceeds Han's by 2 or more (Han +1.5 bonus).
Winner counting_winner(const Position& pos);
// Result of a non-mate ending under the position's rule set: counting or draw.
GameResult decide(const Position& pos, Ending ending);

// Rule option same-piece-check: the side that just moved gave check with each of its last three moves,
// and one of its pieces (followed as it moves) attacked the enemy general after each of them.
bool same_piece_check(const Position& pos);

// A rule option's draw on the board (same-piece check, facing generals): it ends the game like the
// pass endings do, also in perft.
bool option_ended_slow(const Position& pos);  // the check itself; option_ended skips it when no option is on
inline bool option_ended(const Position& pos) { return pos.options().any() && option_ended_slow(pos); }

// Full game-end test for the current position, given its history.
// Checks, in order: pass endings, checkmate, same-piece check (option), back-and-forth (janggimodern), repetition /
// perpetual check, move rule. Returns winner NONE while the game goes on.
GameResult game_result(const Position& pos);
// Same, when the caller already knows how many legal moves the side to move has.
GameResult game_result(const Position& pos, int legal_move_count);

}  // namespace jz
