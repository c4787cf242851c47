// Game records of matches: one JSON object per line, self-contained so that a game replays through
// `janggi-zero uci` (setoption name UCI_Variant value <rules>; position fen <start_fen> moves <moves>).
#pragma once
#include <string>
#include <vector>

#include "core/rules.h"

namespace jz {

struct MatchRecord {
  int index = 0;            // game number in the match
  int pair = 0;             // games 2k and 2k+1 share a start and swap colors
  std::string cho, han;     // player names
  bool player1_cho = true;  // the match's player1 played Cho
  std::string setup;        // start setup name, e.g. "inner-outer"
  std::string start_fen;
  Ruleset rules = Ruleset::JANGGI;
  RuleOptions options;      // docs/rules.md "Rule options"; key "rule_options" only when any is on
  int opening_plies = 0;    // leading random plies of moves (not chosen by the players)
  std::vector<Move> moves;  // full game in play order, opening included
  GameResult result;
  std::string reason;  // forfeits: who and why; otherwise empty
  double seconds = 0;
  // Search effort by side (index Color): the sum of PlayerReply::nodes over the moves that reported it.
  int64_t nodes[2] = {0, 0};
  int searched_moves[2] = {0, 0};

  // Points of the match's player1: 1, 0.5 or 0.
  double player1_points() const;
};

std::string record_to_json(const MatchRecord& r);
// Parses one line; checks the fields but not that the moves are legal (see replay_record).
bool record_from_json(const std::string& line, MatchRecord& out, std::string* error);
// Replays the moves through the rules core: every move legal, the game not over before the last move.
// final_result is the referee's verdict at the end (NONE when the game was cut short by a forfeit).
bool replay_record(const MatchRecord& r, GameResult& final_result, std::string* error);

bool write_records(const std::string& path, const std::vector<MatchRecord>& games, std::string* error);
bool read_records(const std::string& path, std::vector<MatchRecord>& out, std::string* error);

}  // namespace jz
