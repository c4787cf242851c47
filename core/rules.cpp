#include "rules.h"

#include "movegen.h"

namespace jz {

namespace {
const RulesetInfo RULESETS[RULESET_NB] = {
    {"janggi", true, true, 3, 100, false},
    {"janggitraditional", true, false, 3, 100, false},
    {"janggimodern", false, true, 4, 200, true},
    {"janggicasual", false, false, 3, 100, false},
};
const char* ENDING_NAMES[] = {"none",        "checkmate",       "double pass",  "bikjang",
                              "repetition",  "perpetual check", "move rule",    "back-and-forth",
                              "resignation", "length cap",      "illegal move", "time"};
}  // namespace

const RulesetInfo& ruleset_info(Ruleset r) { return RULESETS[int(r)]; }

bool parse_ruleset(const std::string& name, Ruleset& out) {
  for (int i = 0; i < RULESET_NB; ++i)
    if (name == RULESETS[i].name) {
      out = Ruleset(i);
      return true;
    }
  return false;
}

const char* ending_name(Ending e) { return ENDING_NAMES[int(e)]; }

bool parse_ending(const std::string& s, Ending& out) {
  for (int i = 0; i <= int(Ending::TIME); ++i)
    if (s == ENDING_NAMES[i]) {
      out = Ending(i);
      return true;
    }
  return false;
}

Winner winner_of(Color c) { return c == CHO ? Winner::CHO : Winner::HAN; }

std::string GameResult::str() const {
  const char* score = winner == Winner::CHO    ? "1-0"
                      : winner == Winner::HAN  ? "0-1"
                      : winner == Winner::DRAW ? "1/2-1/2"
                                               : "*";
  std::string s = score;
  if (ending != Ending::NONE) s += std::string(" (") + ending_name(ending) + (by_counting ? ", counting)" : ")");
  return s;
}

Winner counting_winner(const Position& pos) { return material_margin(pos) >= 2 ? Winner::CHO : Winner::HAN; }

GameResult decide(const Position& pos, Ending ending) {
  GameResult r;
  r.ending = ending;
  if (ruleset_info(pos.ruleset()).counting) {
    r.winner = counting_winner(pos);
    r.by_counting = true;
  } else {
    r.winner = Winner::DRAW;
  }
  return r;
}

namespace {

// janggimodern: the player who just moved made the 5th consecutive back-and-forth move
// (A-B, B-A, A-B, B-A, A-B) with the same piece, no capture in between, while not in check.
bool back_and_forth_loss(const Position& pos) {
  if (pos.history_size() < 9) return false;
  const StateInfo& last = pos.state(0);
  if (last.move.is_pass() || last.captured) return false;
  PieceType t = type_of(last.moved);
  if (t == GENERAL || t == GUARD) return false;
  if (pos.state(1).check) return false;  // the mover was in check before the move
  Square a = last.move.from(), b = last.move.to();
  for (int k = 1; k < 9; ++k)
    if (pos.state(k).captured) return false;
  for (int k = 0; k < 5; ++k) {
    const StateInfo& s = pos.state(2 * k);
    Move expect = (k % 2 == 0) ? Move(a, b) : Move(b, a);
    if (s.move != expect || s.moved != last.moved) return false;
  }
  return true;
}

}  // namespace

GameResult game_result(const Position& pos) { return game_result(pos, count_legal(pos)); }

GameResult game_result(const Position& pos, int legal_move_count) {
  const RulesetInfo& info = ruleset_info(pos.ruleset());
  int h = pos.history_size();
  if (pos.pass_ended()) {
    bool bikjang = info.bikjang && pos.state(1).facing;
    return decide(pos, bikjang ? Ending::BIKJANG : Ending::DOUBLE_PASS);
  }
  if (legal_move_count == 0) {
    GameResult r;
    r.winner = winner_of(~pos.side_to_move());
    r.ending = Ending::CHECKMATE;
    return r;
  }
  if (info.back_and_forth && back_and_forth_loss(pos)) {
    GameResult r;
    r.winner = winner_of(pos.side_to_move());  // the mover (the other side) loses
    r.ending = Ending::BACK_AND_FORTH;
    return r;
  }
  // Repetition: the same position with the same side to move for the n-th time. Captures are
  // irreversible, so only the plies since the last capture can repeat.
  int span = std::min(pos.rule50(), h);
  int seen = 1, first = 0;
  uint64_t key = pos.key();
  for (int k = 2; k <= span; k += 2)
    if (pos.state(k).key == key) {
      ++seen;
      first = k;
    }
  if (seen >= info.repetition) {
    // Perpetual check: one side gave check with every one of its moves in the cycle.
    bool all_check[2] = {true, true};
    Color mover = ~pos.side_to_move();  // made the move into state(0)
    for (int k = 0; k < first; ++k) {
      Color c = (k % 2 == 0) ? mover : ~mover;
      if (!pos.state(k).check) all_check[c] = false;
    }
    if (all_check[0] != all_check[1]) {
      GameResult r;
      r.winner = winner_of(all_check[CHO] ? HAN : CHO);
      r.ending = Ending::PERPETUAL_CHECK;
      return r;
    }
    return decide(pos, Ending::REPETITION);
  }
  if (pos.rule50() >= info.move_rule) return decide(pos, Ending::MOVE_RULE);
  return GameResult{};
}

}  // namespace jz
