#include "training/report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "replay/chunk_reader.h"
#include "replay/chunk_writer.h"
#include "training/csv_log.h"
#include "training/run_dir.h"
#include "training/svg_chart.h"
#include "util/fileio.h"
#include "util/log.h"

namespace jz {

namespace {

struct ChunkRow {
  std::string file, network;
  uint64_t created_ms = 0;
  int64_t games = 0, positions = 0, winners[4] = {}, endings[12] = {};
};

std::vector<ChunkRow> scan_chunks(const std::string& dir, int* bad) {
  std::vector<ChunkRow> rows;
  for (const std::string& f : list_chunk_files(dir)) {
    ChunkHeader h;
    std::vector<GameRecord> games;
    std::string err;
    if (!read_chunk_file(f, h, games, &err)) {
      ++*bad;
      continue;
    }
    ChunkRow r;
    r.file = std::filesystem::path(f).filename().string();
    r.created_ms = h.created_ms;
    for (const GameRecord& g : games) {
      ++r.games;
      r.positions += g.num_plies();
      ++r.winners[int(g.winner) & 3];
      ++r.endings[std::min(11, int(g.ending))];
      r.network = g.network_id;
    }
    rows.push_back(std::move(r));
  }
  std::sort(rows.begin(), rows.end(), [](const ChunkRow& a, const ChunkRow& b) {
    return a.created_ms != b.created_ms ? a.created_ms < b.created_ms : a.file < b.file;
  });
  return rows;
}

std::string sanitize_csv(std::string s) {
  for (char& c : s)
    if (c == ',' || c == '\n' || c == '\r') c = '_';
  return s;
}

ChartSeries series(const std::string& name, const std::vector<double>& x, const std::vector<double>& y) {
  ChartSeries s;
  s.name = name;
  s.x = x;
  s.y = y;
  return s;
}

// What the page shows: charts (strength first) and notes on what is missing.
struct ReportParts {
  std::vector<std::string> charts, notes;
};

void training_charts(const CsvTable& train, ReportParts& parts) {
  auto step = train.numbers("step");
  ChartOptions o;
  o.xlabel = "step";
  o.title = "Policy losses (cross-entropy)";
  o.ylabel = "nats";
  parts.charts.push_back(svg_line_chart(o, {series("policy", step, train.numbers("loss_policy")),
                                            series("opponent reply", step, train.numbers("loss_opp_policy"))}));
  o.title = "Value and margin losses";
  o.ylabel = "loss";
  parts.charts.push_back(svg_line_chart(
      o, {series("value (WDL)", step, train.numbers("loss_value")),
          series("margin (Huber)", step, train.numbers("loss_margin")), series("total", step, train.numbers("loss"))}));
  o.title = "Policy entropy";
  o.ylabel = "nats";
  parts.charts.push_back(svg_line_chart(o, {series("network", step, train.numbers("policy_entropy")),
                                            series("search target", step, train.numbers("target_entropy"))}));
  o.title = "Training throughput";
  o.ylabel = "samples / s";
  parts.charts.push_back(svg_line_chart(o, {series("samples/s", step, train.numbers("samples_per_s"))}));
  o.title = "Samples trained per self-play position";
  o.ylabel = "ratio";
  parts.charts.push_back(svg_line_chart(o, {series("ratio", step, train.numbers("ratio"))}));
  o.title = "Learning rate";
  o.ylabel = "lr";
  parts.charts.push_back(svg_line_chart(o, {series("lr", step, train.numbers("lr"))}));
}

bool write_games_csv(const std::vector<ChunkRow>& chunks, const std::string& path, std::string* error) {
  std::string csv = "chunk,created_ms,games,positions,avg_plies,cho,han,draw,network";
  for (int e = 1; e < 12; ++e) csv += std::string(",") + ending_name(Ending(e));
  csv += "\n";
  for (auto& c : chunks) {
    csv += c.file + "," + std::to_string(c.created_ms) + "," + std::to_string(c.games) + "," +
           std::to_string(c.positions) + "," + fmt_num(c.games ? double(c.positions) / c.games : 0) + "," +
           std::to_string(c.winners[1]) + "," + std::to_string(c.winners[2]) + "," + std::to_string(c.winners[3]) +
           "," + sanitize_csv(c.network);
    for (int e = 1; e < 12; ++e) csv += "," + std::to_string(c.endings[e]);
    csv += "\n";
  }
  return write_file_atomic(path, csv, error);
}

// Self-play games, binned by cumulative games (at most 40 points).
void games_charts(const std::vector<ChunkRow>& chunks, ReportParts& parts) {
  const int bins = int(std::min<size_t>(40, chunks.size()));
  std::vector<double> x, len, cho, han, draw;
  std::map<int, std::vector<double>> ending_share;
  size_t ci = 0;
  int64_t cum = 0;
  for (int b = 0; b < bins; ++b) {
    ChunkRow agg;
    size_t end = chunks.size() * size_t(b + 1) / size_t(bins);
    for (; ci < end; ++ci) {
      const ChunkRow& c = chunks[ci];
      agg.games += c.games, agg.positions += c.positions;
      for (int k = 0; k < 4; ++k) agg.winners[k] += c.winners[k];
      for (int k = 0; k < 12; ++k) agg.endings[k] += c.endings[k];
    }
    if (!agg.games) continue;
    cum += agg.games;
    x.push_back(double(cum));
    len.push_back(double(agg.positions) / agg.games);
    cho.push_back(double(agg.winners[1]) / agg.games);
    han.push_back(double(agg.winners[2]) / agg.games);
    draw.push_back(double(agg.winners[3]) / agg.games);
    for (int e = 1; e < 12; ++e) ending_share[e].push_back(double(agg.endings[e]) / agg.games);
  }
  ChartOptions o;
  o.xlabel = "games played";
  o.points = x.size() < 20;
  o.title = "Self-play game length";
  o.ylabel = "plies";
  parts.charts.push_back(svg_line_chart(o, {series("average plies", x, len)}));
  o.title = "Self-play results";
  o.ylabel = "share of games";
  parts.charts.push_back(
      svg_line_chart(o, {series("Cho wins", x, cho), series("Han wins", x, han), series("draws", x, draw)}));
  o.title = "Game endings";
  std::vector<ChartSeries> es;
  for (auto& [e, v] : ending_share)
    if (*std::max_element(v.begin(), v.end()) > 0) es.push_back(series(ending_name(Ending(e)), x, v));
  parts.charts.push_back(svg_line_chart(o, es));
}

// The last value of a train.csv column at or before a step (NaN if none; 0 for the untrained network).
double train_value_at(const CsvTable* train, const char* column, double step) {
  int c = train ? train->column(column) : -1;
  double v = NAN;
  if (c < 0 || !(step >= 0)) return v;
  for (auto& r : train->rows) {
    char* e = nullptr;
    double s = std::strtod(r[0].c_str(), &e);
    if (e == r[0].c_str() || s > step) continue;
    double x = std::strtod(r[size_t(c)].c_str(), &e);
    v = e == r[size_t(c)].c_str() ? NAN : x;
  }
  if (step == 0 && std::isnan(v)) v = 0;  // the untrained network: nothing spent yet
  return v;
}

std::vector<ChartSeries> sorted_series(const std::map<std::string, ChartSeries>& m) {
  std::vector<ChartSeries> ss;
  for (auto& [name, series] : m) {
    const ChartSeries& s = series;  // a named reference: C++17 lambdas cannot capture a binding
    if (s.x.empty()) continue;
    std::vector<size_t> idx(s.x.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return s.x[a] < s.x[b]; });
    ChartSeries sorted;
    sorted.name = s.name;
    for (size_t i : idx)
      sorted.x.push_back(s.x[i]), sorted.y.push_back(s.y[i]), sorted.lo.push_back(s.lo[i]),
          sorted.hi.push_back(s.hi[i]);
    ss.push_back(sorted);
  }
  return ss;
}

// Elo by opponent against step, self-play games and CPU hours.
struct StrengthCurves {
  std::map<std::string, ChartSeries> by_step, by_games, by_cpu;
  int rows = 0;
};

// Strength: every RUN/eval/*.csv with the contract's columns, merged into metrics/eval.csv with the
// self-play games and training CPU hours at each network's step (from metrics/train.csv), so the
// learning curve can be drawn against steps, games or compute.
bool read_strength(const RunDir& run, const CsvTable* train, StrengthCurves& curves, ReportParts& parts,
                   std::string* error) {
  std::string eval_csv = "network,step,games,opponent,score,elo,elo_lo,elo_hi,selfplay_games,cpu_hours\n";
  std::vector<std::string> eval_files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(run.eval(), ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".csv") eval_files.push_back(it->path().string());
  std::sort(eval_files.begin(), eval_files.end());
  for (const std::string& f : eval_files) {
    CsvTable t;
    std::string err;
    if (!read_csv(f, t, &err)) continue;
    const char* need[] = {"network", "step", "games", "opponent", "score", "elo", "elo_lo", "elo_hi"};
    int col[8];
    bool ok = true;
    for (int k = 0; k < 8; ++k) ok &= (col[k] = t.column(need[k])) >= 0;
    if (!ok) {
      parts.notes.push_back("eval/" + std::filesystem::path(f).filename().string() + ": missing columns, skipped.");
      continue;
    }
    for (auto& r : t.rows) {
      auto d = [&](int k) {
        char* e = nullptr;
        double v = std::strtod(r[size_t(col[k])].c_str(), &e);
        return e == r[size_t(col[k])].c_str() ? NAN : v;
      };
      const double games_at = train_value_at(train, "games", d(1)), cpu_at = train_value_at(train, "cpu_hours", d(1));
      for (int k = 0; k < 8; ++k) eval_csv += (k ? "," : "") + r[size_t(col[k])];
      eval_csv += "," + (std::isnan(games_at) ? std::string() : fmt_num(games_at)) + "," +
                  (std::isnan(cpu_at) ? std::string() : fmt_num(cpu_at)) + "\n";
      ++curves.rows;
      const std::string& opp = r[size_t(col[3])];
      for (auto* m : {&curves.by_step, &curves.by_games, &curves.by_cpu}) {
        ChartSeries& s = (*m)[opp];
        double x = m == &curves.by_step ? d(1) : m == &curves.by_games ? games_at : cpu_at;
        if (std::isnan(x)) continue;
        s.name = "vs " + opp;
        s.x.push_back(x);
        s.y.push_back(d(5));
        s.lo.push_back(d(6));
        s.hi.push_back(d(7));
      }
    }
  }
  return write_file_atomic(run.metrics() + "/eval.csv", eval_csv, error);
}

void strength_charts(const StrengthCurves& curves, ReportParts& parts) {
  if (!curves.rows) {
    parts.notes.push_back(
        "No evaluation results yet (eval/*.csv with columns network, step, games, opponent, "
        "score, elo, elo_lo, elo_hi).");
    return;
  }
  ChartOptions o;
  o.ylabel = "Elo";
  o.points = true;
  std::vector<std::string> strength;
  o.title = "Strength vs training step (Elo, 95% interval)";
  o.xlabel = "training step of the network";
  strength.push_back(svg_line_chart(o, sorted_series(curves.by_step)));
  o.title = "Strength vs self-play games";
  o.xlabel = "self-play games before the network";
  if (!sorted_series(curves.by_games).empty()) strength.push_back(svg_line_chart(o, sorted_series(curves.by_games)));
  o.title = "Strength vs compute";
  o.xlabel = "training CPU hours (self-play + trainer)";
  if (!sorted_series(curves.by_cpu).empty()) strength.push_back(svg_line_chart(o, sorted_series(curves.by_cpu)));
  parts.charts.insert(parts.charts.begin(), strength.begin(), strength.end());
}

std::string report_page(const RunDir& run, const CsvTable* train, const std::vector<ChunkRow>& chunks, int eval_rows,
                        const ReportParts& parts) {
  int64_t total_games = 0, total_positions = 0;
  for (auto& c : chunks) total_games += c.games, total_positions += c.positions;
  auto models = list_numbered(run.models(), "net-", ".jzn");
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>janggi-zero run report</title><style>"
      "body{font-family:sans-serif;margin:20px;color:#222}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}.charts{display:flex;flex-wrap:wrap;gap:12px}"
      ".note{color:#777}</style></head><body>\n";
  html += "<h1>janggi-zero run report</h1>\n<table>";
  auto row = [&](const std::string& k, const std::string& v) {
    html += "<tr><th>" + html_escape(k) + "</th><td>" + html_escape(v) + "</td></tr>";
  };
  row("run directory", run.root);
  row("generated", format_string("%.0f (unix time)", double(unix_millis()) / 1000.0));
  if (train) {
    const auto& last = train->rows.back();
    auto cell = [&](const char* c) {
      int i = train->column(c);
      return i >= 0 ? last[size_t(i)] : std::string("?");
    };
    row("training step", cell("step"));
    row("samples trained", cell("samples"));
    row("last losses (policy / value / margin / opponent)", cell("loss_policy") + " / " + cell("loss_value") + " / " +
                                                                cell("loss_margin") + " / " + cell("loss_opp_policy"));
    row("samples per position", cell("ratio"));
  }
  row("networks exported",
      std::to_string(models.size()) +
          (models.empty() ? "" : " (newest " + std::filesystem::path(models.back().second).filename().string() + ")"));
  row("self-play games / positions", std::to_string(total_games) + " / " + std::to_string(total_positions));
  row("evaluation results", std::to_string(eval_rows));
  html += "</table>\n";
  for (auto& n : parts.notes) html += "<p class=\"note\">" + html_escape(n) + "</p>\n";
  html += "<div class=\"charts\">\n";
  for (auto& c : parts.charts) html += "<div>" + c + "</div>\n";
  html += "</div>\n<p class=\"note\">Data: metrics/train.csv, metrics/games.csv, metrics/eval.csv.</p></body></html>\n";
  return html;
}

}  // namespace

