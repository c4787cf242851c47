// The run directory (shared with self-play workers and the cluster tools; see training/README.md):
//   config.yaml  models/net-<step>.jzn  games/<worker>/*.jzc  checkpoints/ckpt-<step>.jzckpt
//   metrics/train.csv  metrics/selfplay-<worker>.csv  eval/*.csv  logs/
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jz {

// Trainer checkpoints. Before session 21 they were "ckpt-<step>.jzc", the replay chunks' extension; a
// run directory's old checkpoints still resume (list_checkpoints), and --resume-from reads any name.
inline constexpr const char* CHECKPOINT_EXTENSION = ".jzckpt";
inline constexpr const char* LEGACY_CHECKPOINT_EXTENSION = ".jzc";

struct RunDir {
  std::string root;
  explicit RunDir(std::string r) : root(std::move(r)) {}
  std::string config() const { return root + "/config.yaml"; }
  std::string models() const { return root + "/models"; }
  std::string games() const { return root + "/games"; }
  std::string checkpoints() const { return root + "/checkpoints"; }
  std::string metrics() const { return root + "/metrics"; }
  std::string eval() const { return root + "/eval"; }
  std::string logs() const { return root + "/logs"; }
  std::string lineage() const { return root + "/lineage.txt"; }  // where --resume-from started this run
  std::string model_path(int64_t step) const;       // models/net-<8 digits>.jzn
  std::string checkpoint_path(int64_t step) const;  // checkpoints/ckpt-<8 digits>.jzckpt
  // Creates the folders. False with a reason.
  bool create(std::string* error) const;
};

// Files "<prefix><digits><ext>" directly in dir, as (number, path), ascending.
std::vector<std::pair<int64_t, std::string>> list_numbered(const std::string& dir, const std::string& prefix,
                                                           const std::string& ext);
// A folder's checkpoints "ckpt-<step>.jzckpt" and legacy "ckpt-<step>.jzc", by step, ascending.
std::vector<std::pair<int64_t, std::string>> list_checkpoints(const std::string& dir);
// Deletes all but the `keep` highest-numbered checkpoints.
void prune_checkpoints(const std::string& dir, int keep);

}  // namespace jz
