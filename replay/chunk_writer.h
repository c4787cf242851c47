// Collects finished games and writes them as replay chunks, atomically (tmp + fsync + rename),
// under names that never collide between workers: chunk-<unix ms>-<worker>-<pid>-<counter>.jzc.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "replay/replay_format.h"

namespace jz {

class ChunkWriter {
 public:
  // Writes into dir (created if missing). A chunk is written once it holds games_per_chunk games.
  ChunkWriter(std::string dir, std::string worker_id, int games_per_chunk);
  ~ChunkWriter();  // flushes

  // Thread-safe. Returns false (with *error) if a chunk could not be written; the games stay queued.
  bool add(GameRecord game, std::string* error);
  // Writes any queued games now (no-op when empty).
  bool flush(std::string* error);

  uint64_t chunks_written() const;
  uint64_t games_written() const;
  const std::string& dir() const { return dir_; }

 private:
  bool flush_locked(std::string* error);
  std::string next_path();

  std::string dir_, worker_id_;
  int games_per_chunk_;
  mutable std::mutex mutex_;
  std::vector<GameRecord> pending_;
  uint64_t counter_ = 0, chunks_ = 0, games_ = 0;
};

// Unix time in milliseconds.
uint64_t unix_millis();
// Keeps [A-Za-z0-9_.] and maps the rest to '_' so an id is safe inside a file name.
std::string sanitize_name(const std::string& s);

}  // namespace jz
