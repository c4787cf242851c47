#include "fileio.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace jz {

bool write_file_atomic(const std::string& path, const void* data, size_t size, std::string* error) {
  static std::atomic<uint64_t> counter{0};
  std::ostringstream tmp;
  tmp << path << ".tmp." << ::getpid() << "." << counter++;
  const std::string tmp_path = tmp.str();
  auto fail = [&](const std::string& what) {
    if (error) *error = what + " '" + path + "': " + std::strerror(errno);
    ::unlink(tmp_path.c_str());
    return false;
  };
  int fd = ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return fail("cannot create temporary file for");
  const char* p = static_cast<const char*>(data);
  size_t left = size;
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return fail("cannot write");
    }
    p += w;
    left -= size_t(w);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    return fail("cannot fsync");
  }
  if (::close(fd) != 0) return fail("cannot close");
  if (::rename(tmp_path.c_str(), path.c_str()) != 0) return fail("cannot rename temporary file to");
  // Make the rename itself durable.
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

bool write_file_atomic(const std::string& path, const std::string& data, std::string* error) {
  return write_file_atomic(path, data.data(), data.size(), error);
}

bool read_file(const std::string& path, std::string& out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    if (error) *error = "cannot read '" + path + "'";
    return false;
  }
  out = ss.str();
  return true;
}

bool make_dirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  return std::filesystem::is_directory(path, ec);
}

namespace {
struct CrcTable {
  uint32_t t[256];
  CrcTable() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0x82F63B78u ^ (c >> 1) : c >> 1;  // CRC-32C polynomial
      t[i] = c;
    }
  }
};
}  // namespace

uint32_t crc32(const void* data, size_t size, uint32_t seed) {
  static const CrcTable table;
  uint32_t c = ~seed;
  const uint8_t* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < size; ++i) c = table.t[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return ~c;
}

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed) {
  uint64_t h = seed;
  const uint8_t* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace jz
