#include "teacher/teacher.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/random_play.h"
#include "core/setups.h"
#include "util/process.h"
#include "util/random.h"

namespace jz {

namespace {

// Scores at least this large are decisive in our engine (a win in at most 128 plies) and in the
// UCI convention we map mates to (32000).
constexpr int DECISIVE_CP = 20000 - 128;

// +1: the side to move says it wins, -1: loses, 0: neither by resign_cp.
int verdict(const PlayerReply& r, int resign_cp) {
  if (!r.has_score) return 0;
  if (r.mate != 0) return r.mate > 0 ? 1 : -1;
  if (r.score_cp >= resign_cp) return 1;
  if (r.score_cp <= -resign_cp) return -1;
  return 0;
}

}  // namespace

std::string teacher_spec(const TeacherOptions& o) {
  std::string s = o.teacher;
  bool alphabeta = s.rfind("alphabeta", 0) == 0;
  if (alphabeta && o.score_depth > 0 && s.find("scores=") == std::string::npos)
    s += std::string(s.find(':') == std::string::npos ? ":" : ",") + "scores=" + std::to_string(o.score_depth);
  return s;
}

std::vector<std::pair<Move, float>> teacher_policy(const std::vector<std::pair<Move, int>>& scores, Move played,
                                                   double temperature, double best_weight) {
  std::vector<std::pair<Move, float>> out;
  if (scores.empty()) return {{played, 1.0f}};
  int top = scores.front().second;
  for (auto& [m, v] : scores) top = std::max(top, v);
  double sum = 0;
  std::vector<double> w(scores.size());
  for (size_t i = 0; i < scores.size(); ++i) sum += w[i] = std::exp((scores[i].second - top) / std::max(1e-3, temperature));
  bool have_played = false;
  for (size_t i = 0; i < scores.size(); ++i) {
    double p = (1 - best_weight) * w[i] / sum;
    if (scores[i].first == played) p += best_weight, have_played = true;
    if (p >= 1e-4) out.push_back({scores[i].first, float(p)});
  }
  if (!have_played) out.push_back({played, float(best_weight)});
  double kept = 0;
  for (auto& e : out) kept += e.second;
  for (auto& e : out) e.second = float(e.second / kept);  // what the dropped entries held
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

void score_to_wdl(int score_cp, int mate, double scale, float wdl[3]) {
  double w;
  if (mate != 0 || std::abs(score_cp) >= DECISIVE_CP)
    w = (mate != 0 ? mate > 0 : score_cp > 0) ? 1.0 : 0.0;
  else
    w = 1.0 / (1.0 + std::exp(-double(score_cp) / std::max(1.0, scale)));
  wdl[0] = float(w);
  wdl[1] = 0;
  wdl[2] = float(1 - w);
}

bool play_teacher_game(const TeacherOptions& o, Player& teacher, uint64_t index, GameRecord& out, TeacherTimes* times,
                       std::string* error) {
  double c0 = thread_cpu_seconds(), in_teacher = 0;
  uint64_t seed = hash_combine(o.seed, index);
  std::mt19937_64 rng(seed);
  out = GameRecord();
  out.setup = uint8_t(rng() % setup_count(o.rules));
  out.start_fen = setup_fen(o.rules, out.setup);
  out.ruleset = o.rules;
  out.seed = seed;
  out.source = GameSource::TEACHER;
  out.origin = o.teacher;
  Position pos;
  if (!pos.set_fen(out.start_fen, o.rules, error)) return false;
  if (!teacher.new_game(o.rules, error)) return false;

  const float placeholder[3] = {0, 1, 0};  // random plies: no search, value from the result only
  std::vector<Move> moves;
  MoveList legal;
  int opening = o.random_plies > 0 ? int(rng() % uint64_t(o.random_plies + 1)) : 0;
  int streak = 0, streak_winner = 0;  // plies in a row that agree who wins (+1 Cho, -1 Han)
  GameResult res;
  for (;;) {
    generate_legal(pos, legal);
    res = game_result(pos, legal.size);
    if (res.over()) break;
    if (int(moves.size()) >= o.max_plies) {
      res = decide(pos, Ending::LENGTH_CAP);
      break;
    }
    Color us = pos.side_to_move();
    if (int(moves.size()) < opening) {
      if (Move m = random_legal_move(pos, rng, false); !m.is_none()) {
        out.add_ply(m, false, placeholder, {});
        pos.do_move(m);
        moves.push_back(m);
        continue;
      }
    }
    double t0 = thread_cpu_seconds();
    PlayerReply r = teacher.play(pos, out.start_fen, moves);
    in_teacher += thread_cpu_seconds() - t0;
    if (r.error.empty() && !legal.contains(r.move)) r.error = "illegal move " + move_to_uci(r.move);
    if (!r.error.empty()) {
      if (error) *error = "teacher '" + o.teacher + "' at ply " + std::to_string(moves.size() + 1) + ": " + r.error;
      return false;
    }
    float wdl[3] = {0, 1, 0};
    if (r.has_score) score_to_wdl(r.score_cp, r.mate, o.value_scale, wdl);
    out.add_ply(r.move, true, wdl, teacher_policy(r.root_scores, r.move, o.policy_temperature, o.best_move_weight));
    pos.do_move(r.move);
    moves.push_back(r.move);
    // Resignation once the teacher, playing both sides, keeps agreeing that one side is lost.
    int v = verdict(r, o.resign_cp) * (us == CHO ? 1 : -1);
    streak = v != 0 && v == streak_winner ? streak + 1 : v != 0 ? 1 : 0;
    streak_winner = v;
    if (o.resign_plies > 0 && streak >= o.resign_plies) {
      generate_legal(pos, legal);
      if (game_result(pos, legal.size).over()) continue;  // the rules end it at the loop's top
      res = GameResult{streak_winner > 0 ? Winner::CHO : Winner::HAN, Ending::RESIGNATION, false};
      break;
    }
  }
  out.winner = res.winner;
  out.ending = res.ending;
  out.flags = res.by_counting ? GAME_FLAG_BY_COUNTING : 0;
  out.final_margin = int16_t(material_margin(pos));
  if (times) {
    times->teacher += in_teacher;
    times->other += thread_cpu_seconds() - c0 - in_teacher;
  }
  return true;
}

}  // namespace jz
