#include "selfplay/soak_report.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "util/log.h"

namespace jz {

namespace {

// Figures are measurements, not identities: one or two decimals keep the files readable.
// Divides by the power of ten (exact) rather than multiplying by its inverse (not exact in binary), so the
// JSON shows 161.2 and not 161.20000000000002.
double round_to(double x, double unit) {
  double scale = std::round(1 / unit);
  return std::round(x * scale) / scale;
}

// A machine that stalls every thread every few seconds would list thousands; the count says it all.
constexpr size_t MAX_LISTED_STALLS = 100;

}  // namespace

std::string soak_csv_header() {
  return "version,elapsed_s,cpu_s,rss_mib,hwm_mib,games,positions,moves,concurrent_games,games_per_s,evals_per_s,"
         "max_idle_s,stalls";
}

std::string soak_csv_row(const SoakSample& s) {
  return format_string("%d,%.2f,%.2f,%.1f,%.1f,%llu,%llu,%llu,%llu,%.3f,%.1f,%.2f,%d", SOAK_FORMAT_VERSION, s.elapsed,
                       s.cpu_seconds, s.rss_mib, s.hwm_mib, (unsigned long long)s.games,
                       (unsigned long long)s.positions, (unsigned long long)s.moves,
                       (unsigned long long)s.concurrent_games, s.games_per_s, s.evals_per_s, s.max_idle, s.stalls);
}

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  LineFit f;
  size_t n = std::min(x.size(), y.size());
  f.n = int(n);
  if (n == 0) return f;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n);
  my /= double(n);
  // Centred sums: RSS in MiB against seconds since start stays well conditioned this way.
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  f.slope = sxx > 0 ? sxy / sxx : 0;
  f.intercept = my - f.slope * mx;
  return f;
}

void summarize_memory(const std::vector<SoakSample>& samples, SoakSummary& s) {
  if (samples.empty()) return;
  s.rss_first_mib = samples.front().rss_mib;
  s.rss_end_mib = samples.back().rss_mib;
  s.hwm_mib = samples.back().hwm_mib;
  s.rss_max_mib = 0;
  std::vector<double> t, rss;
  for (const SoakSample& x : samples) {
    s.rss_max_mib = std::max(s.rss_max_mib, x.rss_mib);
    if (x.elapsed + 1e-9 < s.warmup_seconds) continue;
    t.push_back(x.elapsed);
    rss.push_back(x.rss_mib);
  }
  s.post_warmup_samples = int(t.size());
  s.rss_start_mib = t.empty() ? s.rss_end_mib : rss.front();
  double span = t.empty() ? 0 : t.back() - t.front();
  // Two points are a difference, not a trend: ask for three before judging growth.
  s.growth_measured = t.size() >= 3 && span > 0;
  if (!s.growth_measured) {
    s.growth_mib = s.growth_mib_per_hour = 0;
    return;
  }
  LineFit f = fit_line(t, rss);
  s.growth_mib = f.slope * span;
  s.growth_mib_per_hour = f.slope * 3600;
}

void decide_verdict(SoakSummary& s) {
  s.reasons.clear();
  bool fail = false;
  auto add = [&](bool is_failure, const std::string& why) {
    fail = fail || is_failure;
    s.reasons.push_back(why);
  };
  if (!s.error.empty()) add(true, "worker error: " + s.error);
  if (s.stalls > 0)
    add(true, format_string("%d stall(s): a play thread made no progress for more than %.1f s (longest %.1f s)",
                            s.stalls, s.stall_threshold, s.longest_stall));
  if (s.growth_measured && s.growth_mib > s.max_growth_mib)
    add(true, format_string("memory grew %.1f MiB after warm-up (least squares, %.1f MiB/h), more than "
                            "--max-growth-mib %.1f",
                            s.growth_mib, s.growth_mib_per_hour, s.max_growth_mib));
  if (!s.growth_measured)
    add(false, format_string("memory growth not measured: %d sample(s) after warm-up (%.0f s), 3 needed",
                             s.post_warmup_samples, s.warmup_seconds));
  if (s.corrupt_chunks > 0)
    add(true,
        format_string("%llu corrupt chunk(s): %s", (unsigned long long)s.corrupt_chunks, s.first_corrupt.c_str()));
  if (s.chunk_games != s.games)
    add(true, format_string("%llu games finished but %llu are in valid chunks", (unsigned long long)s.games,
                            (unsigned long long)s.chunk_games));
  if (s.games == 0) add(true, "no game finished: lighter search settings (--config, --set) or a longer run");
  if (s.interrupted)
    add(false, format_string("interrupted after %.0f of %.0f s", s.elapsed_seconds, s.planned_seconds));
  s.pass = !fail;
}

