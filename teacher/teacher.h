// Teacher games: a player (our alpha-beta engine, or any UCI engine) plays both sides from a random
// setup and a few random plies; every ply it plays becomes training data in the replay format, the
// way NNUE nets are bootstrapped from search-labelled positions:
//   policy target  the teacher's move, mixed with a softmax over its root move scores where it has
//                  them (alphabeta:...,scores=D), so that near-equal alternatives keep some weight;
//   value target   its evaluation as W/D/L (logistic in centipoints; mates are certain), stored as
//                  the ply's root W/D/L, which the trainer blends with the game result.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arena/player.h"
#include "replay/replay_format.h"

namespace jz {

struct TeacherOptions {
  std::string teacher = "alphabeta:level=normal";  // player spec (arena/player.h)
  int score_depth = 2;                             // alphabeta teachers: scores=D unless the spec sets it
  double policy_temperature = 80;                  // centipoints: softmax temperature over root scores
  double best_move_weight = 0.5;                   // share of the policy target on the move played
  double value_scale = 400;                        // centipoints: W = 1 / (1 + exp(-cp / scale))
  int random_plies = 8;                            // 0..N random plies (no passes) after the setup
  int max_plies = 300;                             // longer games end by the length cap (counting)
  int resign_cp = 1500;                            // both sides agree one is this far ahead ...
  int resign_plies = 6;                            // ... for this many plies in a row: resignation
  Ruleset rules = Ruleset::JANGGI;
  uint64_t seed = 1;
};

// Where the CPU went while playing (this thread's CPU clock).
struct TeacherTimes {
  double teacher = 0;  // inside the teacher's play()
  double other = 0;    // openings, targets, game bookkeeping
};

// The teacher spec as played: alphabeta specs get scores=score_depth unless they set scores.
std::string teacher_spec(const TeacherOptions& o);

// Policy target from the teacher's root scores (side to move's view) and the move it played:
// (1 - best_weight) * softmax(score / temperature) + best_weight * [move played]. Entries under
// 1e-4 are dropped (the rest renormalised). Without scores: the move played alone.
std::vector<std::pair<Move, float>> teacher_policy(const std::vector<std::pair<Move, int>>& scores, Move played,
                                                   double temperature, double best_weight);

// W/D/L for the side to move from an evaluation: mate (+ we mate) or a decisive engine score is
// certain; else W = 1 / (1 + exp(-cp / scale)), D = 0.
void score_to_wdl(int score_cp, int mate, double scale, float wdl[3]);

// Plays teacher game number `index` (its setup, openings and seeds follow from options.seed and
// index) with `teacher` on both sides. False with a reason when the teacher fails (an illegal move,
// a crash); the game is then not usable.
bool play_teacher_game(const TeacherOptions& o, Player& teacher, uint64_t index, GameRecord& out, TeacherTimes* times,
                       std::string* error);

}  // namespace jz
