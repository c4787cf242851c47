// RUN/eval/<name>.csv rows (network, step, games, opponent, score, elo, elo_lo, elo_hi) from an
// `evaluate` result file, the format `janggi-zero report` plots (training/README.md).
#pragma once
#include <string>

namespace jz {

// Appends one row for `network` (e.g. net-00000120) to csv_path (atomic rewrite; header if new).
bool append_eval_row(const std::string& result_json_path, const std::string& network, const std::string& opponent,
                     const std::string& csv_path, std::string* error);

}  // namespace jz
