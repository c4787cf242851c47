#include "nn/bundle_format.h"

#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include "util/fileio.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tensor bundles store little-endian bytes as they are");

namespace jz {
namespace {

constexpr char MAGIC[8] = {'J', 'Z', 'B', 'U', 'N', 'D', 'L', 'E'};
constexpr size_t PREFIX = 8 + 4 + 8;  // magic, version, total size

struct DtypeInfo {
  const char* name;
  size_t size;
};
constexpr DtypeInfo DTYPES[BUNDLE_DTYPE_NB] = {{"f32", 4}, {"f64", 8}, {"f16", 2}, {"bf16", 2}, {"i64", 8},
                                               {"i32", 4}, {"i16", 2}, {"i8", 1},  {"u8", 1},   {"bool", 1}};

template <typename T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof(T));
}
void put_str(std::string& s, const std::string& v, const char* what) {
  if (v.size() > std::numeric_limits<uint32_t>::max()) throw std::runtime_error(std::string(what) + " too long");
  put<uint32_t>(s, uint32_t(v.size()));
  s += v;
}

// Bounds-checked reads; the last 8 bytes (the checksum) are never part of a record.
struct Reader {
  const std::string& b;
  size_t pos;
  const std::string& name;
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name + ": malformed tensor bundle (" + what + " at byte " + std::to_string(pos) + ")");
  }
  void need(uint64_t n, const char* what) const {
    if (n > b.size() - 8 - pos) fail(std::string("truncated ") + what);
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

// Element count of a shape within BUNDLE_MAX_NUMEL; false for negative or too large dimensions.
bool checked_numel(const std::vector<int64_t>& shape, int64_t& numel) {
  numel = 1;
  for (int64_t d : shape) {
    if (d < 0 || d > BUNDLE_MAX_NUMEL || (d && numel > BUNDLE_MAX_NUMEL / d)) return false;
    numel *= d;
  }
  return true;
}

}  // namespace

std::string printable(const std::string& s, size_t max) {
  static const char* HEX = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : s) {
    if (out.size() >= max) return out + "...";
    if (ch >= 0x20 && ch < 0x7F) {
      out += char(ch);
    } else {
      out += "\\x";
      out += HEX[ch >> 4];
      out += HEX[ch & 15];
    }
  }
  return out;
}

size_t bundle_dtype_size(int code) { return code >= 0 && code < BUNDLE_DTYPE_NB ? DTYPES[code].size : 0; }
const char* bundle_dtype_name(int code) { return code >= 0 && code < BUNDLE_DTYPE_NB ? DTYPES[code].name : "?"; }

