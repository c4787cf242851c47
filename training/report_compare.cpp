#include "training/report_compare.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "training/csv_log.h"
#include "training/report.h"
#include "training/svg_chart.h"
#include "util/fileio.h"

namespace jz {

double interpolate(const std::vector<double>& xs, const std::vector<double>& ys, double x) {
  if (xs.empty() || ys.size() != xs.size()) return NAN;
  if (x <= xs.front()) return ys.front();
  for (size_t i = 1; i < xs.size(); ++i)
    if (x <= xs[i]) {
      double span = xs[i] - xs[i - 1];
      return span > 0 ? ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / span : ys[i];
    }
  return ys.back();
}

namespace {

struct Curves {
  std::map<std::string, ChartSeries> strength, kl, target_entropy, pass_endings, ratio;
};

void add_point(std::map<std::string, ChartSeries>& m, const std::string& name, double x, double y, std::string& csv,
               const std::string& run, const std::string& what) {
  if (std::isnan(x) || std::isnan(y)) return;
  ChartSeries& s = m[name];
  s.name = name;
  s.x.push_back(x);
  s.y.push_back(y);
  csv += run + "," + fmt_num(x) + "," + what + "," + fmt_num(y) + "\n";
}

// Rows of train.csv with a cpu_hours value, as (time, cpu_hours), for mapping chunk times to compute.
void time_to_cpu(const CsvTable& train, std::vector<double>& t, std::vector<double>& h) {
  auto time = train.numbers("time"), cpu = train.numbers("cpu_hours");
  for (size_t i = 0; i < time.size() && i < cpu.size(); ++i)
    if (!std::isnan(time[i]) && !std::isnan(cpu[i]) && (t.empty() || time[i] > t.back()))
      t.push_back(time[i]), h.push_back(cpu[i]);
}

void read_run(const std::string& dir, const std::string& run, Curves& c, std::string& csv) {
  CsvTable train, games, eval;
  std::string err;
  if (read_csv(dir + "/metrics/train.csv", train, &err)) {
    auto cpu = train.numbers("cpu_hours"), lp = train.numbers("loss_policy"), te = train.numbers("target_entropy"),
         ratio = train.numbers("ratio");
    for (size_t i = 0; i < cpu.size(); ++i) {
      add_point(c.kl, run, cpu[i], lp[i] - te[i], csv, run, "kl_target_prior");
      add_point(c.target_entropy, run, cpu[i], te[i], csv, run, "target_entropy");
      add_point(c.ratio, run, cpu[i], ratio[i], csv, run, "samples_per_position");
    }
  }
  std::vector<double> t, h;
  time_to_cpu(train, t, h);
  if (read_csv(dir + "/metrics/games.csv", games, &err) && !t.empty()) {
    // Bins of about 1/20 of the games: share ended by a double pass or bikjang.
    auto ms = games.numbers("created_ms"), n = games.numbers("games"), dp = games.numbers("double pass"),
         bj = games.numbers("bikjang");
    double total = 0;
    for (double x : n) total += std::isnan(x) ? 0 : x;
    double bin = std::max(1.0, total / 20), in_bin = 0, pass = 0;
    for (size_t i = 0; i < ms.size(); ++i) {
      in_bin += n[i], pass += dp[i] + bj[i];
      if (in_bin >= bin || i + 1 == ms.size()) {
        if (in_bin > 0)
          add_point(c.pass_endings, run, interpolate(t, h, ms[i] / 1000.0), pass / in_bin, csv, run,
                    "pass_endings_share");
        in_bin = pass = 0;
      }
    }
  }
  if (read_csv(dir + "/metrics/eval.csv", eval, &err)) {
    int opp = eval.column("opponent");
    auto cpu = eval.numbers("cpu_hours"), score = eval.numbers("score");
    for (size_t i = 0; opp >= 0 && i < eval.rows.size(); ++i) {
      const std::string& o = eval.rows[i][size_t(opp)];
      add_point(c.strength, run + " vs " + o, cpu[i], score[i], csv, run, "score_vs_" + o);
    }
  }
}

std::vector<ChartSeries> sorted(const std::map<std::string, ChartSeries>& m) {
  std::vector<ChartSeries> out;
  for (auto& [name, series] : m) {
    const ChartSeries& s = series;  // a named reference: C++17 lambdas cannot capture a binding
    std::vector<size_t> idx(s.x.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return s.x[a] < s.x[b]; });
    ChartSeries x;
    x.name = name;
    for (size_t i : idx) x.x.push_back(s.x[i]), x.y.push_back(s.y[i]);
    out.push_back(x);
  }
  return out;
}

}  // namespace

bool write_comparison(const std::vector<std::string>& run_dirs, const std::string& out, std::string* error) {
  Curves c;
  std::string csv = "run,cpu_hours,series,value\n";
  for (const std::string& dir : run_dirs) {
    if (!write_report(dir, "", error)) return false;
    read_run(dir, std::filesystem::path(dir).filename().string(), c, csv);
  }
  ChartOptions o;
  o.xlabel = "training CPU hours (self-play + trainer)";
  o.width = 760;
  o.height = 320;
  std::vector<std::string> charts;
  auto chart = [&](const std::string& title, const std::string& ylabel, const std::map<std::string, ChartSeries>& m,
                   bool points) {
    o.title = title, o.ylabel = ylabel, o.points = points;
    charts.push_back(svg_line_chart(o, sorted(m)));
  };
  chart("Score against fixed opponents", "score (1 = all won)", c.strength, true);
  chart("KL(search target || prior)", "nats", c.kl, false);
  chart("Search target entropy", "nats", c.target_entropy, false);
  chart("Self-play games ended by a double pass or bikjang", "share of games", c.pass_endings, true);
  chart("Samples trained per self-play position", "ratio", c.ratio, false);
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>janggi-zero runs compared</title>"
      "<style>body{font-family:sans-serif;margin:20px;color:#222}.charts{display:flex;flex-wrap:wrap;"
      "gap:12px}</style></head><body>\n<h1>janggi-zero runs compared</h1>\n<p>Runs:";
  for (const std::string& dir : run_dirs) html += " <code>" + html_escape(dir) + "</code>";
  html += "</p>\n<div class=\"charts\">\n";
  for (auto& ch : charts) html += "<div>" + ch + "</div>\n";
  html += "</div>\n<p>Data: " + html_escape(std::filesystem::path(out).replace_extension(".csv").filename().string()) +
          " (run, cpu_hours, series, value).</p></body></html>\n";
  std::string csv_path = std::filesystem::path(out).replace_extension(".csv").string();
  return write_file_atomic(csv_path, csv, error) && write_file_atomic(out, html, error);
}

}  // namespace jz
