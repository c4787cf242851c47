#include "training/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace jz {

namespace {

const char* const PALETTE[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                               "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string label(double v) {
  char b[32];
  double a = std::fabs(v);
  if (a != 0 && (a >= 1e5 || a < 1e-3))
    std::snprintf(b, sizeof b, "%.2g", v);
  else
    std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

// Round tick step for a range (1, 2, 5 x 10^k), about n ticks.
double tick_step(double range, int n) {
  double raw = range / n, p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

}  // namespace

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&')
      o += "&amp;";
    else if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

std::string svg_line_chart(const ChartOptions& o, const std::vector<ChartSeries>& series) {
  const double W = o.width, H = o.height, L = 62, R = 12, T = 28, B = 42;
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (auto& s : series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
      double lo = i < s.lo.size() && std::isfinite(s.lo[i]) ? s.lo[i] : s.y[i];
      double hi = i < s.hi.size() && std::isfinite(s.hi[i]) ? s.hi[i] : s.y[i];
      y0 = std::min({y0, s.y[i], lo}), y1 = std::max({y1, s.y[i], hi});
    }
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(W) + "\" height=\"" + num(H) +
                    "\" viewBox=\"0 0 " + num(W) + " " + num(H) + "\" font-family=\"sans-serif\" font-size=\"11\">";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>";
  svg += "<text x=\"" + num(W / 2) + "\" y=\"16\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">" +
         html_escape(o.title) + "</text>";
  if (!(x0 <= x1))
    return svg + "<text x=\"" + num(W / 2) + "\" y=\"" + num(H / 2) +
           "\" text-anchor=\"middle\" fill=\"#888\">no data</text></svg>";
  if (x1 - x0 < 1e-12) x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 < 1e-12) y0 -= std::max(0.5, std::fabs(y0) * 0.1), y1 += std::max(0.5, std::fabs(y1) * 0.1);
  double pad = (y1 - y0) * 0.05;
  y0 -= pad, y1 += pad;
  auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
  auto py = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };
  // Grid and axis labels.
  double ys = tick_step(y1 - y0, 5), xs = tick_step(x1 - x0, 6);
  for (double y = std::ceil(y0 / ys) * ys; y <= y1 + 1e-9 * ys; y += ys) {
    svg += "<line x1=\"" + num(L) + "\" x2=\"" + num(W - R) + "\" y1=\"" + num(py(y)) + "\" y2=\"" + num(py(y)) +
           "\" stroke=\"#e5e5e5\"/>";
    svg += "<text x=\"" + num(L - 4) + "\" y=\"" + num(py(y) + 4) + "\" text-anchor=\"end\">" + label(y) + "</text>";
  }
  for (double x = std::ceil(x0 / xs) * xs; x <= x1 + 1e-9 * xs; x += xs)
    svg +=
        "<text x=\"" + num(px(x)) + "\" y=\"" + num(H - B + 14) + "\" text-anchor=\"middle\">" + label(x) + "</text>";
  svg += "<rect x=\"" + num(L) + "\" y=\"" + num(T) + "\" width=\"" + num(W - L - R) + "\" height=\"" + num(H - T - B) +
         "\" fill=\"none\" stroke=\"#999\"/>";
  svg += "<text x=\"" + num(L + (W - L - R) / 2) + "\" y=\"" + num(H - 6) + "\" text-anchor=\"middle\">" +
         html_escape(o.xlabel) + "</text>";
  svg += "<text transform=\"translate(12," + num(T + (H - T - B) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         html_escape(o.ylabel) + "</text>";
  // Series.
  double lx = L + 8;
  for (size_t k = 0; k < series.size(); ++k) {
    const ChartSeries& s = series[k];
    const char* color = PALETTE[k % 10];
    std::string pts;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      pts += num(px(s.x[i])) + "," + num(py(s.y[i])) + " ";
      if (i < s.lo.size() && i < s.hi.size() && std::isfinite(s.lo[i]) && std::isfinite(s.hi[i]))
        svg += "<line x1=\"" + num(px(s.x[i])) + "\" x2=\"" + num(px(s.x[i])) + "\" y1=\"" + num(py(s.lo[i])) +
               "\" y2=\"" + num(py(s.hi[i])) + "\" stroke=\"" + color + "\" stroke-opacity=\"0.5\"/>";
      if (o.points)
        svg +=
            "<circle cx=\"" + num(px(s.x[i])) + "\" cy=\"" + num(py(s.y[i])) + "\" r=\"2.5\" fill=\"" + color + "\"/>";
    }
    if (!pts.empty())
      svg +=
          "<polyline fill=\"none\" stroke=\"" + std::string(color) + "\" stroke-width=\"1.5\" points=\"" + pts + "\"/>";
    svg += "<rect x=\"" + num(lx) + "\" y=\"" + num(T + 6) + "\" width=\"10\" height=\"3\" fill=\"" + color + "\"/>";
    svg += "<text x=\"" + num(lx + 14) + "\" y=\"" + num(T + 11) + "\">" + html_escape(s.name) + "</text>";
    lx += 24 + 6.5 * double(s.name.size());
  }
  return svg + "</svg>";
}

}  // namespace jz
