// Teacher labels on the network's own positions (on-policy distillation, as DAgger does for
// imitation): positions sampled from self-play games are searched by the teacher, and the games
// are written again with the teacher's targets on those plies only. The moves stay the game's, so
// the trainer rebuilds each position with its exact history; the other plies carry no target and
// a placeholder draw, which the trainer reads as "not searched" (training.extra_full_only skips them).
#pragma once
#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "arena/player.h"
#include "replay/replay_format.h"
#include "teacher/teacher.h"

namespace jz {

struct RelabelStats {
  int64_t games = 0, labelled = 0, failed = 0;
  int64_t branches = 0;      // labelled branch records (branch_game)
  int64_t agree = 0;         // labelled plies where the game's move was the teacher's move
  double value_gap = 0;      // sum over labelled plies of |self-play root Q - teacher Q| (searched plies)
  int64_t value_gap_n = 0;   // plies in value_gap
  TeacherTimes cpu;
  void add(const RelabelStats& o) {
    games += o.games, labelled += o.labelled, failed += o.failed, branches += o.branches, agree += o.agree;
    value_gap += o.value_gap, value_gap_n += o.value_gap_n, cpu.teacher += o.cpu.teacher, cpu.other += o.cpu.other;
  }
};

// The plies of `game` worth a label: played with more than one legal move (no forced move, no
// finished position), at most `per_game` of them, drawn uniformly by rng, in ply order.
std::vector<int> plies_to_label(const GameRecord& game, int per_game, std::mt19937_64& rng);

// `out` = `game` with the teacher's policy and W/D/L on `plies` and no target elsewhere; source
// TEACHER, origin `origin`. False with a reason when the game does not replay or the teacher fails.
bool relabel_game(const GameRecord& game, const std::vector<int>& plies, const TeacherOptions& o, Player& teacher,
                  const std::string& origin, GameRecord& out, RelabelStats* stats, std::string* error);

// Branches (KataGo's side positions; the states DAgger's learner reaches): the network's search looks at
// replies the games never play, a piece left hanging among them, and learns nothing of those positions from
// the games. A branch record is `game` up to `ply`, then `deviation`, then the teacher's reply to the
// position it leaves, labelled: no result of its own (GAME_FLAG_BRANCH), so its value target is the teacher's.
// branch_move draws the deviation among the legal moves other than the game's (passes and moves that end the
// game excepted) by the game's search target at that ply (the replies its tree looked at, as often as it did),
// uniformly where the ply has none; Move::none() when there is none.
Move branch_move(const GameRecord& game, int ply, std::mt19937_64& rng);
bool branch_game(const GameRecord& game, int ply, Move deviation, const TeacherOptions& o, Player& teacher,
                 const std::string& origin, GameRecord& out, RelabelStats* stats, std::string* error);

struct RelabelRunOptions {
  TeacherOptions label;     // teacher spec and target shaping (teacher.h)
  std::string from;         // self-play chunk folder (a run's games/), searched recursively
  std::string out;          // labelled chunks, relabelled.txt (the inputs done) and relabel.json
  int plies_per_game = 4;
  int branches_per_game = 0;  // branch records per game, at plies drawn like the labelled ones
  int threads = 1;
  int64_t positions = 0;    // stop after this many labels (0: when the inputs are done)
  bool watch = false;       // keep waiting for new self-play chunks (until stop or positions)
  double poll_seconds = 20;
  double progress_seconds = 30;
};

// Labels the newest unlabelled input chunk first (the positions of the newest network), one
// output chunk per input chunk; an input is done once its output is written, so a restarted run
// goes on where it stopped. False with a one-line reason when nothing can be read or written.
bool run_relabel(const RelabelRunOptions& o, const std::atomic<int>& stop, RelabelStats& stats, std::string* error);

}  // namespace jz
