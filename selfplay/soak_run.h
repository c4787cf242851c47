// The soak test behind `janggi-zero soak`: the self-play machinery (SelfPlayWorker, MCTS trees,
// BatchingEvaluator, chunk writer) under load for a fixed time, typically with many more threads
// than cores. It samples memory and progress (CSV), a watchdog reports any play thread without
// progress for more than stall_seconds, and at the end every chunk written is validated and a JSON
// summary with a verdict is written. Formats: selfplay/README.md.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "selfplay/soak_report.h"

namespace jz {

struct SoakRun {
  std::string config, model, random_network, stub, out, csv, json;
  std::vector<std::string> overrides;
  int threads = 0;                    // 0: 4 x hardware threads
  int games_per_thread = 0;           // 0: selfplay.games_per_thread (16 without a config)
  double minutes = -1, seconds = -1;  // -1: not given
  double sample_seconds = 5, stall_seconds = 5;
  double warmup_percent = 20, warmup_seconds = -1;
  double max_growth_mib = 64;
  double inject_stall = 0;  // self-check: stall one play thread this long after warm-up
  bool keep = false;
};

enum class SoakResult { PASS, FAIL, ERROR };

// Runs the soak until its time is up or `stop` is set. ERROR (with *error) for bad options or a setup
// failure, else the verdict; *summary holds the figures either way once the run has started.
SoakResult run_soak(const SoakRun& run, const std::atomic<int>& stop, SoakSummary* summary, std::string* error);

}  // namespace jz
