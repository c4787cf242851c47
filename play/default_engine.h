// Which engine `uci`, `play` and `serve` use when nobody chose one: the strongest by measurement.
// The shipped network (models/latest.jzn) plays only when its record (models/latest.json, next to it)
// shows that it beats the alpha-beta engine's expert level at the same time per move; otherwise the
// default is alpha-beta expert. Explicit choices (UCI ModelPath / UseNetwork / Level, play --opponent /
// --model, serve --model / --no-model) bypass this. The record's rule is in models/README.md.
#pragma once
#include <string>

#include "core/types.h"

namespace jz {

// The opponent a record entry must name, exactly.
inline constexpr const char* EXPERT_SPEC = "alphabeta:level=expert";

// What a record says about the network against alpha-beta expert.
struct StrengthVerdict {
  bool beats_expert = false;
  std::string reason;      // one line: the match that decided, or what is missing or malformed
  std::string network_id;  // the record's "network_id" ("" when absent)
};

// Judges a record's text. The network beats expert when the record is a JSON object whose "strength"
// (a list of match entries, or a single entry) holds at least one entry with
//   "vs": "alphabeta:level=expert", "movetime_ms": T (integer > 0, per move for both sides),
//   "games": N (integer > 0), "score": S (the network's score over the N games, 0..1),
// and every such entry has S > 0.5. An entry against expert with a missing or bad field makes the
// record malformed (not a win). Entries against other opponents are not used. `source` names the
// record in reasons.
StrengthVerdict judge_strength_record(const std::string& json_text, const std::string& source);
// Reads and judges the record at `path` (a missing or unreadable file is not a win).
StrengthVerdict read_strength_record(const std::string& path);

// The record that belongs to a model file: the same path with ".json" for ".jzn".
std::string strength_record_path(const std::string& model_path);

struct DefaultEngine {
  bool network = false;    // true: the network in model_path; false: alpha-beta expert
  std::string model_path;  // the default model file ("" = none found)
  std::string network_id;  // the record's network_id: the loaded network must have its content hash
  std::string reason;      // why, one line
};

// Decides for a game's default model path ("" = none found; see play/model_path.h). Loads nothing.
DefaultEngine choose_default_engine(const std::string& model_path, GameKind game = GameKind::JANGGI);

// After the chosen network was loaded as `loaded_id` (name@hash8): if the record names another
// network (different hash), falls back to alpha-beta expert with the reason. Returns d.network.
bool confirm_default_network(DefaultEngine& d, const std::string& loaded_id);
// The chosen network could not be loaded: alpha-beta expert, with `error` as the reason.
void default_network_failed(DefaultEngine& d, const std::string& error);

}  // namespace jz
