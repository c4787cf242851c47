// The results store: a directory of finished matches, each as <stem>.result.json (the summary that
// `ratings` reads) next to <stem>.games.jsonl (the game records).
#pragma once
#include <string>
#include <vector>

#include "arena/match.h"
#include "arena/ratings.h"
#include "core/types.h"

namespace jz {

// A fresh path stem in dir for a match between the two players (dir is created), claimed by creating its
// empty games file (<stem>.games.jsonl), so that concurrent matches never share one.
bool new_match_stem(const std::string& dir, const MatchResult& names, std::string& stem, std::string* error);
std::string match_result_json(const MatchConfig& cfg, const MatchResult& r, const std::string& records_file);
bool write_match_result(const std::string& path, const MatchConfig& cfg, const MatchResult& r,
                        const std::string& records_file, std::string* error);
// Reads every *.result.json below dir (recursively) as pairwise results; *files counts them. Only the
// matches of one game are read (a result file's "rules"; none: Janggi); *other_game counts the rest.
bool load_results(const std::string& dir, std::vector<PairResult>& out, int* files, std::string* error,
                  GameKind game = GameKind::JANGGI, int* other_game = nullptr);

}  // namespace jz
