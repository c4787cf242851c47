// The tensor bundle container of model files and trainer checkpoints, without LibTorch: every check
// of a file's bytes lives here (so fuzz/fuzz_model.cpp covers it), and nn/tensor_bundle.h only turns
// the verified records into tensors. Layout (little-endian):
//   magic "JZBUNDLE" | u32 format version | u64 total file size |
//   u32 header count, (str key, str value)* | u32 tensor count, (str name, u8 dtype, u8 ndim,
//   i64 dims[ndim], u64 byte count, raw bytes)* | u64 fnv1a64 of everything before it
// where str = u32 length + bytes. Header keys and tensor names are unique.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jz {

constexpr uint32_t BUNDLE_FORMAT_VERSION = 1;
// No dimension and no element count of a valid file exceeds this (it keeps byte counts exact in u64).
constexpr int64_t BUNDLE_MAX_NUMEL = int64_t(1) << 40;

using HeaderKV = std::vector<std::pair<std::string, std::string>>;

// Stored dtype codes.
enum BundleDtype : int {
  BUNDLE_F32,
  BUNDLE_F64,
  BUNDLE_F16,
  BUNDLE_BF16,
  BUNDLE_I64,
  BUNDLE_I32,
  BUNDLE_I16,
  BUNDLE_I8,
  BUNDLE_U8,
  BUNDLE_BOOL,
  BUNDLE_DTYPE_NB
};
size_t bundle_dtype_size(int code);       // bytes per element; 0 for an unknown code
const char* bundle_dtype_name(int code);  // "f32", ...; "?" for an unknown code

// One tensor record. `data` points at `bytes` bytes: into the parsed buffer, or (when serializing)
// into the caller's memory.
struct RawTensor {
  std::string name;
  int dtype = BUNDLE_F32;
  std::vector<int64_t> shape;
  const char* data = nullptr;
  uint64_t bytes = 0;
};

struct RawBundle {
  HeaderKV header;
  std::vector<RawTensor> tensors;
  uint64_t hash = 0;  // the stored checksum, a content hash of the whole file
  const std::string* find(const std::string& key) const;
};

// Verifies magic, version, size (truncation), checksum, and every record's bounds, dtype, shape and
// byte count, and that names are unique. Throws std::runtime_error("<name>: <problem>") (one line).
// The records' data point into `bytes`, which must outlive the result.
RawBundle parse_bundle(const std::string& bytes, const std::string& name);
// The file image of these records. Throws std::runtime_error for records the format cannot hold
// (unknown dtype, byte count not matching the shape, duplicate names, oversized strings).
std::string serialize_bundle(const HeaderKV& header, const std::vector<RawTensor>& tensors);

// A value from a file as it may appear in a one-line message: control and non-ASCII bytes as \xNN,
// cut to `max` characters.
std::string printable(const std::string& s, size_t max = 64);

// Integer header field; throws "<path>: not a <what> (missing header field '<key>')" or
// "<path>: bad header field <key>='<value>'".
int64_t bundle_header_int(const HeaderKV& header, const std::string& key, const std::string& path,
                          const std::string& what);

}  // namespace jz
