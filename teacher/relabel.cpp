#include "teacher/relabel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <numeric>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"
#include "core/rules.h"
#include "replay/chunk_reader.h"
#include "replay/chunk_writer.h"
#include "replay/game_record.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/process.h"
#include "util/random.h"

namespace jz {

std::vector<int> plies_to_label(const GameRecord& game, int per_game, std::mt19937_64& rng) {
  std::vector<int> choice;
  Position pos;
  std::string why;
  if (per_game <= 0 || !pos.set_fen(game.start_fen, game.ruleset, &why)) return choice;
  MoveList legal;
  for (int ply = 0; ply < game.num_plies(); ++ply) {
    generate_legal(pos, legal);
    if (legal.size > 1 && !game_result(pos, legal.size).over()) choice.push_back(ply);
    if (!legal.contains(game.plies[ply].move)) break;  // a corrupt tail: label nothing past it
    pos.do_move(game.plies[ply].move);
  }
  std::shuffle(choice.begin(), choice.end(), rng);
  choice.resize(std::min(choice.size(), size_t(per_game)));
  std::sort(choice.begin(), choice.end());
  return choice;
}

namespace {

// The teacher's search of pos (history `moves` from `fen`): its move, W/D/L and policy target.
bool teacher_label(Player& teacher, const Position& pos, const std::string& fen, const std::vector<Move>& moves,
                   const MoveList& legal, const TeacherOptions& o, PlayerReply& r, float wdl[3],
                   std::vector<std::pair<Move, float>>& target, std::string* error) {
  r = teacher.play(pos, fen, moves);
  if (r.error.empty() && !legal.contains(r.move)) r.error = "illegal move " + move_to_uci(r.move);
  if (!r.error.empty()) return *error = r.error, false;
  wdl[0] = 0, wdl[1] = 1, wdl[2] = 0;
  if (r.has_score) score_to_wdl(r.score_cp, r.mate, o.value_scale, wdl);
  target = teacher_policy(r.root_scores, r.move, o.policy_temperature, o.best_move_weight);
  return true;
}

const float PLACEHOLDER[3] = {0, 1, 0};  // an unsearched ply's W/D/L

}  // namespace

bool relabel_game(const GameRecord& game, const std::vector<int>& plies, const TeacherOptions& o, Player& teacher,
                  const std::string& origin, GameRecord& out, RelabelStats* stats, std::string* error) {
  double c0 = thread_cpu_seconds(), in_teacher = 0;
  out = game;
  out.source = GameSource::TEACHER;
  out.origin = origin;
  out.policy.clear();
  std::vector<PlyRecord> old = std::move(out.plies);
  out.plies.clear();
  Position pos;
  if (!pos.set_fen(game.start_fen, game.ruleset, error)) return false;
  if (!teacher.new_game(game.ruleset, error)) return false;
  std::vector<Move> moves;
  MoveList legal;
  RelabelStats s;
  size_t next = 0;
  for (int ply = 0; ply < int(old.size()); ++ply) {
    const Move played = old[size_t(ply)].move;
    generate_legal(pos, legal);
    if (!legal.contains(played))
      return *error = "ply " + std::to_string(ply + 1) + ": illegal move " + move_to_uci(played), false;
    if (next < plies.size() && plies[next] == ply) {
      ++next;
      double t0 = thread_cpu_seconds();
      PlayerReply r;
      float wdl[3];
      std::vector<std::pair<Move, float>> target;
      std::string why;
      const bool ok = teacher_label(teacher, pos, game.start_fen, moves, legal, o, r, wdl, target, &why);
      in_teacher += thread_cpu_seconds() - t0;
      if (!ok) return *error = "teacher at ply " + std::to_string(ply + 1) + ": " + why, false;
      out.add_ply(played, true, wdl, target);
      ++s.labelled;
      s.agree += r.move == played;
      const PlyRecord& was = old[size_t(ply)];
      if (was.full_search || was.wdl[1] != 65535) {  // the self-play search's own value
        s.value_gap += std::abs(was.q() - (wdl[0] - wdl[2]));
        ++s.value_gap_n;
      }
    } else {
      out.add_ply(played, false, PLACEHOLDER, {});
    }
    pos.do_move(played);
    moves.push_back(played);
  }
  if (stats) {
    s.games = 1;
    s.cpu.teacher = in_teacher;
    s.cpu.other = thread_cpu_seconds() - c0 - in_teacher;
    stats->add(s);
  }
  return true;
}

Move branch_move(const GameRecord& game, int ply, std::mt19937_64& rng) {
  Position pos;
  std::string why;
  if (ply < 0 || ply >= game.num_plies() || !replay_game(game, pos, ply, &why)) return Move::none();
  MoveList legal, after;
  generate_legal(pos, legal);
  std::vector<Move> choice;
  for (int i = 0; i < legal.size; ++i) {
    const Move m = legal.moves[i];
    if (m == game.plies[size_t(ply)].move || m.is_pass()) continue;
    pos.do_move(m);
    generate_legal(pos, after);
    if (!game_result(pos, after.size).over()) choice.push_back(m);
    pos.undo_move();
  }
  if (choice.empty()) return Move::none();
  // The moves the game's search looked at, as often as it did: the positions its tree was made of.
  const PlyRecord& p = game.plies[size_t(ply)];
  std::vector<double> weight;
  for (const Move m : choice) {
    double w = 0;
    for (int k = 0; k < p.policy_size; ++k)
      if (game.policy[p.policy_begin + k].move == m) w = dequantize_prob(game.policy[p.policy_begin + k].prob);
    weight.push_back(w);
  }
  if (std::accumulate(weight.begin(), weight.end(), 0.0) <= 0) weight.assign(choice.size(), 1.0);
  return choice[std::discrete_distribution<size_t>(weight.begin(), weight.end())(rng)];
}

bool branch_game(const GameRecord& game, int ply, Move deviation, const TeacherOptions& o, Player& teacher,
                 const std::string& origin, GameRecord& out, RelabelStats* stats, std::string* error) {
  const double c0 = thread_cpu_seconds();
  Position pos;
  if (ply < 0 || ply >= game.num_plies()) return *error = "no ply " + std::to_string(ply + 1) + " to branch at", false;
  if (!replay_game(game, pos, ply, error)) return false;
  MoveList legal;
  generate_legal(pos, legal);
  if (!legal.contains(deviation) || deviation == game.plies[size_t(ply)].move)
    return *error = "branch at ply " + std::to_string(ply + 1) + ": " + move_to_uci(deviation) +
                    " is not another legal move", false;
  out = GameRecord();
  out.start_fen = game.start_fen, out.ruleset = game.ruleset, out.setup = game.setup, out.seed = game.seed;
  out.network_id = game.network_id;
  out.source = GameSource::TEACHER;
  out.origin = origin;
  out.winner = Winner::DRAW;  // a placeholder: GAME_FLAG_BRANCH says there is no result
  out.ending = Ending::NONE;
  out.flags = GAME_FLAG_BRANCH;
  std::vector<Move> moves;
  for (int k = 0; k < ply; ++k) {
    moves.push_back(game.plies[size_t(k)].move);
    out.add_ply(moves.back(), false, PLACEHOLDER, {});
  }
  out.add_ply(deviation, false, PLACEHOLDER, {});
  moves.push_back(deviation);
  pos.do_move(deviation);
  generate_legal(pos, legal);
  if (game_result(pos, legal.size).over()) return *error = "the branch ends the game", false;
  if (!teacher.new_game(game.ruleset, error)) return false;
  const double t0 = thread_cpu_seconds();
  PlayerReply r;
  float wdl[3];
  std::vector<std::pair<Move, float>> target;
  std::string why;
  const bool ok = teacher_label(teacher, pos, game.start_fen, moves, legal, o, r, wdl, target, &why);
  const double in_teacher = thread_cpu_seconds() - t0;
  if (!ok) return *error = "teacher on the branch at ply " + std::to_string(ply + 1) + ": " + why, false;
  out.add_ply(r.move, true, wdl, target);
  pos.do_move(r.move);
  out.final_margin = int16_t(material_margin(pos));
  const GameResult end = game_result(pos);  // the teacher's reply may end the game
  if (end.over()) out.winner = end.winner, out.ending = end.ending, out.flags |= end.by_counting ? GAME_FLAG_BY_COUNTING : 0;
  if (stats) {
    stats->branches += 1;
    stats->cpu.teacher += in_teacher;
    stats->cpu.other += thread_cpu_seconds() - c0 - in_teacher;
  }
  return true;
}

namespace {

const char* DONE_FILE = "relabelled.txt";

std::set<std::string> read_done(const std::string& out) {
  std::set<std::string> done;
  std::string text, err;
  if (!read_file(out + "/" + DONE_FILE, text, &err)) return done;
  size_t a = 0;
  for (size_t b; (b = text.find('\n', a)) != std::string::npos; a = b + 1)
    if (b > a) done.insert(text.substr(a, b - a));
  return done;
}

std::string relative_to(const std::string& dir, const std::string& path) {
  return path.compare(0, dir.size() + 1, dir + "/") == 0 ? path.substr(dir.size() + 1) : path;
}

std::string summary_json(const RelabelRunOptions& o, const RelabelStats& s, double wall) {
  nlohmann::json j;
  j["teacher"] = teacher_spec(o.label);
  j["from"] = o.from;
  j["plies_per_game"] = o.plies_per_game;
  j["branches_per_game"] = o.branches_per_game;
  j["games"] = s.games;
  j["failed"] = s.failed;
  j["labelled_positions"] = s.labelled;
  j["labelled_branches"] = s.branches;
  j["teacher_agrees_with_game_move"] = double(s.agree) / std::max<int64_t>(1, s.labelled);
  j["mean_value_gap"] = s.value_gap / std::max<int64_t>(1, s.value_gap_n);
  j["teacher_cpu_s"] = s.cpu.teacher;
  j["other_cpu_s"] = s.cpu.other;
  j["teacher_cpu_s_per_label"] = s.cpu.teacher / std::max<int64_t>(1, s.labelled + s.branches);
  j["wall_s"] = wall;
  j["targets"] = {{"policy_temperature_cp", o.label.policy_temperature},
                  {"best_move_weight", o.label.best_move_weight},
                  {"value_scale_cp", o.label.value_scale}};
  return j.dump(2) + "\n";
}

// Labels one game's plies and branches (o.plies_per_game, o.branches_per_game) into `out`; false when the game
// fails (logged; the branches that did label are kept).
bool label_one(const RelabelRunOptions& o, Player& teacher, const std::string& name, size_t i, const GameRecord& game,
               std::vector<GameRecord>& out, RelabelStats& stats) {
  std::mt19937_64 rng(hash_combine(hash_combine(o.label.seed, fnv1a64(name.data(), name.size())), i));
  const std::string origin = "relabel:" + name + "#" + std::to_string(i);
  std::string err;
  bool ok = true;
  if (o.plies_per_game > 0) {
    out.emplace_back();
    ok = relabel_game(game, plies_to_label(game, o.plies_per_game, rng), o.label, teacher, origin, out.back(), &stats, &err);
    if (!ok) out.pop_back();
  }
  if (ok && o.branches_per_game > 0) {
    for (int ply : plies_to_label(game, o.branches_per_game, rng)) {
      const Move m = branch_move(game, ply, rng);
      if (m.is_none()) continue;
      out.emplace_back();
      const std::string where = origin + "@" + std::to_string(ply + 1) + ":" + move_to_uci(m);
      if (!branch_game(game, ply, m, o.label, teacher, where, out.back(), &stats, &err)) {
        out.pop_back();
        ok = false;
        break;
      }
    }
  }
  if (ok && o.plies_per_game == 0) ++stats.games;  // relabel_game counts the others
  if (!ok) {
    ++stats.failed;
    JZ_LOG("relabel: %s game %zu skipped: %s", name.c_str(), i, err.c_str());
  }
  return ok;
}

// Labels one chunk's games with one thread per teacher; false (nothing written) on stop.
bool label_chunk(const RelabelRunOptions& o, std::vector<std::unique_ptr<Player>>& teachers, const std::string& name,
                 const std::vector<GameRecord>& games, const std::atomic<int>& stop, std::vector<GameRecord>& out,
                 RelabelStats& stats) {
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::vector<std::vector<GameRecord>> per_game(games.size());
  auto work = [&](Player& teacher) {
    RelabelStats mine;
    for (size_t i; !stop && (i = next.fetch_add(1)) < games.size();) label_one(o, teacher, name, i, games[i], per_game[i], mine);
    std::lock_guard<std::mutex> lock(mutex);
    stats.add(mine);
  };
  std::vector<std::thread> threads;
  for (auto& t : teachers) threads.emplace_back(work, std::ref(*t));
  for (auto& t : threads) t.join();
  if (stop) return false;
  out.clear();
  for (std::vector<GameRecord>& g : per_game)
    for (GameRecord& r : g) out.push_back(std::move(r));
  return true;
}

size_t chunks_left(const std::string& from, const std::set<std::string>& done) {
  size_t n = 0;
  for (const std::string& path : list_chunk_files(from)) n += !done.count(relative_to(from, path));
  return n;
}

void wait_for(double seconds, const std::atomic<int>& stop) {
  for (int i = 0; i < int(seconds * 10) && !stop; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace

bool run_relabel(const RelabelRunOptions& options, const std::atomic<int>& stop, RelabelStats& stats,
                 std::string* error) {
  RelabelRunOptions o = options;
  for (std::string* dir : {&o.from, &o.out})
    while (dir->size() > 1 && dir->back() == '/') dir->pop_back();
  std::string err;
  if (o.threads < 1 || o.plies_per_game < 0 || o.branches_per_game < 0 || o.plies_per_game + o.branches_per_game < 1)
    return *error = "threads must be >= 1, and plies or branches per game >= 1", false;
  if (o.from.empty() || o.out.empty()) return *error = "relabel needs an input and an output folder", false;
  if (!check_player_spec(teacher_spec(o.label), &err)) return *error = err, false;
  if (relative_to(o.from, o.out) != o.out || o.from == o.out)
    return *error = "the labelled chunks must not go inside the input folder '" + o.from + "'", false;
  if (!make_dirs(o.out)) return *error = "cannot create '" + o.out + "'", false;
  std::vector<std::unique_ptr<Player>> teachers;
  for (int i = 0; i < o.threads; ++i) {
    teachers.push_back(make_player(teacher_spec(o.label), hash_combine(o.label.seed, 0x7e1abe1ull + uint64_t(i)), &err));
    if (!teachers.back()) return *error = err, false;
  }
  std::set<std::string> done = read_done(o.out);
  std::string done_text;
  for (const std::string& d : done) done_text += d + "\n";
  ChunkWriter writer(o.out, "relabel", 1 << 30);
  const double t0 = now_seconds();
  double next_progress = t0 + o.progress_seconds;
  while (!stop && (o.positions <= 0 || stats.labelled < o.positions)) {
    std::string todo;
    for (const std::string& path : list_chunk_files(o.from))
      if (!done.count(relative_to(o.from, path))) todo = path;  // sorted by name: the newest last
    if (todo.empty()) {
      if (!o.watch) break;
      wait_for(o.poll_seconds, stop);
      continue;
    }
    const std::string name = relative_to(o.from, todo);
    ChunkHeader header;
    std::vector<GameRecord> games, labelled;
    if (!read_chunk_file(todo, header, games, &err))
      JZ_LOG("relabel: %s skipped: %s", name.c_str(), err.c_str());
    else if (!label_chunk(o, teachers, name, games, stop, labelled, stats))
      break;
    for (GameRecord& g : labelled)
      if (!writer.add(std::move(g), &err)) return *error = "writing chunks: " + err, false;
    if (!writer.flush(&err)) return *error = "writing chunks: " + err, false;
    done.insert(name);
    done_text += name + "\n";
    if (!write_file_atomic(o.out + "/" + DONE_FILE, done_text, &err)) return *error = err, false;
    if (!write_file_atomic(o.out + "/relabel.json", summary_json(o, stats, now_seconds() - t0), &err))
      return *error = err, false;
    if (now_seconds() >= next_progress) {
      next_progress = now_seconds() + o.progress_seconds;
      char agree[48] = "";  // a branch-only run labels no game move to agree with
      if (stats.labelled > 0)
        std::snprintf(agree, sizeof agree, " | teacher agrees %.0f%%", 100.0 * stats.agree / stats.labelled);
      JZ_LOG("relabel: %lld labels and %lld branches from %lld games | %.3f teacher CPU s per label%s | %zu chunks left",
             (long long)stats.labelled, (long long)stats.branches, (long long)stats.games,
             stats.cpu.teacher / std::max<int64_t>(1, stats.labelled + stats.branches), agree,
             chunks_left(o.from, done));
    }
  }
  if (stats.games == 0 && stats.failed > 0) return *error = "every game failed to relabel", false;
  return true;
}

}  // namespace jz
