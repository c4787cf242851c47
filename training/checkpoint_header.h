// The header of trainer checkpoints (no LibTorch): what training/trainer.h writes next to the model
// and optimizer tensors, and the checks a checkpoint's header must pass before anything is loaded.
// Kept apart from the trainer so that fuzz/fuzz_model.cpp covers them.
#pragma once
#include <cstdint>
#include <string>

#include "nn/bundle_format.h"
#include "nn/model_config.h"

namespace jz {

// Trainer checkpoint header kind and version (tensor bundle, nn/bundle_format.h).
constexpr const char* CHECKPOINT_KIND = "janggi-zero-trainer";
constexpr int CHECKPOINT_VERSION = 1;

struct CheckpointHeader {
  ModelConfig config;
  std::string optimizer;
  uint64_t seed = 0;
  int64_t step = 0, samples = 0, optimizer_steps = 0;
  HeaderKV extra;  // the caller's own keys (e.g. positions seen), in file order
};

// The header of a checkpoint. Throws std::logic_error if `h.extra` uses a reserved key.
HeaderKV make_checkpoint_header(const CheckpointHeader& h);
// Kind, version, this build's encoding and a plausible architecture. Throws
// std::runtime_error("<path>: <problem>").
ModelConfig checkpoint_model_config(const HeaderKV& header, const std::string& path);
// All fields (as checkpoint_model_config, then counters that must not be negative).
CheckpointHeader check_checkpoint_header(const HeaderKV& header, const std::string& path);

}  // namespace jz
