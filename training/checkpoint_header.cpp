#include "training/checkpoint_header.h"

#include <stdexcept>

#include "nn/encoding.h"
#include "nn/policy_map.h"

namespace jz {
namespace {

const char* const RESERVED_KEYS[] = {"kind",
                                     "checkpoint_version",
                                     "game",
                                     "encoding_version",
                                     "policy_size",
                                     "blocks",
                                     "filters",
                                     "global_pool_every",
                                     "head_channels",
                                     "value_hidden",
                                     "step",
                                     "samples",
                                     "optimizer",
                                     "seed",
                                     "optimizer_steps"};

bool reserved(const std::string& key) {
  for (const char* r : RESERVED_KEYS)
    if (key == r) return true;
  return false;
}

const std::string* find(const HeaderKV& h, const std::string& key) {
  for (auto& kv : h)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

int64_t header_int(const HeaderKV& h, const std::string& key, const std::string& path) {
  return bundle_header_int(h, key, path, "trainer checkpoint");
}

}  // namespace

HeaderKV make_checkpoint_header(const CheckpointHeader& c) {
  HeaderKV h = {{"kind", CHECKPOINT_KIND},
                {"checkpoint_version", std::to_string(CHECKPOINT_VERSION)},
                {"game", game_name(c.config.game)},
                {"encoding_version", std::to_string(ENCODING_VERSION)},
                {"policy_size", std::to_string(policy_map(c.config.game).size())},
                {"blocks", std::to_string(c.config.blocks)},
                {"filters", std::to_string(c.config.filters)},
                {"global_pool_every", std::to_string(c.config.global_pool_every)},
                {"head_channels", std::to_string(c.config.head_channels)},
                {"value_hidden", std::to_string(c.config.value_hidden)},
                {"step", std::to_string(c.step)},
                {"samples", std::to_string(c.samples)},
                {"optimizer", c.optimizer},
                {"seed", std::to_string(c.seed)}};
  for (auto& kv : c.extra) {
    if (reserved(kv.first)) throw std::logic_error("reserved checkpoint key " + kv.first);
    h.push_back(kv);
  }
  h.push_back({"optimizer_steps", std::to_string(c.optimizer_steps)});
  return h;
}

ModelConfig checkpoint_model_config(const HeaderKV& b, const std::string& path) {
  const std::string* kind = find(b, "kind");
  if (!kind || *kind != CHECKPOINT_KIND)
    throw std::runtime_error(path + ": not a trainer checkpoint (kind is not '" + CHECKPOINT_KIND + "')");
  int64_t v = header_int(b, "checkpoint_version", path);
  if (v != CHECKPOINT_VERSION) throw std::runtime_error(path + ": unsupported checkpoint version " + std::to_string(v));
  GameKind game = GameKind::JANGGI;  // checkpoints from before Xiangqi name no game
  if (const std::string* g = find(b, "game"); g && !parse_game(*g, game))
    throw std::runtime_error(path + ": unknown game '" + printable(*g) + "' (janggi, xiangqi)");
  if (header_int(b, "encoding_version", path) != ENCODING_VERSION ||
      header_int(b, "policy_size", path) != policy_map(game).size())
    throw std::runtime_error(path + ": made for another input encoding or policy size");
  const char* keys[5] = {"blocks", "filters", "global_pool_every", "head_channels", "value_hidden"};
  int64_t f[5];
  for (int i = 0; i < 5; ++i) {
    f[i] = header_int(b, keys[i], path);
    // Checked before narrowing to int: 2^32 + 6 must not pass as 6.
    if (f[i] < 0 || f[i] > 65536)
      throw std::runtime_error(path + ": implausible architecture (" + keys[i] + "=" + std::to_string(f[i]) + ")");
  }
  ModelConfig c;
  c.blocks = int(f[0]), c.filters = int(f[1]), c.global_pool_every = int(f[2]), c.head_channels = int(f[3]),
  c.value_hidden = int(f[4]);
  c.game = game;
  if (!c.plausible()) throw std::runtime_error(path + ": implausible architecture " + c.describe());
  return c;
}

CheckpointHeader check_checkpoint_header(const HeaderKV& b, const std::string& path) {
  CheckpointHeader h;
  h.config = checkpoint_model_config(b, path);
  const std::string* opt = find(b, "optimizer");
  if (!opt) throw std::runtime_error(path + ": not a trainer checkpoint (missing header field 'optimizer')");
  h.optimizer = *opt;
  h.step = header_int(b, "step", path);
  h.samples = header_int(b, "samples", path);
  h.optimizer_steps = header_int(b, "optimizer_steps", path);
  if (h.step < 0 || h.samples < 0 || h.optimizer_steps < 0)
    throw std::runtime_error(path + ": negative step or sample count");
  // The seed is a u64 (beyond int64's range): digits only.
  const std::string* seed = find(b, "seed");
  if (!seed) throw std::runtime_error(path + ": not a trainer checkpoint (missing header field 'seed')");
  if (seed->empty() || seed->size() > 20 || seed->find_first_not_of("0123456789") != std::string::npos ||
      (seed->size() == 20 && *seed > "18446744073709551615"))
    throw std::runtime_error(path + ": bad header field seed='" + printable(*seed) + "'");
  h.seed = std::stoull(*seed);
  for (auto& kv : b)
    if (!reserved(kv.first)) h.extra.push_back(kv);
  return h;
}

}  // namespace jz
