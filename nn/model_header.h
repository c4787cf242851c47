// The header of model files (no LibTorch): kind = "janggi-zero-model", model_version, game (janggi or
// xiangqi; absent in files from before Xiangqi = janggi), encoding_version, num_planes, policy_size (the game's), the ModelConfig fields, step and a free metadata string.
// nn/checkpoint.h writes and reads whole model files; the checks of the header live here so that
// fuzz/fuzz_model.cpp covers them.
#pragma once
#include <cstdint>
#include <string>

#include "core/types.h"
#include "nn/bundle_format.h"
#include "nn/model_config.h"

namespace jz {

constexpr int MODEL_FILE_VERSION = 1;
constexpr const char* MODEL_FILE_KIND = "janggi-zero-model";

struct ModelInfo {
  ModelConfig config;
  int64_t step = 0;
  std::string metadata;
  uint64_t hash = 0;         // content hash of the file (identifies the network)
  int encoding_version = 0;  // the file's; older ones that still load are upgraded by load_model
  RuleOptions rule_options;  // optional key "rule_options" (comma-separated names); absent = none
};

HeaderKV model_file_header(const ModelConfig& config, int64_t step, const std::string& metadata);
// Encoding version 1 (35 planes) is version 2 without its last plane: such files load, the input
// convolution getting zero weights for the new plane (same outputs as before).
constexpr int OLDEST_LOADABLE_ENCODING = 1;
constexpr int ENCODING_V1_PLANES = 35;
// Kind, versions, this build's encoding (or an older one that loads) and a plausible architecture (info.hash is left
// 0). Throws std::runtime_error("<path>: <problem>").
ModelInfo check_model_header(const HeaderKV& header, const std::string& path);

}  // namespace jz
