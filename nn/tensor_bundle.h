// A versioned, LibTorch-independent binary file of named tensors with a string header, used for
// model files and optimizer states. Layout (little-endian):
//   magic "JZBUNDLE" | u32 format version | u64 total file size |
//   u32 header count, (str key, str value)* | u32 tensor count, (str name, u8 dtype, u8 ndim,
//   i64 dims[ndim], u64 byte count, raw bytes)* | u64 fnv1a64 of everything before it
// where str = u32 length + bytes. dtype codes: see bundle_dtype_name().
#pragma once
#include <torch/torch.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace jz {

constexpr uint32_t BUNDLE_FORMAT_VERSION = 1;

using HeaderKV = std::vector<std::pair<std::string, std::string>>;
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
// Integer header field; throws "<path>: not a <what> (missing header field ...)" or "bad header field".
int64_t bundle_header_int(const TensorBundle& b, const std::string& key, const std::string& path,
                          const std::string& what);
// Same, from bytes already read; `name` is used in messages.
TensorBundle parse_tensor_bundle(const std::string& bytes, const std::string& name);
std::string serialize_tensor_bundle(const HeaderKV& header, const NamedTensors& tensors);

}  // namespace jz
