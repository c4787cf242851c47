// Model files: a tensor bundle (nn/tensor_bundle.h) with the header of nn/model_header.h; tensors are
// the model's parameters and buffers by name.
#pragma once
#include <cstdint>
#include <string>

#include "nn/model.h"
#include "nn/model_header.h"
#include "nn/tensor_bundle.h"

namespace jz {

// Saves the (unfused) model atomically. Throws std::runtime_error naming the file on failure.
void save_model(const std::string& path, JanggiNet& model, int64_t step = 0, const std::string& metadata = "");
// Builds a model of the file's architecture (on the CPU, fp32) and loads it. Throws
// std::runtime_error("<path>: <problem>") for unreadable, truncated, corrupt, wrong-magic,
// wrong-version or mismatched files.
JanggiNet load_model(const std::string& path, ModelInfo* info = nullptr);
// Loads into an existing model; the file's architecture must equal the model's.
void load_model_into(const std::string& path, JanggiNet& model, ModelInfo* info = nullptr);
// Reads and verifies the file, returns its header fields.
ModelInfo read_model_info(const std::string& path);
// Writes a freshly initialised network (deterministic for a seed) at step 0.
void create_random_network(const std::string& path, const ModelConfig& cfg, uint64_t seed);

}  // namespace jz
