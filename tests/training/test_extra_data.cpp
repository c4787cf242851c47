// Extra training data (teacher games, imported records) mixed into batches, its decaying share,
// the self-play sample count the rate limit uses, and warm starts from a model file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "nn/checkpoint.h"
#include "replay/chunk_reader.h"
#include "replay/chunk_writer.h"
#include "tests/support/test_support.h"
#include "training/batch.h"
#include "training/trainer.h"
#include "util/fileio.h"

namespace jz {
namespace {

std::string games_dir() {
  return (std::filesystem::temp_directory_path() / ("jz_training_" + std::to_string(::getpid())) / "games").string();
}

TEST(ExtraData, ShareDecaysLinearlyAndSelfPlaySamplesExcludeIt) {
  TrainOptions o;
  o.batch_size = 64;
  EXPECT_EQ(extra_samples_at(o, 0), 0);  // no extra data
  EXPECT_EQ(selfplay_samples_before(o, 10), 640);
  o.extra_data = "teacher";
  o.extra_share = 1.0;
  o.extra_share_final = 0.25;
  o.extra_decay_steps = 100;
  EXPECT_EQ(extra_samples_at(o, 0), 64);
  EXPECT_EQ(extra_samples_at(o, 50), 40);  // share 0.625
  EXPECT_EQ(extra_samples_at(o, 100), 16);
  EXPECT_EQ(extra_samples_at(o, 5000), 16);
  for (int64_t s = 1; s < 200; ++s) EXPECT_LE(extra_samples_at(o, s), extra_samples_at(o, s - 1));
  EXPECT_EQ(selfplay_samples_before(o, 1), 0);
  EXPECT_EQ(selfplay_samples_before(o, 300) - selfplay_samples_before(o, 200), 100 * 48);
  o.extra_share = o.extra_share_final = 0.5;
  EXPECT_EQ(selfplay_samples_before(o, 10), 320);
  o.extra_decay_steps = 0;  // no decay: the final share at once
  o.extra_share = 1.0;
  EXPECT_EQ(extra_samples_at(o, 0), 32);
}

// Copies the self-play games into dir with every ply's stored W/D/L a certain win, so that extra
// rows of a batch are recognisable by their value target.
void write_marked_copy(const std::string& dir) {
  ChunkWriter w(dir, "teacher", 8);
  std::string err;
  for (const std::string& f : list_chunk_files(games_dir())) {
    std::string bytes;
    ASSERT_TRUE(read_file(f, bytes, &err)) << err;
    ChunkHeader h;
    std::vector<GameRecord> games;
    ASSERT_TRUE(decode_chunk(bytes, h, games, &err)) << err;
    for (GameRecord& g : games) {
      g.source = GameSource::TEACHER;
      for (PlyRecord& p : g.plies) p.wdl[0] = 65535, p.wdl[1] = 0, p.wdl[2] = 0;
      ASSERT_TRUE(w.add(g, &err)) << err;
    }
  }
  ASSERT_TRUE(w.flush(&err)) << err;
}

TEST(ExtraData, MixedBatchesTakeTheExtraRowsWithTheirOwnValueBlend) {
  test::TempDir dir("extra");
  write_marked_copy(dir.path);
  ReplayBuffer main(games_dir(), 1 << 30), extra(dir.path, 1 << 30);
  main.refresh();
  extra.refresh();
  ASSERT_GT(extra.stats().positions, 0);
  TrainBatch b;
  ASSERT_TRUE(sample_mixed_batch(main, 40, 0.0f, &extra, 24, 1.0f, 7, 3, true, b));
  ASSERT_EQ(b.size, 64);
  int marked_main = 0;
  for (int i = 0; i < 64; ++i) {
    float w = b.wdl[i][0].item<float>(), d = b.wdl[i][1].item<float>();
    if (i < 40) {
      marked_main += (w == 1.0f);  // a result win is possible, a blend never is (q weight 0)
      EXPECT_TRUE(w == 0.0f || w == 1.0f);
    }
    if (i >= 40) {  // q weight 1: the stored certain win (every marked ply counts as searched)
      EXPECT_EQ(w, 1.0f) << "row " << i;
      EXPECT_EQ(d, 0.0f) << "row " << i;
    }
  }
  EXPECT_LT(marked_main, 40);
  // No extra buffer, or no extra rows: exactly sample_batch.
  TrainBatch plain, mixed;
  ASSERT_TRUE(sample_batch(main, 7, 3, 32, true, plain, 0.5f));
  ASSERT_TRUE(sample_mixed_batch(main, 32, 0.5f, &extra, 0, 1.0f, 7, 3, true, mixed));
  EXPECT_TRUE(torch::equal(plain.input, mixed.input));
  EXPECT_TRUE(torch::equal(plain.wdl, mixed.wdl));
  // Only extra rows (a batch that needs no self-play data yet).
  ReplayBuffer empty(dir.file("none"), 1 << 30);
  empty.refresh();
  ASSERT_TRUE(sample_mixed_batch(empty, 0, 0.0f, &extra, 16, 1.0f, 7, 4, false, b));
  EXPECT_EQ(b.size, 16);
}

// Teacher labels on self-play games (teach --relabel-from) leave most plies without a target:
// extra_full_only draws extra rows from the labelled plies alone.
TEST(ExtraData, FullOnlyDrawsExtraRowsFromSearchedPliesAlone) {
  test::TempDir dir("extra_full");
  {
    ChunkWriter w(dir.path, "relabel", 8);
    std::string err;
    for (const std::string& f : list_chunk_files(games_dir())) {
      ChunkHeader h;
      std::vector<GameRecord> games;
      ASSERT_TRUE(read_chunk_file(f, h, games, &err)) << err;
      for (GameRecord& g : games) {
        for (PlyRecord& p : g.plies) {  // searched plies a certain win, the rest a certain loss
          p.wdl[0] = p.full_search ? 65535 : 0, p.wdl[1] = 0, p.wdl[2] = p.full_search ? 0 : 65535;
        }
        ASSERT_TRUE(w.add(g, &err)) << err;
      }
    }
    ASSERT_TRUE(w.flush(&err)) << err;
  }
  ReplayBuffer main(games_dir(), 1 << 30), extra(dir.path, 1 << 30);
  main.refresh();
  extra.refresh();
  ASSERT_GT(extra.stats().full_positions, 0);
  ASSERT_LT(extra.stats().full_positions, extra.stats().positions);
  auto wins = [&](bool full_only) {
    TrainBatch b;
    EXPECT_TRUE(sample_mixed_batch(main, 8, 0.0f, &extra, 120, 1.0f, 11, 2, false, b, full_only));
    int n = 0;
    for (int i = 8; i < b.size; ++i) n += b.wdl[i][0].item<float>() == 1.0f;
    return n;
  };
  EXPECT_EQ(wins(true), 120);
  EXPECT_LT(wins(false), 120);
}

TEST(ExtraData, WarmStartLoadsTheWeightsOfAModelFile) {
  test::TempDir dir("warm");
  TrainOptions o;
  o.model = "2x16";
  o.batch_size = 16;
  o.seed = 1;
  ModelConfig cfg, other;
  std::string err;
  ASSERT_TRUE(ModelConfig::parse("2x16", cfg, &err)) << err;
  ASSERT_TRUE(ModelConfig::parse("3x16", other, &err)) << err;
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  Trainer a(o, cfg);
  TrainBatch b;
  for (int s = 0; s < 3; ++s) {
    ASSERT_TRUE(sample_batch(buf, o.seed, a.step(), 16, true, b));
    a.train_step(b);
  }
  a.export_model(dir.file("a.jzn"));
  o.seed = 99;  // another initialisation
  Trainer fresh(o, cfg), warm(o, cfg);
  warm.load_weights(dir.file("a.jzn"));
  EXPECT_EQ(warm.step(), 0);
  torch::NoGradGuard ng;
  a.model()->eval(), fresh.model()->eval(), warm.model()->eval();
  auto want = a.model()->forward(b.input, false), got = warm.model()->forward(b.input, false),
       cold = fresh.model()->forward(b.input, false);
  EXPECT_TRUE(torch::allclose(want.policy, got.policy, 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(want.wdl, got.wdl, 1e-5, 1e-5));
  EXPECT_FALSE(torch::allclose(want.policy, cold.policy, 1e-3, 1e-3));
  Trainer wrong(o, other);
  try {
    wrong.load_weights(dir.file("a.jzn"));
    FAIL() << "a 2x16 file loaded into a 3x16 trainer";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("2x16"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace jz
