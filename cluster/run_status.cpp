#include "cluster/run_status.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "replay/chunk_reader.h"
#include "replay/game_record.h"
#include "replay/replay_format.h"
#include "util/fileio.h"

namespace jz {

namespace fs = std::filesystem;

long long network_step(const std::string& name) {
  const std::string pre = "net-", ext = ".jzn";
  if (name.size() <= pre.size() + ext.size() || name.compare(0, pre.size(), pre) != 0 ||
      name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
    return -1;
  std::string digits = name.substr(pre.size(), name.size() - pre.size() - ext.size());
  if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoll(digits);
}

namespace {

// Header only (48 bytes) plus the size check: cheap enough for every chunk of a long run.
bool read_header(const std::string& path, ChunkHeader& h) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(CHUNK_HEADER_SIZE, '\0');
  if (!in.read(&bytes[0], std::streamsize(bytes.size()))) return false;
  if (!decode_chunk_header(bytes, h, nullptr)) return false;
  std::error_code ec;
  uint64_t size = fs::file_size(path, ec);
  return !ec && size == CHUNK_HEADER_SIZE + h.payload_size + CHUNK_TRAILER_SIZE;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> v;
  std::istringstream is(line);
  for (std::string c; std::getline(is, c, ',');) {
    while (!c.empty() && (c.back() == '\r' || c.back() == ' ')) c.pop_back();
    while (!c.empty() && c.front() == ' ') c.erase(c.begin());
    v.push_back(c);
  }
  return v;
}

int find_column(const std::vector<std::string>& header, std::initializer_list<const char*> names) {
  for (const char* n : names)
    for (size_t i = 0; i < header.size(); i++)
      if (header[i] == n) return int(i);
  return -1;
}

bool to_double(const std::vector<std::string>& row, int col, double* v) {
  if (col < 0 || size_t(col) >= row.size()) return false;
  try {
    size_t used = 0;
    *v = std::stod(row[col], &used);
    return used == row[col].size();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

TrainerProgress parse_train_csv(const std::string& text) {
  TrainerProgress t;
  std::istringstream is(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(is, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header.empty()) {
      header = split_csv(line);
      continue;
    }
    std::vector<std::string> r = split_csv(line);
    if (r.size() == header.size()) rows.push_back(r);  // a torn last line is ignored
  }
  if (rows.empty()) return t;
  t.present = true;
  t.rows = int(rows.size());
  const auto& last = rows.back();
  int step = find_column(header, {"step", "steps", "train_step"});
  if (step >= 0) t.step = last[step];
  double v = 0;
  if (to_double(last, find_column(header, {"ratio", "samples_per_position"}), &v)) t.ratio = v;
  int rate = find_column(header, {"samples_per_s", "samples_per_sec", "samples/s", "sps", "samples_per_second"});
  if (to_double(last, rate, &v)) {
    t.samples_per_s = v;
    return t;
  }
  // Otherwise from cumulative samples over elapsed time between the last two rows.
  int samples = find_column(header, {"samples", "total_samples", "samples_seen"});
  int time = find_column(header, {"elapsed_s", "time_s", "elapsed", "seconds", "wall_s", "time", "unix_time"});
  double s1, s0, t1, t0;
  if (rows.size() >= 2 && to_double(last, samples, &s1) && to_double(rows[rows.size() - 2], samples, &s0) &&
      to_double(last, time, &t1) && to_double(rows[rows.size() - 2], time, &t0) && t1 > t0)
    t.samples_per_s = (s1 - s0) / (t1 - t0);
  return t;
}

// The replay reader's own checks: CRC, sizes, every field, and every game replayed legally.
bool chunk_is_valid(const std::string& path) {
  ChunkHeader h;
  std::vector<GameRecord> games;
  if (!read_chunk_file(path, h, games, nullptr)) return false;
  for (const GameRecord& g : games)
    if (!validate_game(g, nullptr)) return false;
  return true;
}

RunProgress scan_run(const std::string& run_dir, uint64_t now_ms, double recent_window, bool full) {
  RunProgress r;
  std::error_code ec;
  // Workers: games/<worker>/ (chunk files anywhere below it).
  std::map<std::string, std::string> worker_dirs;
  for (fs::directory_iterator it(run_dir + "/games", ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) worker_dirs[it->path().filename().string()] = it->path().string();
  for (const auto& [name, dir] : worker_dirs) {
    WorkerProgress w;
    w.worker = name;
    std::string newest_path;
    uint64_t recent_positions = 0;
    uint64_t since = now_ms > uint64_t(recent_window * 1000) ? now_ms - uint64_t(recent_window * 1000) : 0;
    for (const std::string& path : list_chunk_files(dir)) {
      ChunkHeader h;
      if (!read_header(path, h) || (full && !chunk_is_valid(path))) {
        w.bad_chunks++;
        continue;
      }
      w.chunks++;
      w.games += h.game_count;
      w.positions += h.position_count;
      if (h.created_ms >= since) recent_positions += h.position_count;
      if (h.created_ms >= w.newest_ms) w.newest_ms = h.created_ms, newest_path = path;
    }
    if (w.chunks > 0 && now_ms > since) w.recent_positions_per_s = recent_positions / ((now_ms - since) / 1000.0);
    if (!newest_path.empty()) {
      ChunkHeader h;
      std::vector<GameRecord> games;
      if (read_chunk_file(newest_path, h, games, nullptr) && !games.empty()) w.network_id = games.back().network_id;
    }
    r.games += w.games;
    r.positions += w.positions;
    r.workers.push_back(w);
  }
  // Newest network: highest step.
  for (fs::directory_iterator it(run_dir + "/models", ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    long long step = network_step(name);
    if (step < 0) continue;
    r.network.count++;
    if (step > r.network.step) {
      r.network.step = step;
      r.network.newest = name;
      struct stat st;
      if (stat(it->path().c_str(), &st) == 0) r.network.age_s = std::max(0.0, now_ms / 1000.0 - double(st.st_mtime));
    }
  }
  std::string csv;
  if (read_file(run_dir + "/metrics/train.csv", csv, nullptr)) r.trainer = parse_train_csv(csv);
  return r;
}

}  // namespace jz
