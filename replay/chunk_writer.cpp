#include "replay/chunk_writer.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "util/fileio.h"

namespace jz {

uint64_t unix_millis() {
  using namespace std::chrono;
  return uint64_t(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
}

std::string sanitize_name(const std::string& s) {
  std::string r;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    r.push_back(ok ? c : '_');
  }
  return r.empty() ? "_" : r;
}

ChunkWriter::ChunkWriter(std::string dir, std::string worker_id, int games_per_chunk)
    : dir_(std::move(dir)),
      worker_id_(sanitize_name(worker_id)),
      games_per_chunk_(games_per_chunk < 1 ? 1 : games_per_chunk) {}

ChunkWriter::~ChunkWriter() {
  std::string err;
  if (!flush(&err)) std::fprintf(stderr, "warning: %s\n", err.c_str());
}

std::string ChunkWriter::next_path() {
  char name[160];
  std::snprintf(name, sizeof(name), "chunk-%013llu-%s-%d-%06llu%s", (unsigned long long)unix_millis(),
                worker_id_.c_str(), int(::getpid()), (unsigned long long)counter_++, CHUNK_EXTENSION);
  return dir_ + "/" + name;
}

bool ChunkWriter::add(GameRecord game, std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.push_back(std::move(game));
  if (int(pending_.size()) < games_per_chunk_) return true;
  return flush_locked(error);
}

bool ChunkWriter::flush(std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  return flush_locked(error);
}

bool ChunkWriter::flush_locked(std::string* error) {
  if (pending_.empty()) return true;
  if (!make_dirs(dir_)) {
    if (error) *error = "cannot create directory '" + dir_ + "'";
    return false;
  }
  std::string bytes = encode_chunk(pending_, unix_millis());
  if (!write_file_atomic(next_path(), bytes, error)) return false;
  ++chunks_;
  games_ += pending_.size();
  pending_.clear();
  return true;
}

uint64_t ChunkWriter::chunks_written() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return chunks_;
}

uint64_t ChunkWriter::games_written() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return games_;
}

}  // namespace jz
