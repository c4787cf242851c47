#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/movegen.h"
#include "replay/chunk_reader.h"
#include "replay/chunk_writer.h"
#include "replay/game_record.h"
#include "replay/replay_buffer.h"
#include "tests/support/random_games.h"
#include "util/fileio.h"
#include "tests/support/test_support.h"

namespace jz {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::vector<GameRecord> games_for(std::mt19937_64& rng, int n, int max_plies = 80) {
  std::vector<GameRecord> g;
  for (int i = 0; i < n; ++i) g.push_back(test::random_game(rng, Ruleset(rng() % JANGGI_RULESET_NB), max_plies));
  return g;
}

void write_chunk(const std::string& path, const std::vector<GameRecord>& games, uint64_t created) {
  std::string err;
  ASSERT_TRUE(write_file_atomic(path, encode_chunk(games, created), &err)) << err;
}

int plies(const std::vector<GameRecord>& gs) {
  int n = 0;
  for (auto& g : gs) n += g.num_plies();
  return n;
}

TEST(ChunkWriter, WritesCompleteChunksWithUniqueNames) {
  TempDir dir;
  std::mt19937_64 rng(10);
  {
    ChunkWriter w(dir.path + "/w1", "worker/1", 3);
    std::string err;
    for (auto& g : games_for(rng, 7)) ASSERT_TRUE(w.add(g, &err)) << err;
    EXPECT_EQ(w.chunks_written(), 2u);
  }  // destructor flushes the 7th game
  auto files = list_chunk_files(dir.path);
  ASSERT_EQ(files.size(), 3u);
  int games = 0;
  for (auto& f : files) {
    EXPECT_NE(f.find("worker_1"), std::string::npos) << f;
    EXPECT_NE(f.find("-" + std::to_string(::getpid()) + "-"), std::string::npos) << f;
    ChunkHeader h;
    std::vector<GameRecord> gs;
    std::string err;
    ASSERT_TRUE(read_chunk_file(f, h, gs, &err)) << err;
    games += int(gs.size());
  }
  EXPECT_EQ(games, 7);
}

TEST(ChunkReader, IgnoresTemporaryAndForeignFiles) {
  TempDir dir;
  fs::create_directories(dir.path + "/a/b");
  std::ofstream(dir.path + "/a/b/chunk-1.jzc.tmp.123.0") << "partial";
  std::ofstream(dir.path + "/a/notes.txt") << "x";
  std::ofstream(dir.path + "/a/b/chunk-2.jzc") << "y";
  auto files = list_chunk_files(dir.path);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(fs::path(files[0]).filename(), "chunk-2.jzc");
  EXPECT_TRUE(list_chunk_files(dir.path + "/missing").empty());
}

TEST(ReplayBuffer, SkipsCorruptChunksWithAWarning) {
  TempDir dir;
  std::mt19937_64 rng(11);
  auto a = games_for(rng, 4), b = games_for(rng, 3), c = games_for(rng, 2);
  fs::create_directories(dir.path + "/w1");
  fs::create_directories(dir.path + "/w2");
  write_chunk(dir.path + "/w1/chunk-a.jzc", a, 100);
  write_chunk(dir.path + "/w2/chunk-b.jzc", b, 200);
  std::string bytes = encode_chunk(c, 300);
  std::ofstream(dir.path + "/w2/chunk-c.jzc", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  std::ofstream(dir.path + "/w2/chunk-d.jzc", std::ios::binary) << "garbage";
  std::ofstream(dir.path + "/w2/chunk-e.jzc.tmp.1.0", std::ios::binary) << bytes;  // never read

  ReplayBuffer buf(dir.path, 1 << 30);
  testing::internal::CaptureStderr();
  EXPECT_EQ(buf.refresh(), 2);
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("chunk-c.jzc"), std::string::npos) << log;
  EXPECT_NE(log.find("chunk-d.jzc"), std::string::npos) << log;
  EXPECT_EQ(log.find("chunk-e"), std::string::npos) << log;
  ReplayStats s = buf.stats();
  EXPECT_EQ(s.chunks, 2);
  EXPECT_EQ(s.games, 7);
  EXPECT_EQ(s.positions, plies(a) + plies(b));
  EXPECT_EQ(s.bad_chunks, 2);

  // Warned once: a second refresh is quiet and loads nothing new.
  testing::internal::CaptureStderr();
  EXPECT_EQ(buf.refresh(), 0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(ReplayBuffer, RejectsChunkWithAnIllegalGame) {
  TempDir dir;
  std::mt19937_64 rng(12);
  auto gs = games_for(rng, 2);
  gs[1].plies[0].move = Move(0, 89);
  write_chunk(dir.path + "/chunk-x.jzc", gs, 1);
  ReplayBuffer buf(dir.path, 1 << 30);
  testing::internal::CaptureStderr();
  EXPECT_EQ(buf.refresh(), 0);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("illegal"), std::string::npos);
  EXPECT_EQ(buf.stats().bad_chunks, 1);
}

TEST(ReplayBuffer, WindowKeepsNewestChunksAndGrows) {
  TempDir dir;
  std::mt19937_64 rng(13);
  std::vector<std::vector<GameRecord>> chunks;
  for (int i = 0; i < 5; ++i) {
    chunks.push_back(games_for(rng, 2));
    write_chunk(dir.path + "/chunk-" + std::to_string(i) + ".jzc", chunks.back(), 1000 + i);
  }
  // Window smaller than the newest chunk: just that chunk.
  ReplayBuffer buf(dir.path, 1);
  buf.refresh();
  EXPECT_EQ(buf.stats().chunks, 1);
  EXPECT_EQ(buf.stats().positions, plies(chunks[4]));
  int total = 0;
  for (auto& c : chunks) total += plies(c);
  EXPECT_EQ(buf.stats().positions_seen, total);
  // Covering the two newest exactly.
  buf.set_window(plies(chunks[4]) + plies(chunks[3]));
  EXPECT_EQ(buf.refresh(), 1);
  EXPECT_EQ(buf.stats().chunks, 2);
  buf.set_window(1 << 30);
  EXPECT_EQ(buf.refresh(), 3);
  EXPECT_EQ(buf.stats().positions, total);
  // A new chunk appears while training: picked up incrementally, the oldest drops out of a tight window.
  buf.set_window(total);
  auto fresh = games_for(rng, 2);
  fs::create_directories(dir.path + "/sub");
  write_chunk(dir.path + "/sub/chunk-new.jzc", fresh, 2000);
  EXPECT_EQ(buf.refresh(), 1);
  ReplayStats s = buf.stats();
  EXPECT_EQ(s.positions_seen, total + plies(fresh));
  EXPECT_LE(s.positions, total + plies(fresh));
  EXPECT_GE(s.positions, total);
}

TEST(ReplayBuffer, SamplesMatchTheirGames) {
  TempDir dir;
  std::mt19937_64 rng(14);
  auto gs = games_for(rng, 6, 60);
  write_chunk(dir.path + "/chunk-s.jzc", gs, 1);
  ReplayBuffer buf(dir.path, 1 << 30);
  buf.refresh();
  std::mt19937_64 srng(5);
  std::vector<ReplaySample> samples;
  ASSERT_EQ(buf.sample(srng, false, 300, samples), 300);
  int full = 0;
  std::set<std::pair<int, int>> seen;
  for (const ReplaySample& s : samples) {
    // Find the game by replaying: the sample's history must be a prefix of one stored game.
    const GameRecord* game = nullptr;
    for (auto& g : gs) {
      if (g.num_plies() != s.game_plies || s.pos.history_size() != s.ply) continue;
      bool match = true;
      for (int k = 0; k < s.ply && match; ++k) match = s.pos.state(s.ply - 1 - k).move == g.plies[k].move;
      if (!match) continue;
      Position start = s.pos;
      for (int k = 0; k < s.ply; ++k) start.undo_move();
      if (start.fen() == g.start_fen && start.ruleset() == g.ruleset) {
        game = &g;
        break;
      }
    }
    ASSERT_NE(game, nullptr);
    const PlyRecord& ply = game->plies[s.ply];
    seen.insert({int(game - gs.data()), s.ply});
    EXPECT_EQ(s.full_search, ply.full_search);
    EXPECT_EQ(int(s.policy.size()), ply.policy_size);
    if (ply.full_search) ++full;
    MoveList legal;
    generate_legal(s.pos, legal);
    for (auto& [m, p] : s.policy) EXPECT_TRUE(legal.contains(m));
    Color us = s.pos.side_to_move();
    float expect = game->winner == Winner::DRAW ? 0.f : game->winner == winner_of(us) ? 1.f : -1.f;
    EXPECT_EQ(s.result, expect);
    EXPECT_EQ(s.margin, us == CHO ? game->final_margin : -game->final_margin);
    bool next = s.ply + 1 < game->num_plies() && game->plies[s.ply + 1].policy_size > 0;
    EXPECT_EQ(s.has_next, next);
    if (next) {
      Position after = s.pos;
      after.do_move(ply.move);
      MoveList reply;
      generate_legal(after, reply);
      for (auto& [m, p] : s.next_policy) EXPECT_TRUE(reply.contains(m));
    }
  }
  EXPECT_GT(full, 0);
  EXPECT_GT(seen.size(), 100u);  // spread over many positions

  ASSERT_EQ(buf.sample(srng, true, 200, samples), 200);
  for (const ReplaySample& s : samples) {
    EXPECT_TRUE(s.full_search);
    EXPECT_FALSE(s.policy.empty());
  }
}

TEST(ReplayBuffer, EmptyBufferSamplesNothing) {
  ReplayBuffer buf("/nonexistent/jz/dir", 100);
  EXPECT_EQ(buf.refresh(), 0);
  std::mt19937_64 rng(1);
  ReplaySample s;
  EXPECT_FALSE(buf.sample(rng, false, s));
}

}  // namespace
}  // namespace jz
