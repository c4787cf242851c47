// The self-play worker process behind `janggi-zero selfplay`: plays with the newest network in the
// models directory (a random one while it is empty, or a stub evaluator), writes replay chunks to
// OUTPUT/<worker-id>/, a progress line on stderr and metrics (JSON lines) to
// OUTPUT/<worker-id>/metrics.jsonl. A stop flag ends it cleanly: finished games are flushed, games
// in progress are dropped.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "selfplay/selfplay_config.h"

namespace jz {

struct SelfPlayRun {
  std::string models_dir, output_dir;
  std::string worker_id;  // empty: host-pid
  std::string stub;       // "uniform" | "material": a network-free evaluator (tests, benchmarks)
  int threads = 1;
  int64_t games = 0;  // stop after this many games (0: no limit)
  double hours = 0;   // stop after this long (0: no limit)
};

// Runs the worker until its limits, the end of its games or `stop`. False with a one-line reason.
bool run_selfplay(const SelfPlayOptions& options, const SelfPlayRun& run, const std::atomic<int>& stop,
                  std::string* error);

}  // namespace jz
