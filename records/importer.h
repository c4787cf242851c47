// Importing game collections (.gib, PGN, this project's JSONL game records) as replay data: every
// game is replayed through the rules (each move legal and played while the game was on), its result
// settled (the rules' ending when the final position is over, else the record's), and each ply gets
// the move played as its policy target (with label smoothing over the legal moves) and the result
// from the side to move's view as its value (root WDL). Bad games are reported and skipped.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "records/parsed_game.h"
#include "replay/replay_format.h"

namespace jz {

enum class RecordFormat { AUTO, GIB, PGN, JSONL };
bool parse_record_format(const std::string& s, RecordFormat& out);  // auto | gib | pgn | jsonl

struct ImportOptions {
  RecordFormat format = RecordFormat::AUTO;  // AUTO: by extension, else by content
  Ruleset gib_rules = Ruleset::JANGGI;       // .gib files do not say which rules they were played under
  float label_smoothing = 0;                 // share of the policy target spread over all legal moves
};

struct ImportStats {
  int64_t files = 0, bad_files = 0;  // bad: unreadable or not text in a known encoding
  int64_t games_read = 0, imported = 0, skipped = 0, positions = 0;
};

// A parsed game as replay data (source IMPORT, origin as given). False with *bad_ply (0-based, -1
// for the headers / result) and a reason when the game is not usable.
bool make_training_game(const ParsedGame& game, float label_smoothing, const std::string& origin, GameRecord& out,
                        int* bad_ply, std::string* error);

// The games of one record file (decoded from UTF-8 or EUC-KR, format detected). False only when the
// file cannot be read or decoded; bad games come back with their errors.
bool read_record_file(const std::string& path, const ImportOptions& options, std::vector<ParsedGame>& games,
                      std::string* error);
// Same for text already in memory; `name` picks the format under AUTO.
bool read_record_bytes(const std::string& name, const std::string& bytes, const ImportOptions& options,
                       std::vector<ParsedGame>& games, std::string* error);

// Record files among `paths`: files as given, directories searched recursively for *.gib, *.pgn,
// *.jsonl (sorted). Paths that do not exist go to *missing.
std::vector<std::string> list_record_files(const std::vector<std::string>& paths, std::vector<std::string>* missing);

class Importer {
 public:
  using Sink = std::function<bool(GameRecord&&, std::string*)>;  // e.g. ChunkWriter::add
  using Report = std::function<void(const std::string&)>;        // one line per skipped game or file
  Importer(ImportOptions options, Sink sink, Report report);
  // Imports every game of one file. False only when the sink fails (an output error); a bad file or
  // game is reported ("FILE: game G, ply P: reason", G and P counted from 1) and skipped.
  bool import_file(const std::string& path, std::string* error);
  bool import_bytes(const std::string& name, const std::string& bytes, std::string* error);
  const ImportStats& stats() const { return stats_; }

 private:
  bool import_games(const std::string& name, const std::vector<ParsedGame>& games, std::string* error);
  ImportOptions options_;
  Sink sink_;
  Report report_;
  ImportStats stats_;
};

}  // namespace jz
