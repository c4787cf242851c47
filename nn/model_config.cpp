#include "nn/model_config.h"

#include <algorithm>
#include <cstdio>

namespace jz {

bool ModelConfig::operator==(const ModelConfig& o) const {
  return blocks == o.blocks && filters == o.filters && global_pool_every == o.global_pool_every &&
         head_channels == o.head_channels && value_hidden == o.value_hidden && game == o.game;
}

std::string ModelConfig::name() const {
  std::string base = std::to_string(blocks) + "x" + std::to_string(filters);
  ModelConfig d;
  d.game = game;
  std::string err;
  if (parse(base, d, &err) && d == *this) return base;
  return base + "-gp" + std::to_string(global_pool_every) + "-h" + std::to_string(head_channels) + "-v" +
         std::to_string(value_hidden);
}

std::string ModelConfig::describe() const {
  return "blocks=" + std::to_string(blocks) + " filters=" + std::to_string(filters) +
         " global_pool_every=" + std::to_string(global_pool_every) + " head_channels=" + std::to_string(head_channels) +
         " value_hidden=" + std::to_string(value_hidden) + " game=" + game_name(game);
}

bool ModelConfig::parse(const std::string& name, ModelConfig& out, std::string* error) {
  int b = 0, f = 0;
  char x = 0, extra = 0;
  if (std::sscanf(name.c_str(), "%d%c%d%c", &b, &x, &f, &extra) != 3 || x != 'x' || b < 1 || b > 64 || f < 8 ||
      f > 1024) {
    if (error) *error = "bad model size '" + name + "' (expected BLOCKSxFILTERS, e.g. 4x32, 6x64, 10x128)";
    return false;
  }
  out.blocks = b;
  out.filters = f;
  out.global_pool_every = b <= 4 ? 2 : 3;
  out.head_channels = f < 64 ? 16 : 32;
  out.value_hidden = std::max(64, 2 * f);
  return true;
}

bool ModelConfig::plausible() const {
  return blocks >= 1 && blocks <= 256 && filters >= 1 && filters <= 4096 && global_pool_every >= 0 &&
         head_channels >= 1 && head_channels <= 4096 && value_hidden >= 1 && value_hidden <= 65536;
}

}  // namespace jz
