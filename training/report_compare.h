// `janggi-zero report --run-dir A --run-dir B ...`: several runs on one page, against training CPU
// hours (the learning race): strength per opponent, KL(search target || prior), policy target entropy,
// the share of self-play games ended by a double pass or bikjang, samples per position. Also writes the
// plotted points as one CSV (run,cpu_hours,series,value) next to the page.
#pragma once
#include <string>
#include <vector>

namespace jz {

// out: the HTML file; its CSV is the same path with .csv. Refreshes each run's own report first (its
// metrics/games.csv and metrics/eval.csv). False with a one-line reason.
bool write_comparison(const std::vector<std::string>& run_dirs, const std::string& out, std::string* error);

// Linear interpolation of y(x) over rising xs (clamped at both ends; NaN when xs is empty).
double interpolate(const std::vector<double>& xs, const std::vector<double>& ys, double x);

}  // namespace jz
