#include "nn/tensor_bundle.h"

#include <cstring>
#include <stdexcept>

#include "util/fileio.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tensor bundles store little-endian bytes as they are");

namespace jz {
namespace {

constexpr char MAGIC[8] = {'J', 'Z', 'B', 'U', 'N', 'D', 'L', 'E'};
constexpr size_t PREFIX = 8 + 4 + 8;  // magic, version, total size

const torch::ScalarType DTYPES[] = {torch::kFloat32, torch::kFloat64, torch::kFloat16, torch::kBFloat16, torch::kInt64,
                                    torch::kInt32,   torch::kInt16,   torch::kInt8,    torch::kUInt8,    torch::kBool};
constexpr int DTYPE_NB = sizeof(DTYPES) / sizeof(DTYPES[0]);

int dtype_code(torch::ScalarType t) {
  for (int i = 0; i < DTYPE_NB; ++i)
    if (DTYPES[i] == t) return i;
  return -1;
}

template <typename T>
void put(std::string& s, T v) { s.append(reinterpret_cast<const char*>(&v), sizeof(T)); }
void put_str(std::string& s, const std::string& v) {
  put<uint32_t>(s, uint32_t(v.size()));
  s += v;
}

struct Reader {
  const std::string& b;
  size_t pos;
  const std::string& name;
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name + ": malformed tensor bundle (" + what + " at byte " + std::to_string(pos) + ")");
  }
  void need(size_t n, const char* what) const {
    if (n > b.size() - 8 - pos) fail(std::string("truncated ") + what);  // the last 8 bytes are the hash
  }
  template <typename T>
  T get(const char* what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, b.data() + pos, sizeof(T));
    pos += sizeof(T);
    return v;
  }
  std::string get_str(const char* what) {
    uint32_t n = get<uint32_t>(what);
    need(n, what);
    std::string s = b.substr(pos, n);
    pos += n;
    return s;
  }
};

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
  std::string s(MAGIC, sizeof(MAGIC));
  put<uint32_t>(s, BUNDLE_FORMAT_VERSION);
  put<uint64_t>(s, 0);  // total size, patched below
  put<uint32_t>(s, uint32_t(header.size()));
  for (auto& kv : header) {
    put_str(s, kv.first);
    put_str(s, kv.second);
  }
  put<uint32_t>(s, uint32_t(tensors.size()));
  for (auto& nt : tensors) {
    torch::Tensor t = nt.second.detach().to(torch::kCPU).contiguous();
    int code = dtype_code(t.scalar_type());
    if (code < 0) throw std::runtime_error("tensor '" + nt.first + "' has an unsupported dtype");
    put_str(s, nt.first);
    put<uint8_t>(s, uint8_t(code));
    put<uint8_t>(s, uint8_t(t.dim()));
    for (int64_t d : t.sizes()) put<int64_t>(s, d);
    uint64_t bytes = uint64_t(t.numel()) * t.element_size();
    put<uint64_t>(s, bytes);
    s.append(static_cast<const char*>(t.data_ptr()), bytes);
  }
  uint64_t total = s.size() + 8;
  std::memcpy(&s[12], &total, 8);
  put<uint64_t>(s, fnv1a64(s.data(), s.size()));
  return s;
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

TensorBundle parse_tensor_bundle(const std::string& b, const std::string& name) {
  if (b.size() < sizeof(MAGIC) || std::memcmp(b.data(), MAGIC, sizeof(MAGIC)) != 0)
    throw std::runtime_error(name + ": not a janggi-zero tensor bundle (bad magic)");
  if (b.size() < PREFIX + 8)
    throw std::runtime_error(name + ": truncated (" + std::to_string(b.size()) + " bytes)");
  uint32_t version;
  uint64_t total;
  std::memcpy(&version, b.data() + 8, 4);
  std::memcpy(&total, b.data() + 12, 8);
  if (version != BUNDLE_FORMAT_VERSION)
    throw std::runtime_error(name + ": unsupported format version " + std::to_string(version) + " (this build reads " +
                             std::to_string(BUNDLE_FORMAT_VERSION) + ")");
  if (b.size() < total)
    throw std::runtime_error(name + ": truncated (" + std::to_string(b.size()) + " of " + std::to_string(total) +
                             " bytes)");
  if (b.size() > total)
    throw std::runtime_error(name + ": " + std::to_string(b.size() - total) + " unexpected bytes after the end");
  uint64_t stored;
  std::memcpy(&stored, b.data() + b.size() - 8, 8);
  if (fnv1a64(b.data(), b.size() - 8) != stored) throw std::runtime_error(name + ": corrupt (checksum mismatch)");

  TensorBundle out;
  Reader r{b, PREFIX, name};
  uint32_t nh = r.get<uint32_t>("header count");
  for (uint32_t i = 0; i < nh; ++i) {
    std::string k = r.get_str("header key");
    out.header.emplace_back(k, r.get_str("header value"));
  }
  uint32_t nt = r.get<uint32_t>("tensor count");
  for (uint32_t i = 0; i < nt; ++i) {
    std::string tname = r.get_str("tensor name");
    uint8_t code = r.get<uint8_t>("dtype");
    if (code >= DTYPE_NB) r.fail("unknown dtype " + std::to_string(code) + " of tensor '" + tname + "'");
    uint8_t ndim = r.get<uint8_t>("ndim");
    std::vector<int64_t> shape(ndim);
    int64_t numel = 1;
    for (auto& d : shape) {
      d = r.get<int64_t>("shape");
      if (d < 0 || d > (int64_t(1) << 40) || (d && numel > (int64_t(1) << 40) / d)) r.fail("bad shape of '" + tname + "'");
      numel *= d;
    }
    uint64_t bytes = r.get<uint64_t>("byte count");
    r.need(bytes, "tensor data");
    if (bytes != uint64_t(numel) * c10::elementSize(DTYPES[code]))
      r.fail("byte count does not match the shape of '" + tname + "'");
    torch::Tensor t = torch::empty(shape, torch::TensorOptions().dtype(DTYPES[code]));
    std::memcpy(t.data_ptr(), b.data() + r.pos, bytes);
    r.pos += bytes;
    out.tensors.emplace_back(tname, t);
  }
  if (r.pos != b.size() - 8) r.fail("trailing bytes");
  return out;
}

TensorBundle load_tensor_bundle(const std::string& path) {
  std::string bytes, err;
  if (!read_file(path, bytes, &err)) throw std::runtime_error(path + ": cannot read: " + err);
  return parse_tensor_bundle(bytes, path);
}

int64_t bundle_header_int(const TensorBundle& b, const std::string& key, const std::string& path,
                          const std::string& what) {
  const std::string* v = b.find(key);
  if (!v) throw std::runtime_error(path + ": not a " + what + " (missing header field '" + key + "')");
  try {
    size_t used = 0;
    int64_t x = std::stoll(*v, &used);
    if (used != v->size()) throw std::invalid_argument(key);
    return x;
  } catch (const std::exception&) {
    throw std::runtime_error(path + ": bad header field " + key + "='" + *v + "'");
  }
}

}  // namespace jz
