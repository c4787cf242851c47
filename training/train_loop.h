// `janggi-zero train`: the local training run. Sets up or resumes the run directory, starts the
// self-play child (`janggi-zero selfplay ... --worker-id local`), and trains at the configured
// ratio of samples per self-play position, exporting networks and writing checkpoints and metrics.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace jz {

struct TrainRunArgs {
  std::string config;                  // --config (may be empty when the run dir has config.yaml)
  std::vector<std::string> overrides;  // --set key=value: this session (and its self-play child) only
  std::string run_dir;
  bool resume = false;        // accepted for clarity: a run dir with a checkpoint always resumes
  bool trainer_only = false;  // no local self-play child (cluster workers produce the data)
  int64_t steps = 0;          // stop at this step (total over all sessions); 0 = no limit
  double hours = 0;           // stop after this long (this session); 0 = no limit
  double cpu_hours = 0;       // stop when the run's training CPU (cpu_hours column, all sessions) reaches this
  int selfplay_threads = -1;  // overrides training.selfplay_threads when >= 0
  std::string init_from;      // a new run starts from this model file's weights (warm start)
  std::string resume_from;    // a new run continues this checkpoint (its lineage): weights, optimizer, step, config
  std::string self_exe = "/proc/self/exe";
};

// Runs until a limit of args is reached or `stop` becomes non-zero (the caller's signal flag); the
// final network and checkpoint are written either way. False with a one-line reason.
bool run_training(const TrainRunArgs& args, const std::atomic<int>& stop, std::string* error);

}  // namespace jz
