// `janggi-zero teach`: teacher games in parallel worker threads (one teacher instance each) into
// replay chunks, with a progress line, the CPU split (teacher vs the rest) and a JSON summary.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "teacher/teacher.h"

namespace jz {

struct TeachRunOptions {
  TeacherOptions game;
  std::string out;  // chunk directory (created); the summary goes to <out>/teach.json
  int64_t games = 100;
  int threads = 1;
  int games_per_chunk = 32;
  double progress_seconds = 10;
};

struct TeachRunStats {
  int64_t games = 0, positions = 0, searched_positions = 0, failed = 0;
  int64_t wins[3] = {0, 0, 0};  // Cho, Han, draw
  int64_t resigned = 0, length_capped = 0;
  TeacherTimes cpu;
  double wall_seconds = 0;
};

// Plays until options.games games are written or stop is set (the games being played are
// finished and written). False with a one-line reason when chunks cannot be written or every
// game failed; a failing game is reported and skipped.
bool run_teacher(const TeachRunOptions& options, const std::atomic<int>& stop, TeachRunStats& stats,
                 std::string* error);

}  // namespace jz
