// Inline SVG line charts for the HTML report (no scripts, no external files).
#pragma once
#include <string>
#include <vector>

namespace jz {

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;
  std::vector<double> lo, hi;  // optional error bars (same length as y)
};

struct ChartOptions {
  std::string title, xlabel, ylabel;
  int width = 620, height = 280;
  bool points = false;  // draw a dot per value
};

// NaN values are skipped. An empty chart says "no data".
std::string svg_line_chart(const ChartOptions& opts, const std::vector<ChartSeries>& series);
// Escapes &, <, >, " for HTML / XML text.
std::string html_escape(const std::string& s);

}  // namespace jz
