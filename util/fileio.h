// Crash-safe file writing: write to a temporary name in the same folder, flush, fsync, rename.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace jz {

// Writes bytes to path atomically. Returns false and sets *error on failure (the old file stays).
bool write_file_atomic(const std::string& path, const void* data, size_t size, std::string* error);
bool write_file_atomic(const std::string& path, const std::string& data, std::string* error);
// Reads a whole file. Returns false and sets *error if it cannot be read.
bool read_file(const std::string& path, std::string& out, std::string* error);
// Creates a directory and its parents; true if it exists afterwards.
bool make_dirs(const std::string& path);

// CRC-32C style checksum (software, table driven) and FNV-1a 64-bit hash.
uint32_t crc32(const void* data, size_t size, uint32_t seed = 0);
uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = 1469598103934665603ULL);

}  // namespace jz
