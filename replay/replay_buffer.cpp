#include "replay/replay_buffer.h"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <sys/stat.h>

#include "replay/chunk_reader.h"
#include "replay/game_record.h"
#include "util/log.h"

namespace jz {

ReplayBuffer::ReplayBuffer(std::string dir, int64_t window_positions)
    : dir_(std::move(dir)), window_(window_positions) {
  index_.all.push_back(0);
  index_.full.push_back(0);
}

void ReplayBuffer::set_window(int64_t positions) {
  std::lock_guard<std::mutex> lock(refresh_mutex_);
  window_ = positions;
}

namespace {
bool read_header(const std::string& path, ChunkHeader& h, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(CHUNK_HEADER_SIZE, '\0');
  if (!in.read(bytes.data(), bytes.size())) {
    if (error) *error = "file too short for a chunk header";
    return false;
  }
  return decode_chunk_header(bytes, h, error);
}
}  // namespace

// files_: every chunk file with its size and header, read again only when its size changed.
void ReplayBuffer::scan_files() {
  std::map<std::string, FileInfo> seen;
  for (const std::string& path : list_chunk_files(dir_)) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) continue;
    auto it = files_.find(path);
    if (it != files_.end() && it->second.size == uint64_t(st.st_size)) {
      seen[path] = it->second;
      continue;
    }
    FileInfo info;
    info.size = uint64_t(st.st_size);
    ChunkHeader h;
    std::string why;
    if (!read_header(path, h, &why)) {
      JZ_LOG("warning: skipping chunk '%s': %s", path.c_str(), why.c_str());
      info.bad = true;
    } else {
      info.created_ms = h.created_ms;
      info.positions = h.position_count;
    }
    seen[path] = info;
  }
  files_.swap(seen);
}

// A chunk file with every game validated, or null (with a warning).
std::shared_ptr<ReplayBuffer::Chunk> ReplayBuffer::load_chunk(const std::string& path) {
  auto chunk = std::make_shared<Chunk>();
  chunk->path = path;
  ChunkHeader h;
  std::string why;
  bool ok = read_chunk_file(path, h, chunk->games, &why);
  for (size_t i = 0; ok && i < chunk->games.size(); ++i) {
    if (!validate_game(chunk->games[i], &why)) {
      why = "'" + path + "': game " + std::to_string(i) + ": " + why;
      ok = false;
    }
  }
  if (!ok) {
    JZ_LOG("warning: skipping chunk %s", why.c_str());
    return nullptr;
  }
  chunk->created_ms = h.created_ms;
  chunk->positions = h.position_count;
  return chunk;
}

// keep: the newest chunks that cover the window, those already loaded reused. Returns how many were
// loaded now; a chunk that fails to load is marked bad.
int ReplayBuffer::load_window(std::map<std::string, std::shared_ptr<Chunk>>& keep) {
  // Newest first; ties broken by name so every process agrees on the window.
  std::vector<std::pair<const std::string*, FileInfo*>> order;
  for (auto& [path, info] : files_)
    if (!info.bad) order.push_back({&path, &info});
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.second->created_ms != b.second->created_ms) return a.second->created_ms > b.second->created_ms;
    return *a.first > *b.first;
  });
  int64_t covered = 0;
  int loaded_now = 0;
  for (auto& [path, info] : order) {
    if (covered >= window_) break;
    auto it = loaded_.find(*path);
    if (it != loaded_.end()) {
      keep[*path] = it->second;
      covered += info->positions;
      continue;
    }
    std::shared_ptr<Chunk> chunk = load_chunk(*path);
    if (!chunk) {
      info->bad = true;
      continue;
    }
    covered += chunk->positions;
    keep[*path] = chunk;
    ++loaded_now;
  }
  return loaded_now;
}

int ReplayBuffer::refresh() {
  std::lock_guard<std::mutex> lock(refresh_mutex_);
  scan_files();
  std::map<std::string, std::shared_ptr<Chunk>> keep;
  int loaded_now = load_window(keep);

  std::unique_lock<std::shared_mutex> wlock(mutex_);
  loaded_.swap(keep);
  rebuild_index();
  stats_.bad_chunks = 0;
  stats_.positions_seen = 0;
  for (auto& [path, info] : files_) {
    if (info.bad)
      ++stats_.bad_chunks;
    else
      stats_.positions_seen += info.positions;
  }
  return loaded_now;
}

