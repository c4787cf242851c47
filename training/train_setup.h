// Setting up or resuming a training run directory: the run's config (the given file is copied in; an
// existing copy must agree with it), the --set overrides of this session, the options of every
// section, and the trainer restored from the newest checkpoint.
#pragma once
#include <memory>
#include <string>

#include "nn/model.h"
#include "selfplay/selfplay_config.h"
#include "training/run_dir.h"
#include "training/train_loop.h"
#include "training/train_options.h"
#include "training/trainer.h"

namespace jz {

struct RunSetup {
  RunDir run{""};
  TrainOptions options;
  SelfPlayOptions selfplay;  // read too, so one file configures both and typos anywhere are caught
  ModelConfig model;
  std::string init_from;  // --init-from: a new run's starting weights
  // What every checkpoint of the run carries besides the trainer (run.config, run.overrides), so that
  // `train --resume-from CKPT --run-dir NEW` continues the lineage on any machine.
  HeaderKV lineage;
  // A run started by --resume-from: the checkpoint's step and samples (RUN/lineage.txt). Its games/ holds
  // only the positions played since, so the samples-per-position limit counts from there.
  int64_t start_step = 0, start_samples = 0;
};

// Header keys of the lineage in a checkpoint: the run's config text and this session's --set lines.
constexpr const char* LINEAGE_CONFIG_KEY = "run.config";
constexpr const char* LINEAGE_OVERRIDES_KEY = "run.overrides";

// Checks the arguments, reconciles the config with the run directory and creates its folders.
// False with a one-line reason.
bool setup_run(const TrainRunArgs& args, RunSetup& out, std::string* error);

// The trainer of the run, resumed from its newest checkpoint when there is one (else warm-started
// from setup.init_from when given), with a network
// exported for its step (self-play needs one to play with). Throws std::runtime_error.
std::unique_ptr<Trainer> open_trainer(const RunSetup& setup, std::string* network);

}  // namespace jz
