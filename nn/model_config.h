// The network's architecture as plain numbers (no LibTorch): what model files and trainer
// checkpoints record, and what nn/model.h builds.
#pragma once
#include <string>

#include "core/types.h"

namespace jz {

// "janggi" or "xiangqi", as model files and checkpoints name their game; false if neither.
inline bool parse_game(const std::string& name, GameKind& out) {
  if (name != "janggi" && name != "xiangqi") return false;
  out = name == "xiangqi" ? GameKind::XIANGQI : GameKind::JANGGI;
  return true;
}

struct ModelConfig {
  int blocks = 6;
  int filters = 64;
  int global_pool_every = 3;  // blocks k-1, 2k-1, ... get global pooling; 0 = none
  int head_channels = 32;     // policy / value head convolution channels
  int value_hidden = 128;     // value head hidden layer width
  GameKind game = GameKind::JANGGI;  // the game whose encoding and policy map the network reads and writes
  bool operator==(const ModelConfig& o) const;
  bool operator!=(const ModelConfig& o) const { return !(*this == o); }
  std::string name() const;      // "6x64" (plus the non-default fields if any; the game is not named)
  std::string describe() const;  // all fields, the game included
  // Within the bounds a file may claim (model files and checkpoints are refused beyond them, before
  // anything is allocated for the network).
  bool plausible() const;
  // Named sizes "4x32" (tests), "6x64" (CPU training), "10x128" (GPU), or any "BxF" (head sizes
  // and global pooling follow from B and F). The game is left as it is.
  static bool parse(const std::string& name, ModelConfig& out, std::string* error);
};

}  // namespace jz