bool write_report(const std::string& run_dir, const std::string& out_path, std::string* error) {
  RunDir run(run_dir);
  if (!std::filesystem::is_directory(run_dir)) {
    if (error) *error = "run directory '" + run_dir + "' does not exist";
    return false;
  }
  ReportParts parts;
  CsvTable train_table;
  std::string err;
  const CsvTable* train = nullptr;  // set when metrics/train.csv has rows
  if (read_csv(run.metrics() + "/train.csv", train_table, &err) && !train_table.rows.empty()) {
    train = &train_table;
    training_charts(*train, parts);
  } else {
    parts.notes.push_back("No training metrics yet (metrics/train.csv).");
  }
  int bad = 0;
  std::vector<ChunkRow> chunks = scan_chunks(run.games(), &bad);
  if (!make_dirs(run.metrics())) {
    if (error) *error = "cannot create " + run.metrics();
    return false;
  }
  if (!write_games_csv(chunks, run.metrics() + "/games.csv", error)) return false;
  if (!chunks.empty())
    games_charts(chunks, parts);
  else
    parts.notes.push_back("No self-play games yet (games/).");
  if (bad) parts.notes.push_back(std::to_string(bad) + " unreadable chunk file(s) skipped.");
  StrengthCurves curves;
  if (!read_strength(run, train, curves, parts, error)) return false;
  strength_charts(curves, parts);
  const std::string out = out_path.empty() ? run.root + "/report.html" : out_path;
  return write_file_atomic(out, report_page(run, train, chunks, curves.rows, parts), error);
}

}  // namespace jz