std::string soak_summary_json(const SoakSummary& s) {
  nlohmann::ordered_json j;
  j["version"] = SOAK_FORMAT_VERSION;
  j["threads"] = s.threads;
  j["games_per_thread"] = s.games_per_thread;
  j["concurrent_games"] = s.threads * s.games_per_thread;
  j["evaluator"] = s.evaluator;
  j["planned_seconds"] = round_to(s.planned_seconds, 0.1);
  j["elapsed_seconds"] = round_to(s.elapsed_seconds, 0.1);
  j["minutes"] = round_to(s.elapsed_seconds / 60, 0.01);
  j["warmup_seconds"] = round_to(s.warmup_seconds, 0.1);
  j["interrupted"] = s.interrupted;
  j["games"] = s.games;
  j["positions"] = s.positions;
  j["moves"] = s.moves;
  j["cpu_seconds"] = round_to(s.cpu_seconds, 0.1);
  nlohmann::ordered_json mem;
  mem["rss_first_mib"] = round_to(s.rss_first_mib, 0.1);
  mem["rss_start_mib"] = round_to(s.rss_start_mib, 0.1);
  mem["rss_end_mib"] = round_to(s.rss_end_mib, 0.1);
  mem["rss_max_mib"] = round_to(s.rss_max_mib, 0.1);
  mem["hwm_mib"] = round_to(s.hwm_mib, 0.1);
  mem["post_warmup_samples"] = s.post_warmup_samples;
  mem["growth_measured"] = s.growth_measured;
  mem["growth_mib"] = round_to(s.growth_mib, 0.1);
  mem["growth_mib_per_hour"] = round_to(s.growth_mib_per_hour, 0.1);
  mem["max_growth_mib"] = round_to(s.max_growth_mib, 0.1);
  j["memory"] = mem;
  nlohmann::ordered_json st;
  st["count"] = s.stalls;
  st["longest_seconds"] = round_to(s.longest_stall, 0.01);
  st["threshold_seconds"] = s.stall_threshold;
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (size_t i = 0; i < s.stall_events.size() && i < MAX_LISTED_STALLS; ++i) {
    const StallEvent& e = s.stall_events[i];
    nlohmann::ordered_json ev;
    ev["thread"] = e.worker;
    ev["at_seconds"] = round_to(e.start, 0.01);
    ev["duration_seconds"] = round_to(e.duration, 0.01);
    ev["ended"] = e.ended;
    events.push_back(ev);
  }
  st["events"] = events;
  st["events_not_listed"] = s.stall_events.size() > MAX_LISTED_STALLS ? s.stall_events.size() - MAX_LISTED_STALLS : 0;
  j["stalls"] = st;
  nlohmann::ordered_json ch;
  ch["count"] = s.chunks;
  ch["games"] = s.chunk_games;
  ch["corrupt"] = s.corrupt_chunks;
  ch["first_corrupt"] = s.first_corrupt;
  j["chunks"] = ch;
  j["error"] = s.error;
  j["output_dir"] = s.output_dir;
  j["verdict"] = s.pass ? "pass" : "fail";
  j["reasons"] = s.reasons;
  return j.dump(2);
}

}  // namespace jz
