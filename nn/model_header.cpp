#include "nn/model_header.h"

#include <stdexcept>

#include "nn/encoding.h"
#include "nn/policy_map.h"

namespace jz {
namespace {

int64_t to_int(const HeaderKV& h, const std::string& key, const std::string& path) {
  return bundle_header_int(h, key, path, "model file");
}

const std::string* find(const HeaderKV& h, const std::string& key) {
  for (auto& kv : h)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

}  // namespace

HeaderKV model_file_header(const ModelConfig& c, int64_t step, const std::string& metadata) {
  return {{"kind", MODEL_FILE_KIND},
          {"model_version", std::to_string(MODEL_FILE_VERSION)},
          {"game", game_name(c.game)},
          {"encoding_version", std::to_string(ENCODING_VERSION)},
          {"num_planes", std::to_string(NUM_PLANES)},
          {"policy_size", std::to_string(policy_map(c.game).size())},
          {"blocks", std::to_string(c.blocks)},
          {"filters", std::to_string(c.filters)},
          {"global_pool_every", std::to_string(c.global_pool_every)},
          {"head_channels", std::to_string(c.head_channels)},
          {"value_hidden", std::to_string(c.value_hidden)},
          {"step", std::to_string(step)},
          {"metadata", metadata}};
}

ModelInfo check_model_header(const HeaderKV& b, const std::string& path) {
  const std::string* kind = find(b, "kind");
  if (!kind || *kind != MODEL_FILE_KIND)
    throw std::runtime_error(path + ": not a model file (kind is not '" + MODEL_FILE_KIND + "')");
  int64_t version = to_int(b, "model_version", path);
  if (version != MODEL_FILE_VERSION)
    throw std::runtime_error(path + ": unsupported model file version " + std::to_string(version) +
                             " (this build reads " + std::to_string(MODEL_FILE_VERSION) + ")");
  GameKind game = GameKind::JANGGI;  // files from before Xiangqi name no game
  if (const std::string* g = find(b, "game"); g && !parse_game(*g, game))
    throw std::runtime_error(path + ": unknown game '" + printable(*g) + "' (janggi, xiangqi)");
  const int policy_size = policy_map(game).size();
  int64_t enc = to_int(b, "encoding_version", path), planes = to_int(b, "num_planes", path),
          policy = to_int(b, "policy_size", path);
  const bool v1 = game == GameKind::JANGGI && enc == OLDEST_LOADABLE_ENCODING && planes == ENCODING_V1_PLANES;
  if ((!v1 && (enc != ENCODING_VERSION || planes != NUM_PLANES)) || policy != policy_size)
    throw std::runtime_error(path + ": made for encoding version " + std::to_string(enc) + " (" +
                             std::to_string(planes) + " planes, " + std::to_string(policy) +
                             " policy outputs); this build reads versions " + std::to_string(OLDEST_LOADABLE_ENCODING) +
                             "-" + std::to_string(ENCODING_VERSION) + " (" + std::to_string(NUM_PLANES) + ", " +
                             std::to_string(policy_size) + " for " + game_name(game) + ")");
  ModelInfo info;
  info.config.game = game;
  info.encoding_version = int(enc);
  int64_t f[5];
  const char* keys[5] = {"blocks", "filters", "global_pool_every", "head_channels", "value_hidden"};
  for (int i = 0; i < 5; ++i) f[i] = to_int(b, keys[i], path);
  // Range-check as 64-bit numbers: a value like 2^32 + 6 must not pass as 6 after narrowing.
  for (int i = 0; i < 5; ++i)
    if (f[i] < 0 || f[i] > 65536)
      throw std::runtime_error(path + ": implausible architecture (" + keys[i] + "=" + std::to_string(f[i]) + ")");
  ModelConfig& c = info.config;
  c.blocks = int(f[0]), c.filters = int(f[1]), c.global_pool_every = int(f[2]), c.head_channels = int(f[3]),
  c.value_hidden = int(f[4]);
  if (!c.plausible()) throw std::runtime_error(path + ": implausible architecture " + c.describe());
  info.step = to_int(b, "step", path);
  const std::string* meta = find(b, "metadata");
  info.metadata = meta ? *meta : "";
  std::string err;
  if (const std::string* ro = find(b, "rule_options"); ro && !parse_rule_options(*ro, info.rule_options, &err))
    throw std::runtime_error(path + ": " + err);
  return info;
}

}  // namespace jz
