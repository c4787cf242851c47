// Tensor bundles as LibTorch tensors: a versioned binary file of named tensors with a string header,
// used for model files and optimizer states. The container and all checks of its bytes are in
// nn/bundle_format.h (no LibTorch); this layer maps dtypes and copies the verified data into tensors.
#pragma once
#include <torch/torch.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "nn/bundle_format.h"

namespace jz {

using NamedTensors = std::vector<std::pair<std::string, torch::Tensor>>;

struct TensorBundle {
  HeaderKV header;
  NamedTensors tensors;
  // Header value; throws std::runtime_error if missing.
  const std::string& get(const std::string& key) const;
  const std::string* find(const std::string& key) const;
  const torch::Tensor* tensor(const std::string& name) const;
};

// Writes atomically (tmp + fsync + rename). Tensors are stored from CPU, contiguous. Throws
// std::runtime_error("<path>: <problem>") on failure.
void save_tensor_bundle(const std::string& path, const HeaderKV& header, const NamedTensors& tensors);
// Reads and verifies a bundle (magic, version, size, checksum, bounds). Throws std::runtime_error
// whose message names the file and the problem.
TensorBundle load_tensor_bundle(const std::string& path);
// Same, from bytes already read; `name` is used in messages.
TensorBundle parse_tensor_bundle(const std::string& bytes, const std::string& name);
// Tensors from records that parse_bundle verified.
TensorBundle to_tensor_bundle(const RawBundle& raw);
std::string serialize_tensor_bundle(const HeaderKV& header, const NamedTensors& tensors);

}  // namespace jz