void ReplayBuffer::rebuild_index() {
  Index idx;
  idx.all.push_back(0);
  idx.full.push_back(0);
  ReplayStats s;
  for (auto& [path, chunk] : loaded_) {
    ++s.chunks;
    for (const GameRecord& g : chunk->games) {
      int full = 0;
      for (const PlyRecord& p : g.plies) full += p.full_search;
      idx.games.push_back({chunk.get(), &g});
      idx.all.push_back(idx.all.back() + (g.flags & GAME_FLAG_BRANCH ? full : g.num_plies()));
      idx.full.push_back(idx.full.back() + full);
      ++s.games;
      s.positions += g.num_plies();
      s.full_positions += full;
    }
  }
  index_ = std::move(idx);
  s.positions_seen = stats_.positions_seen;
  s.bad_chunks = stats_.bad_chunks;
  stats_ = s;
}

ReplayStats ReplayBuffer::stats() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return stats_;
}

namespace {
std::vector<std::pair<Move, float>> target_of(const GameRecord& g, const PlyRecord& p) {
  std::vector<std::pair<Move, float>> t;
  t.reserve(p.policy_size);
  for (int k = 0; k < p.policy_size; ++k) {
    const PolicyEntry& e = g.policy[p.policy_begin + k];
    t.push_back({e.move, dequantize_prob(e.prob)});
  }
  return t;
}
}  // namespace

void ReplayBuffer::fill(const GameRecord& g, int ply, ReplaySample& out) const {
  std::string why;
  out.pos.set_fen(g.start_fen, g.ruleset, &why);  // validated when loaded
  for (int i = 0; i < ply; ++i) out.pos.do_move(g.plies[i].move);
  const PlyRecord& p = g.plies[ply];
  Color us = out.pos.side_to_move();
  out.ply = ply;
  out.game_plies = g.num_plies();
  out.full_search = p.full_search;
  out.policy = target_of(g, p);
  for (int k = 0; k < 3; ++k) out.root_wdl[k] = dequantize_prob(p.wdl[k]);
  // Random opening plies are stored with an exact draw (0, 1, 0) and no target; a search almost never is.
  out.ply_searched = p.full_search || !(out.root_wdl[1] > 0.999f);
  out.has_result = !(g.flags & GAME_FLAG_BRANCH);
  out.result = g.winner == Winner::DRAW ? 0.0f : g.winner == winner_of(us) ? 1.0f : -1.0f;
  out.result_wdl[0] = out.result > 0;
  out.result_wdl[1] = out.result == 0;
  out.result_wdl[2] = out.result < 0;
  out.margin = us == CHO ? g.final_margin : -g.final_margin;
  out.has_next = ply + 1 < g.num_plies() && g.plies[ply + 1].policy_size > 0;
  out.next_policy = out.has_next ? target_of(g, g.plies[ply + 1]) : std::vector<std::pair<Move, float>>{};
  out.ending = g.ending;
  out.by_counting = g.by_counting();
}

bool ReplayBuffer::sample(std::mt19937_64& rng, bool full_only, ReplaySample& out) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  const std::vector<int64_t>& prefix = full_only ? index_.full : index_.all;
  int64_t total = prefix.back();
  if (total <= 0) return false;
  int64_t r = std::uniform_int_distribution<int64_t>(0, total - 1)(rng);
  size_t gi = size_t(std::upper_bound(prefix.begin(), prefix.end(), r) - prefix.begin()) - 1;
  const GameRecord& g = *index_.games[gi].second;
  int64_t k = r - prefix[gi];
  int ply = int(k);
  if (full_only || (g.flags & GAME_FLAG_BRANCH)) {  // a branch is indexed by its searched plies alone
    for (ply = 0; ply < g.num_plies(); ++ply)
      if (g.plies[ply].full_search && k-- == 0) break;
  }
  fill(g, ply, out);
  return true;
}

int ReplayBuffer::sample(std::mt19937_64& rng, bool full_only, int n, std::vector<ReplaySample>& out) const {
  out.resize(size_t(n));
  int got = 0;
  while (got < n && sample(rng, full_only, out[got])) ++got;
  out.resize(size_t(got));
  return got;
}

}  // namespace jz
