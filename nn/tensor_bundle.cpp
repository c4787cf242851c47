#include "nn/tensor_bundle.h"

#include <cstring>
#include <stdexcept>

#include "util/fileio.h"

namespace jz {
namespace {

// Indexed by the stored dtype code (BundleDtype).
const torch::ScalarType DTYPES[BUNDLE_DTYPE_NB] = {torch::kFloat32, torch::kFloat64, torch::kFloat16, torch::kBFloat16,
                                                   torch::kInt64,   torch::kInt32,   torch::kInt16,   torch::kInt8,
                                                   torch::kUInt8,   torch::kBool};

int dtype_code(torch::ScalarType t) {
  for (int i = 0; i < BUNDLE_DTYPE_NB; ++i)
    if (DTYPES[i] == t) return i;
  return -1;
}

}  // namespace

const std::string* TensorBundle::find(const std::string& key) const {
  for (auto& kv : header)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

const std::string& TensorBundle::get(const std::string& key) const {
  const std::string* v = find(key);
  if (!v) throw std::runtime_error("missing header field '" + key + "'");
  return *v;
}

const torch::Tensor* TensorBundle::tensor(const std::string& name) const {
  for (auto& kv : tensors)
    if (kv.first == name) return &kv.second;
  return nullptr;
}

std::string serialize_tensor_bundle(const HeaderKV& header, const NamedTensors& tensors) {
  std::vector<torch::Tensor> keep;  // the CPU copies the records point into
  std::vector<RawTensor> raw;
  keep.reserve(tensors.size());
  for (auto& nt : tensors) {
    keep.push_back(nt.second.detach().to(torch::kCPU).contiguous());
    const torch::Tensor& t = keep.back();
    RawTensor r;
    r.name = nt.first;
    r.dtype = dtype_code(t.scalar_type());
    if (r.dtype < 0) throw std::runtime_error("tensor '" + nt.first + "' has an unsupported dtype");
    r.shape.assign(t.sizes().begin(), t.sizes().end());
    r.bytes = uint64_t(t.numel()) * t.element_size();
    r.data = static_cast<const char*>(t.data_ptr());
    raw.push_back(std::move(r));
  }
  return serialize_bundle(header, raw);
}

void save_tensor_bundle(const std::string& path, const HeaderKV& header, const NamedTensors& tensors) {
  std::string bytes;
  try {
    bytes = serialize_tensor_bundle(header, tensors);
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  std::string err;
  if (!write_file_atomic(path, bytes, &err)) throw std::runtime_error(path + ": cannot write: " + err);
}

TensorBundle to_tensor_bundle(const RawBundle& raw) {
  TensorBundle out;
  out.header = raw.header;
  for (const RawTensor& r : raw.tensors) {
    torch::Tensor t = torch::empty(r.shape, torch::TensorOptions().dtype(DTYPES[r.dtype]));
    // parse_bundle checked bytes = numel * bundle_dtype_size; the two dtype tables must agree.
    if (uint64_t(t.nbytes()) != r.bytes) throw std::logic_error("dtype size tables disagree for " + r.name);
    if (r.bytes) std::memcpy(t.data_ptr(), r.data, r.bytes);
    out.tensors.emplace_back(r.name, t);
  }
  return out;
}

TensorBundle parse_tensor_bundle(const std::string& b, const std::string& name) {
  return to_tensor_bundle(parse_bundle(b, name));
}

TensorBundle load_tensor_bundle(const std::string& path) {
  std::string bytes, err;
  if (!read_file(path, bytes, &err)) throw std::runtime_error(path + ": cannot read: " + err);
  return parse_tensor_bundle(bytes, path);
}

}  // namespace jz
