#include "alphabeta/eval.h"

#include <algorithm>
#include <cstdlib>

#include "alphabeta/eval_terms.h"
#include "core/rules.h"

namespace jz::ab {

int counting_outcome(const Position& pos) {
  if (!ruleset_info(pos.ruleset()).counting) return 0;
  Winner w = counting_winner(pos);
  return (w == Winner::CHO) == (pos.side_to_move() == CHO) ? 1 : -1;
}

namespace {

// Side to move's view of Cho's score, with what the rules add near the end of the game.
int finish(const Position& pos, int cho, int tempo) {
  const RulesetInfo& info = ruleset_info(pos.ruleset());
  int v = pos.side_to_move() == CHO ? cho : -cho;
  // Near the move rule the game is about to end: the counting result (or a draw) takes over.
  int horizon = 40, left = info.move_rule - pos.rule50();
  int urgency = left >= horizon ? 0 : (horizon - std::max(left, 0)) * 256 / horizon;  // 0..256
  // After the opponent's pass (or in bikjang) our pass would end the game: an option, not a duty.
  // The search scores it exactly; statically, a counting win (or a draw without counting) is at hand.
  bool pass_ends = opponent_passed(pos) || pos.in_bikjang();
  if (info.counting) {
    int outcome = counting_outcome(pos);
    v += outcome * 400 * urgency / 256;
    if (pass_ends && outcome > 0) v = std::max(v, 0) + 400;
  } else {
    v = v * (256 - urgency * 3 / 4) / 256;
    if (pass_ends) v = std::max(v, 0);
  }
  v += tempo;
  return std::clamp(v, -15000, 15000);
}

}  // namespace

int evaluate(const Position& pos) { return finish(pos, eval_cho(pos, game_weights(pos.game())), 0); }

int evaluate_classic(const Position& pos) {
  if (pos.xiangqi()) return finish(pos, eval_cho(pos, xiangqi_hand_weights()), 0);  // before tuning
  int cho = eval_cho_classic(pos);
  // Han's 1.5-point counting bonus and the tempo (terms of the tuned evaluation).
  if (ruleset_info(pos.ruleset()).counting) cho -= 40;
  return finish(pos, cho, 10);
}

}  // namespace jz::ab
