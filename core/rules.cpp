#include "rules.h"

#include "movegen.h"

namespace jz {

namespace {
const RulesetInfo RULESETS[RULESET_NB] = {
    {"janggi", true, true, 3, 100, false, true},
    {"janggitraditional", true, false, 3, 100, false, true},
    {"janggimodern", false, true, 4, 200, true, true},
    {"janggicasual", false, false, 3, 100, false, true},
    {"xiangqi", false, false, 3, 100, false, false},
};
const char* ENDING_NAMES[ENDING_NB] = {
    "none",           "checkmate",   "double pass", "bikjang",      "repetition", "perpetual check", "move rule",
    "back-and-forth", "resignation", "length cap",  "illegal move", "time",       "same-piece check",
    "stalemate"};
const char* OPTION_NAMES[RULE_OPTION_NB] = {"elephant-chariot", "soldier-promotion", "same-piece-check", "facing-draw"};
}  // namespace

const char* rule_option_name(int i) { return OPTION_NAMES[i]; }

bool parse_rule_option(const std::string& name, RuleOptions& out) {
  for (int i = 0; i < RULE_OPTION_NB; ++i)
    if (name == OPTION_NAMES[i]) {
      out.bits = uint8_t(out.bits | (1 << i));
      return true;
    }
  return false;
}

std::string rule_options_str(RuleOptions o) {
  std::string s;
  for (int i = 0; i < RULE_OPTION_NB; ++i)
    if (o.bits & (1 << i)) s += (s.empty() ? "" : ",") + std::string(OPTION_NAMES[i]);
  return s;
}

bool parse_rule_options(const std::string& list, RuleOptions& out, std::string* error) {
  RuleOptions o;
  size_t start = 0;
  while (start <= list.size() && !list.empty()) {
    size_t end = list.find(',', start);
    std::string name = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!parse_rule_option(name, o)) {
      if (error)
        *error = "unknown rule option '" + name + "' (known: elephant-chariot, soldier-promotion, same-piece-check)";
      return false;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  out = o;
  return true;
}

const RulesetInfo& ruleset_info(Ruleset r) { return RULESETS[int(r)]; }

bool parse_ruleset(const std::string& name, Ruleset& out) {
  for (int i = 0; i < RULESET_NB; ++i)
    if (name == RULESETS[i].name) {
      out = Ruleset(i);
      return true;
    }
  return false;
}

bool rules_ending(Ending e) {
  return e != Ending::NONE && e != Ending::RESIGNATION && e != Ending::LENGTH_CAP && e != Ending::TIME &&
         e != Ending::ILLEGAL_MOVE;
}

const char* ending_name(Ending e) { return ENDING_NAMES[int(e)]; }

const char* winner_name(Winner w, const char* none) {
  switch (w) {
    case Winner::CHO:
      return "cho";
    case Winner::HAN:
      return "han";
    case Winner::DRAW:
      return "draw";
    default:
      return none;
  }
}

bool parse_ending(const std::string& s, Ending& out) {
  for (int i = 0; i < ENDING_NB; ++i)
    if (s == ENDING_NAMES[i]) {
      out = Ending(i);
      return true;
    }
  return false;
}

Winner winner_of(Color c) { return c == CHO ? Winner::CHO : Winner::HAN; }

const char* score_text(Winner w) {
  return w == Winner::CHO ? "1-0" : w == Winner::HAN ? "0-1" : w == Winner::DRAW ? "1/2-1/2" : "*";
}

std::string GameResult::str() const {
  std::string s = score_text(winner);
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

bool same_piece_check(const Position& pos) {
  // Cheap test first: the last three moves of the mover (plies 0, 2, 4 back) all gave check.
  if (pos.history_size() < 5 || !pos.state(0).check || !pos.state(2).check || !pos.state(4).check) return false;
  Color us = ~pos.side_to_move();
  Position p = pos;  // rare path: step back through the history on a copy
  Square from[16];
  int n = 0;
  for (int i = 0; i < p.piece_count(us); ++i)
    if (p.attacks_from(p.piece_square(us, i), p.king_square(~us))) from[n++] = p.piece_square(us, i);
  for (int back = 0; back < 2 && n; ++back) {
    // Where each checker stood before the mover's last move (the opponent's reply moves none of
    // them: a captured piece cannot be a checker now), then does it attack two plies back?
    Move m = p.last_move();
    p.undo_move();
    p.undo_move();
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      Square s = (!m.is_pass() && m.to() == from[i]) ? m.from() : from[i];
      if (p.attacks_from(s, p.king_square(~us))) from[kept++] = s;
    }
    n = kept;
  }
  return n > 0;
}

bool option_ended_slow(const Position& pos) {
  RuleOptions o = pos.options();
  return (o.has(RuleOptions::FACING_DRAW) && pos.state().facing) ||
         (o.has(RuleOptions::SAME_PIECE_CHECK) && same_piece_check(pos));
}

GameResult game_result(const Position& pos) { return game_result(pos, count_legal(pos)); }

GameResult game_result(const Position& pos, int legal_move_count) {
  const RulesetInfo& info = ruleset_info(pos.ruleset());
  int h = pos.history_size();
  if (pos.pass_ended()) {
    bool bikjang = info.bikjang && pos.state(1).facing;
    return decide(pos, bikjang ? Ending::BIKJANG : Ending::DOUBLE_PASS);
  }
  if (pos.options().has(RuleOptions::FACING_DRAW) && pos.state().facing) {  // a simplified rule: a draw at once
    GameResult r;
    r.winner = Winner::DRAW;
    r.ending = Ending::BIKJANG;
    return r;
  }
  if (legal_move_count == 0) {  // Janggi: only when in check (a pass is always there otherwise)
    GameResult r;
    r.winner = winner_of(~pos.side_to_move());
    bool mated = pos.in_check() || info.pass || pos.king_square(pos.side_to_move()) == NO_SQUARE;
    r.ending = mated ? Ending::CHECKMATE : Ending::STALEMATE;
    return r;
  }
  if (pos.options().has(RuleOptions::SAME_PIECE_CHECK) && same_piece_check(pos)) {
    GameResult r;
    r.winner = Winner::DRAW;
    r.ending = Ending::SAME_PIECE_CHECK;
    return r;
  }
  if (info.back_and_forth && back_and_forth_loss(pos)) {
    GameResult r;
    r.winner = winner_of(pos.side_to_move());  // the mover (the other side) loses
    r.ending = Ending::BACK_AND_FORTH;
    return r;
  }
  // The move rule comes before repetition, as in the reference: a repetition (even a perpetual check) on
  // the ply that reaches the limit is a move-rule ending.
  if (pos.rule50() >= info.move_rule) return decide(pos, Ending::MOVE_RULE);
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
  return GameResult{};
}

}  // namespace jz
