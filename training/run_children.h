// The child processes of a local training run: the self-play worker (`janggi-zero selfplay
// --worker-id local`, whose CPU counts toward the run's cpu_hours) and the gauntlet that rates
// exported networks (`janggi-zero gauntlet --watch`; its failure is logged, not fatal). Both log to
// RUN/logs/ and are stopped (and reaped) by stop() or the destructor.
#pragma once
#include <string>

#include "core/types.h"
#include "training/run_dir.h"
#include "training/train_loop.h"
#include "training/train_options.h"
#include "util/process.h"

namespace jz {

class RunChildren {
 public:
  // Starts the children the options ask for. False with a reason.
  // rules: the run's self-play rule set (the evaluator's matches are of the same game).
  bool start(const TrainRunArgs& args, const RunDir& run, const TrainOptions& options, Ruleset rules,
             std::string* error);
  // Empty while the self-play child runs (or none was asked for); why it ended otherwise.
  std::string selfplay_ended();
  // Logs, once, that the evaluator has ended and its last log line.
  void watch_evaluator();
  // CPU seconds of the self-play child so far (its last reading once it is gone).
  double selfplay_cpu_seconds();
  void stop();

 private:
  Subprocess selfplay_, evaluator_;
  std::string selfplay_log_, eval_log_;
  bool has_selfplay_ = false, has_evaluator_ = false, evaluator_reported_ = false;
  double selfplay_cpu_ = 0;
};

}  // namespace jz
