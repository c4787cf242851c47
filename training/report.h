// `janggi-zero report`: a self-contained HTML page (inline SVG) about a run directory: training
// losses, policy entropy, throughput, self-play game length and endings, and strength over time
// from RUN/eval/*.csv (columns network, step, games, opponent, score, elo, elo_lo, elo_hi).
// Also writes the CSVs it plots: metrics/games.csv (one row per replay chunk) and metrics/eval.csv.
#pragma once
#include <string>

namespace jz {

// out empty = RUN/report.html. False with a one-line reason.
bool write_report(const std::string& run_dir, const std::string& out, std::string* error);

}  // namespace jz
