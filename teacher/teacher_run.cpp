#include "teacher/teacher_run.h"

#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "replay/chunk_writer.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/process.h"
#include "util/random.h"

namespace jz {

namespace {

struct Shared {
  Shared(const TeachRunOptions& options, const std::atomic<int>& stop_flag)
      : o(options), stop(stop_flag), writer(options.out, "teach", options.games_per_chunk) {}
  const TeachRunOptions& o;
  const std::atomic<int>& stop;
  ChunkWriter writer;
  std::atomic<int64_t> next{0};
  std::mutex mutex;  // guards stats, write_error
  TeachRunStats stats;
  std::string write_error, teacher_error;
};

void count(TeachRunStats& s, const GameRecord& g) {
  ++s.games;
  s.positions += g.num_plies();
  for (const PlyRecord& p : g.plies) s.searched_positions += p.full_search;
  ++s.wins[g.winner == Winner::CHO ? 0 : g.winner == Winner::HAN ? 1 : 2];
  s.resigned += g.ending == Ending::RESIGNATION;
  s.length_capped += g.ending == Ending::LENGTH_CAP;
}

void worker(Shared& sh, int id) {
  std::string err;
  std::unique_ptr<Player> teacher =
      make_player(teacher_spec(sh.o.game), hash_combine(sh.o.game.seed, 0x7eac4e5ull + uint64_t(id)), &err);
  if (!teacher) {
    std::lock_guard<std::mutex> lock(sh.mutex);
    sh.teacher_error = err;
    return;
  }
  for (;;) {
    if (sh.stop) return;
    int64_t index = sh.next.fetch_add(1);
    if (index >= sh.o.games) return;
    GameRecord g;
    TeacherTimes t;
    bool ok = play_teacher_game(sh.o.game, *teacher, uint64_t(index), g, &t, &err);
    double c0 = thread_cpu_seconds();
    std::string werr;
    bool written = ok && sh.writer.add(g, &werr);
    t.other += thread_cpu_seconds() - c0;  // encoding and writing chunks
    std::lock_guard<std::mutex> lock(sh.mutex);
    sh.stats.cpu.teacher += t.teacher;
    sh.stats.cpu.other += t.other;
    if (!ok) {
      ++sh.stats.failed;
      JZ_LOG("teach: game %lld failed: %s", (long long)index + 1, err.c_str());
      if (sh.teacher_error.empty()) sh.teacher_error = err;
      continue;
    }
    if (!written) {
      sh.write_error = werr;
      return;
    }
    count(sh.stats, g);
  }
}

std::string summary_json(const TeachRunOptions& o, const TeachRunStats& s) {
  nlohmann::json j;
  j["teacher"] = teacher_spec(o.game);
  j["seed"] = o.game.seed;
  j["games"] = s.games;
  j["failed"] = s.failed;
  j["positions"] = s.positions;
  j["searched_positions"] = s.searched_positions;
  j["results"] = {{"cho", s.wins[0]}, {"han", s.wins[1]}, {"draw", s.wins[2]}};
  j["resigned"] = s.resigned;
  j["length_capped"] = s.length_capped;
  j["teacher_cpu_s"] = s.cpu.teacher;
  j["other_cpu_s"] = s.cpu.other;
  j["other_share_of_teacher"] = s.cpu.other / std::max(1e-9, s.cpu.teacher);
  j["wall_s"] = s.wall_seconds;
  j["targets"] = {{"policy_temperature_cp", o.game.policy_temperature},
                  {"best_move_weight", o.game.best_move_weight},
                  {"value_scale_cp", o.game.value_scale},
                  {"random_plies", o.game.random_plies},
                  {"max_plies", o.game.max_plies},
                  {"resign_cp", o.game.resign_cp},
                  {"resign_plies", o.game.resign_plies}};
  return j.dump(2) + "\n";
}

}  // namespace

bool run_teacher(const TeachRunOptions& o, const std::atomic<int>& stop, TeachRunStats& stats, std::string* error) {
  std::string err;
  if (o.games < 1 || o.threads < 1 || o.games_per_chunk < 1) return *error = "games, threads, chunk size >= 1", false;
  if (!check_player_spec(teacher_spec(o.game), &err)) return *error = err, false;
  Shared sh(o, stop);
  double t0 = now_seconds();
  std::vector<std::thread> threads;
  for (int i = 0; i < o.threads; ++i) threads.emplace_back(worker, std::ref(sh), i);
  // Progress until the workers are done.
  for (bool done = false; !done;) {
    for (int i = 0; i < int(o.progress_seconds * 10) && !done; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::lock_guard<std::mutex> lock(sh.mutex);
      done = sh.stats.games + sh.stats.failed >= o.games || !sh.write_error.empty() || stop ||
             (!sh.teacher_error.empty() && sh.stats.games == 0 && sh.stats.failed == 0);
    }
    std::lock_guard<std::mutex> lock(sh.mutex);
    const TeachRunStats& s = sh.stats;
    double wall = now_seconds() - t0, rate = s.games / std::max(1e-9, wall);
    JZ_LOG("teach: games %lld/%lld | %.2f games/s, %.0f positions/s | teacher %.0f%% of CPU | ETA %s",
           (long long)s.games, (long long)o.games, rate, s.positions / std::max(1e-9, wall),
           100 * s.cpu.teacher / std::max(1e-9, s.cpu.teacher + s.cpu.other),
           rate > 0 ? format_string("%.0f s", (o.games - s.games - s.failed) / rate).c_str() : "?");
  }
  for (auto& t : threads) t.join();
  if (!sh.writer.flush(&err) && sh.write_error.empty()) sh.write_error = err;
  stats = sh.stats;
  stats.wall_seconds = now_seconds() - t0;
  if (!sh.write_error.empty()) return *error = "writing chunks: " + sh.write_error, false;
  if (stats.games == 0 && !sh.teacher_error.empty()) return *error = sh.teacher_error, false;
  if (!write_file_atomic(o.out + "/teach.json", summary_json(o, stats), &err)) return *error = err, false;
  return true;
}

}  // namespace jz
