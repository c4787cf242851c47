// Replay buffer for training: scans a directory of chunks (recursively, e.g. games/<worker>/),
// keeps the most recent window of chunks by position count, and samples uniformly random
// (game, ply) positions, rebuilt with their full history by replaying the moves.
//
// A corrupt or half-written chunk is skipped with one warning and never retried unless its size
// changes. refresh() picks up new chunks while training runs; sampling is safe from many threads
// and may run concurrently with refresh().
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "replay/replay_format.h"

namespace jz {

struct ReplaySample {
  Position pos;  // the position before the ply, full history
  int ply = 0, game_plies = 0;
  bool full_search = false;
  std::vector<std::pair<Move, float>> policy;  // target over legal moves (empty for a cheap ply)
  float root_wdl[3] = {0, 1, 0};               // search's root W/D/L for the side to move
  bool ply_searched = false;                   // root_wdl is a search's (not a random ply's placeholder draw)
  bool has_result = true;                      // false for a branch (GAME_FLAG_BRANCH): result is a placeholder
  float result = 0;                            // game outcome for the side to move: +1 / 0 / -1
  float result_wdl[3] = {0, 1, 0};             // same, one-hot W/D/L
  int margin = 0;                              // final material margin from the side to move's view
  bool has_next = false;                       // the opponent's reply target exists
  std::vector<std::pair<Move, float>> next_policy;
  Ending ending = Ending::NONE;
  bool by_counting = false;
};

struct ReplayStats {
  int chunks = 0;  // chunks in the window
  int64_t games = 0, positions = 0, full_positions = 0;
  int64_t positions_seen = 0;  // positions of every valid chunk ever found (window or not)
  int bad_chunks = 0;          // skipped as corrupt
};

class ReplayBuffer {
 public:
  ReplayBuffer(std::string dir, int64_t window_positions);
  // Window size in positions: the newest chunks are kept until they cover it.
  void set_window(int64_t positions);
  // Rescans the directory, loads new chunks, drops chunks that fell out of the window.
  // Returns the number of chunks newly loaded.
  int refresh();
  ReplayStats stats() const;

  // One uniformly random position (only full-search plies if full_only). False if none.
  bool sample(std::mt19937_64& rng, bool full_only, ReplaySample& out) const;
  // Fills out with up to n samples; returns how many.
  int sample(std::mt19937_64& rng, bool full_only, int n, std::vector<ReplaySample>& out) const;

 private:
  struct Chunk {
    std::string path;
    uint64_t created_ms = 0;
    uint32_t positions = 0;
    std::vector<GameRecord> games;
  };
  struct FileInfo {
    uint64_t size = 0, created_ms = 0;
    uint32_t positions = 0;
    bool bad = false;
  };
  struct Index {  // cumulative counts for uniform sampling
    std::vector<std::pair<const Chunk*, const GameRecord*>> games;
    std::vector<int64_t> all, full;  // prefix sums of plies / full plies per game, size games+1
  };
  // The parts of refresh(), under refresh_mutex_.
  void scan_files();
  int load_window(std::map<std::string, std::shared_ptr<Chunk>>& keep);
  static std::shared_ptr<Chunk> load_chunk(const std::string& path);
  void rebuild_index();
  void fill(const GameRecord& g, int ply, ReplaySample& out) const;

  std::string dir_;
  int64_t window_;
  std::map<std::string, FileInfo> files_;                 // every chunk file seen (refresh thread only)
  std::map<std::string, std::shared_ptr<Chunk>> loaded_;  // guarded by mutex_
  Index index_;                                           // guarded by mutex_
  ReplayStats stats_;                                     // guarded by mutex_
  mutable std::shared_mutex mutex_;
  std::mutex refresh_mutex_;
};

}  // namespace jz
