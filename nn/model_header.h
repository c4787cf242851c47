// The header of model files (no LibTorch): kind = "janggi-zero-model", model_version,
// encoding_version, num_planes, policy_size, the ModelConfig fields, step and a free metadata string.
// nn/checkpoint.h writes and reads whole model files; the checks of the header live here so that
// fuzz/fuzz_model.cpp covers them.
#pragma once
#include <cstdint>
#include <string>

#include "nn/bundle_format.h"
#include "nn/model_config.h"

namespace jz {

constexpr int MODEL_FILE_VERSION = 1;
constexpr const char* MODEL_FILE_KIND = "janggi-zero-model";

struct ModelInfo {
  ModelConfig config;
  int64_t step = 0;
  std::string metadata;
  uint64_t hash = 0;  // content hash of the file (identifies the network)
};

HeaderKV model_file_header(const ModelConfig& config, int64_t step, const std::string& metadata);
// Kind, versions, this build's encoding and a plausible architecture (info.hash is left 0). Throws
// std::runtime_error("<path>: <problem>").
ModelInfo check_model_header(const HeaderKV& header, const std::string& path);

}  // namespace jz
