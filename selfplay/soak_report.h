// What the soak test (`janggi-zero soak`) writes: one CSV row per sample, and a JSON summary with the
// memory trend after warm-up, stalls, the chunk check and a verdict. Formats (version SOAK_FORMAT_VERSION):
// docs/architecture.md. Kept apart from the command so the arithmetic and the verdict can be tested.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "selfplay/soak_monitor.h"

namespace jz {

constexpr int SOAK_FORMAT_VERSION = 1;

struct SoakSample {
  double elapsed = 0;      // seconds since the workers started
  double cpu_seconds = 0;  // process CPU time since then (the machine may be shared)
  double rss_mib = 0, hwm_mib = 0;
  uint64_t games = 0, positions = 0, moves = 0, concurrent_games = 0;
  double games_per_s = 0, evals_per_s = 0;  // since the previous sample
  double max_idle = 0;                      // longest time since any play thread made progress
  int stalls = 0;                           // stalls so far
};

std::string soak_csv_header();                // no newline
std::string soak_csv_row(const SoakSample&);  // no newline

// Least-squares line y = intercept + slope * x. n < 2 or all x equal: slope 0.
struct LineFit {
  double slope = 0, intercept = 0;
  int n = 0;
};
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y);

struct SoakSummary {
  // Set by the command.
  int threads = 0, games_per_thread = 0;
  std::string evaluator;  // "stub material", "random 4x32", "model <id>"
  double planned_seconds = 0, elapsed_seconds = 0, warmup_seconds = 0;
  bool interrupted = false;  // stopped by SIGINT/SIGTERM before the planned time
  uint64_t games = 0, positions = 0, moves = 0;
  double cpu_seconds = 0;
  uint64_t chunks = 0, chunk_games = 0, corrupt_chunks = 0;
  std::string first_corrupt;  // reason for the first corrupt chunk
  int stalls = 0;
  double longest_stall = 0, stall_threshold = 0;
  std::vector<StallEvent> stall_events;  // start in seconds since the run began; the JSON lists the first 100
  double max_growth_mib = 0;             // allowed growth after warm-up
  std::string error;                     // a worker or writer error, if any
  std::string output_dir;                // empty when it was a temporary directory that is removed

  // Memory, from the samples (summarize_memory).
  double rss_first_mib = 0;  // first sample (workers just started)
  double rss_start_mib = 0;  // first sample at or after the end of warm-up
  double rss_end_mib = 0, rss_max_mib = 0, hwm_mib = 0;
  int post_warmup_samples = 0;
  bool growth_measured = false;  // at least 3 post-warm-up samples spanning some time
  double growth_mib = 0;         // fitted line over the post-warm-up span
  double growth_mib_per_hour = 0;

  // Verdict (decide_verdict).
  bool pass = false;
  std::vector<std::string> reasons;  // why it failed, or notes (e.g. growth not measured)
};

// Fills the memory fields from the samples: start = first sample at elapsed >= warmup_seconds, growth =
// least-squares slope of RSS over the samples from there on, times their time span.
void summarize_memory(const std::vector<SoakSample>& samples, SoakSummary& s);
// Fails on: a stall, fitted growth above max_growth_mib, a corrupt chunk, finished games missing from
// the chunks, a worker error, or no finished game at all.
void decide_verdict(SoakSummary& s);
std::string soak_summary_json(const SoakSummary& s);  // pretty-printed, one object

}  // namespace jz