const std::string* RawBundle::find(const std::string& key) const {
  for (auto& kv : header)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

std::string serialize_bundle(const HeaderKV& header, const std::vector<RawTensor>& tensors) {
  std::string s(MAGIC, sizeof(MAGIC));
  put<uint32_t>(s, BUNDLE_FORMAT_VERSION);
  put<uint64_t>(s, 0);  // total size, patched below
  if (header.size() > std::numeric_limits<uint32_t>::max() || tensors.size() > std::numeric_limits<uint32_t>::max())
    throw std::runtime_error("too many records");
  std::set<std::string> seen;
  put<uint32_t>(s, uint32_t(header.size()));
  for (auto& kv : header) {
    if (!seen.insert(kv.first).second) throw std::runtime_error("duplicate header key '" + kv.first + "'");
    put_str(s, kv.first, "header key");
    put_str(s, kv.second, "header value");
  }
  seen.clear();
  put<uint32_t>(s, uint32_t(tensors.size()));
  for (const RawTensor& t : tensors) {
    if (!seen.insert(t.name).second) throw std::runtime_error("duplicate tensor name '" + t.name + "'");
    if (!bundle_dtype_size(t.dtype)) throw std::runtime_error("tensor '" + t.name + "' has an unsupported dtype");
    int64_t numel;
    if (t.shape.size() > 255 || !checked_numel(t.shape, numel))
      throw std::runtime_error("tensor '" + t.name + "' has an unsupported shape");
    if (t.bytes != uint64_t(numel) * bundle_dtype_size(t.dtype) || (t.bytes && !t.data))
      throw std::runtime_error("tensor '" + t.name + "': byte count does not match the shape");
    put_str(s, t.name, "tensor name");
    put<uint8_t>(s, uint8_t(t.dtype));
    put<uint8_t>(s, uint8_t(t.shape.size()));
    for (int64_t d : t.shape) put<int64_t>(s, d);
    put<uint64_t>(s, t.bytes);
    s.append(t.data, t.bytes);
  }
  uint64_t total = s.size() + 8;
  std::memcpy(&s[12], &total, 8);
  put<uint64_t>(s, fnv1a64(s.data(), s.size()));
  return s;
}

RawBundle parse_bundle(const std::string& b, const std::string& name) {
  if (b.size() < sizeof(MAGIC) || std::memcmp(b.data(), MAGIC, sizeof(MAGIC)) != 0)
    throw std::runtime_error(name + ": not a janggi-zero tensor bundle (bad magic)");
  if (b.size() < PREFIX + 8) throw std::runtime_error(name + ": truncated (" + std::to_string(b.size()) + " bytes)");
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
  RawBundle out;
  std::memcpy(&out.hash, b.data() + b.size() - 8, 8);
  if (fnv1a64(b.data(), b.size() - 8) != out.hash) throw std::runtime_error(name + ": corrupt (checksum mismatch)");

  Reader r{b, PREFIX, name};
  std::set<std::string> seen;
  uint32_t nh = r.get<uint32_t>("header count");
  for (uint32_t i = 0; i < nh; ++i) {
    std::string k = r.get_str("header key");
    if (!seen.insert(k).second) r.fail("duplicate header key '" + printable(k) + "'");
    out.header.emplace_back(k, r.get_str("header value"));
  }
  seen.clear();
  uint32_t nt = r.get<uint32_t>("tensor count");
  for (uint32_t i = 0; i < nt; ++i) {
    RawTensor t;
    t.name = r.get_str("tensor name");
    if (!seen.insert(t.name).second) r.fail("duplicate tensor name '" + printable(t.name) + "'");
    t.dtype = r.get<uint8_t>("dtype");
    if (t.dtype >= BUNDLE_DTYPE_NB)
      r.fail("unknown dtype " + std::to_string(t.dtype) + " of tensor '" + printable(t.name) + "'");
    uint8_t ndim = r.get<uint8_t>("ndim");
    r.need(uint64_t(ndim) * 8, "shape");  // before allocating the shape
    t.shape.resize(ndim);
    for (auto& d : t.shape) d = r.get<int64_t>("shape");
    int64_t numel;
    if (!checked_numel(t.shape, numel)) r.fail("bad shape of '" + printable(t.name) + "'");
    t.bytes = r.get<uint64_t>("byte count");
    r.need(t.bytes, "tensor data");
    if (t.bytes != uint64_t(numel) * bundle_dtype_size(t.dtype))
      r.fail("byte count does not match the shape of '" + printable(t.name) + "'");
    t.data = b.data() + r.pos;
    r.pos += t.bytes;
    out.tensors.push_back(std::move(t));
  }
  if (r.pos != b.size() - 8) r.fail("trailing bytes");
  return out;
}

int64_t bundle_header_int(const HeaderKV& header, const std::string& key, const std::string& path,
                          const std::string& what) {
  const std::string* v = nullptr;
  for (auto& kv : header)
    if (kv.first == key) v = &kv.second;
  if (!v) throw std::runtime_error(path + ": not a " + what + " (missing header field '" + key + "')");
  try {
    size_t used = 0;
    int64_t x = std::stoll(*v, &used);
    if (used != v->size()) throw std::invalid_argument(key);
    return x;
  } catch (const std::exception&) {
    throw std::runtime_error(path + ": bad header field " + key + "='" + printable(*v) + "'");
  }
}

}  // namespace jz
