// What a run directory says about a run's progress, read without touching any writer: games and
// positions per self-play worker (chunk headers), the newest network, the trainer's speed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace jz {

struct WorkerProgress {
  std::string worker;  // games/<worker>/
  int chunks = 0;
  int bad_chunks = 0;  // failed the check (should stay 0: chunks are written atomically)
  uint64_t games = 0;
  uint64_t positions = 0;
  uint64_t newest_ms = 0;             // creation time of the newest chunk
  double recent_positions_per_s = 0;  // over the last `recent_window` seconds of chunks
  std::string network_id;             // network of the newest chunk's last game
};

struct NetworkInfo {
  int count = 0;       // net-*.jzn files
  std::string newest;  // file name of the highest step
  long long step = -1;
  double age_s = -1;  // since its last modification
};

struct TrainerProgress {
  bool present = false;       // metrics/train.csv has a data row
  std::string step;           // last row's step column, if any
  double samples_per_s = -1;  // last row's rate, or derived from cumulative samples and time
  double ratio = -1;          // samples trained per self-play position seen (train.csv `ratio`)
  int rows = 0;
};

struct RunProgress {
  std::vector<WorkerProgress> workers;
  NetworkInfo network;
  TrainerProgress trainer;
  uint64_t games = 0, positions = 0;
};

// now_ms: the wall clock used for "recent" rates; recent_window in seconds.
// full: decode every chunk (CRC, every field) and replay its games through the rules, not just the header.
RunProgress scan_run(const std::string& run_dir, uint64_t now_ms, double recent_window = 600, bool full = false);
// Parses train.csv text (header row + data rows; columns found by name).
TrainerProgress parse_train_csv(const std::string& text);
// net-<step>.jzn -> step, or -1.
long long network_step(const std::string& filename);

}  // namespace jz
