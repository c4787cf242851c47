// Training suite. One set of real self-play games (material-evaluator searches, so the targets
// carry learnable signal) is generated once and shared by the tests.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/movegen.h"
#include "mcts/stub_evaluator.h"
#include "nn/checkpoint.h"
#include "nn/encoding.h"
#include "nn/policy_map.h"
#include "selfplay/worker.h"
#include "training/batch.h"
#include "training/run_dir.h"
#include "training/trainer.h"
#include "util/fileio.h"

namespace jz {
namespace {

namespace fs = std::filesystem;

class TrainingData : public ::testing::Environment {
 public:
  static std::string dir;
  void SetUp() override {
    torch_init_threads();
    dir = (fs::temp_directory_path() / ("jz_training_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir);
    SelfPlayOptions o;
    o.games_per_thread = 24;
    o.leaves_per_game = 2;
    o.games_per_chunk = 8;
    o.full_simulations = 16;
    o.cheap_simulations = 4;
    o.full_fraction = 0.5;
    o.max_plies = 80;
    o.random_opening_plies = 2;
    o.resign = false;
    o.seed = 11;
    // One thread: two threads batch their leaves in whatever order the scheduler gives, so the
    // games (and every figure below) changed from run to run, and one draw of them in CI did not fit.
    ChunkWriter writer(dir + "/games/local", "local", o.games_per_chunk);
    SelfPlayWorker w(o, std::make_shared<MaterialEvaluator>(1.0f), writer);
    w.start(1, 24);
    w.join();
    std::string err;
    ASSERT_TRUE(writer.flush(&err)) << err;
  }
  void TearDown() override { fs::remove_all(dir); }
};
std::string TrainingData::dir;
const auto* const env = ::testing::AddGlobalTestEnvironment(new TrainingData);

std::string games_dir() { return TrainingData::dir + "/games"; }

TrainOptions tiny_options() {
  TrainOptions o;
  o.model = "4x32";
  o.batch_size = 64;
  o.lr = 0.02;
  o.warmup_steps = 10;
  o.lr_schedule = "constant";
  o.seed = 5;
  return o;
}

ModelConfig tiny_model() {
  ModelConfig c;
  std::string err;
  EXPECT_TRUE(ModelConfig::parse("4x32", c, &err));
  return c;
}

// File a <-> i of a FEN's board field.
std::string mirror_fen(const std::string& fen) {
  size_t sp = fen.find(' ');
  std::string board = fen.substr(0, sp), out, rank;
  for (char ch : board + "/") {
    if (ch == '/') {
      out += std::string(rank.rbegin(), rank.rend()) + "/";
      rank.clear();
    } else {
      rank += ch;
    }
  }
  out.pop_back();
  return out + fen.substr(sp);
}

// The position mirrored, history included: mirror the start and replay the mirrored moves.
Position mirror_position(const Position& pos) {
  Position start = pos;
  std::vector<Move> moves;
  while (start.history_size() > 0) {
    moves.push_back(start.last_move());
    start.undo_move();
  }
  Position m;
  std::string err;
  EXPECT_TRUE(m.set_fen(mirror_fen(start.fen()), pos.ruleset(), &err)) << err;
  for (auto it = moves.rbegin(); it != moves.rend(); ++it) {
    Move mv = it->is_pass() ? Move(mirror_square(it->from()), mirror_square(it->from()))
                            : Move(mirror_square(it->from()), mirror_square(it->to()));
    EXPECT_TRUE(is_legal(m, mv));
    m.do_move(mv);
  }
  return m;
}

TEST(TrainOptions, ParsesValidatesAndSchedules) {
  Config c;
  std::string err;
  ASSERT_TRUE(
      c.parse("training:\n  model: 4x32\n  lr: 0.1\n  lr_schedule: step\n  lr_steps: [100, 200]\n"
              "  warmup_steps: 10\n",
              "t.yaml", &err))
      << err;
  TrainOptions o;
  ASSERT_TRUE(load_train_options(c, o, &err)) << err;
  EXPECT_EQ(o.model, "4x32");
  EXPECT_TRUE(c.unused_keys().empty());
  EXPECT_NEAR(learning_rate_at(o, 0), 0.1 / 11, 1e-12);
  EXPECT_NEAR(learning_rate_at(o, 50), 0.1, 1e-12);
  EXPECT_NEAR(learning_rate_at(o, 150), 0.01, 1e-12);
  EXPECT_NEAR(learning_rate_at(o, 250), 0.001, 1e-12);
  o.lr_schedule = "cosine";
  o.total_steps = 1010;
  o.lr_min_factor = 0.0;
  EXPECT_NEAR(learning_rate_at(o, 10), 0.1, 1e-12);
  EXPECT_NEAR(learning_rate_at(o, 510), 0.05, 1e-9);
  EXPECT_NEAR(learning_rate_at(o, 5000), 0.0, 1e-12);

  for (const char* bad :
       {"training:\n  optimizer: rmsprop\n", "training:\n  model: 4by32\n", "training:\n  batch_size: 0\n",
        "training:\n  lr_steps: [200, 100]\n", "training:\n  lr: fast\n", "training:\n  swa_every: -1\n",
        "training:\n  swa_max_n: 0\n"}) {
    Config b;
    ASSERT_TRUE(b.parse(bad, "bad.yaml", &err));
    TrainOptions x;
    err.clear();
    EXPECT_FALSE(load_train_options(b, x, &err)) << bad;
    EXPECT_NE(err.find("training."), std::string::npos) << err;
  }
}

TEST(TrainOptions, WindowGrowsSublinearlyAndIsCapped) {
  TrainOptions o;
  o.window_min = 1000;
  o.window_max = 5000;
  EXPECT_EQ(replay_window(o, 10), 1000);
  EXPECT_EQ(replay_window(o, 1000), 1000);
  int64_t prev = 1000;
  for (int64_t n = 2000; n <= 64000; n *= 2) {
    int64_t w = replay_window(o, n);
    EXPECT_GE(w, prev);
    EXPECT_LT(w, n);
    prev = w;
  }
  EXPECT_EQ(replay_window(o, int64_t(1) << 40), 5000);
}

TEST(Batch, MirrorMapsTargetsToLegalMovesOfTheMirroredPosition) {
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  ASSERT_GT(buf.stats().positions, 500);
  std::mt19937_64 rng(3);
  std::vector<ReplaySample> samples;
  ASSERT_EQ(buf.sample(rng, true, 40, samples), 40);
  TrainBatch plain, mirrored;
  make_batch(samples, {}, plain);
  make_batch(samples, std::vector<uint8_t>(samples.size(), 1), mirrored);
  std::vector<float> enc(INPUT_SIZE);
  int opp_checked = 0;
  for (int i = 0; i < plain.size; ++i) {
    const Position& pos = samples[i].pos;
    Position mpos = mirror_position(pos);
    // Planes: mirroring the encoding equals encoding the mirrored game.
    encode_position(mpos, enc.data());
    const float* mi = mirrored.input[i].data_ptr<float>();
    for (int k = 0; k < INPUT_SIZE; ++k) ASSERT_EQ(enc[k], mi[k]) << "sample " << i << " input " << k;
    // Legal mask and policy target.
    MoveList legal;
    generate_legal(mpos, legal);
    const bool* ml = mirrored.legal[i].data_ptr<bool>();
    int legal_count = 0;
    const PolicyMap& map = policy_map(GameKind::JANGGI);
    for (int k = 0; k < POLICY_SIZE; ++k) {
      if (!ml[k]) continue;
      ++legal_count;
      EXPECT_TRUE(legal.contains(map.move(k, mpos))) << k;
    }
    EXPECT_EQ(legal_count, legal.size);
    const float* mp = mirrored.policy[i].data_ptr<float>();
    const float* pp = plain.policy[i].data_ptr<float>();
    float sum = 0;
    for (int k = 0; k < POLICY_SIZE; ++k) {
      EXPECT_EQ(mp[k], pp[map.mirror(k)]);
      if (mp[k] > 0) {
        sum += mp[k];
        EXPECT_TRUE(legal.contains(map.move(k, mpos))) << "target on an illegal move, sample " << i;
        EXPECT_TRUE(ml[k]);
      }
    }
    EXPECT_NEAR(sum, 1.0f, 1e-4);
    EXPECT_EQ(mirrored.policy_weight[i].item<float>(), 1.0f);
    // Opponent-reply target: legal replies after the (mirrored) move actually played.
    if (samples[i].has_next && samples[i].ply + 1 < samples[i].game_plies) {
      ReplaySample next;
      // The move played is the one that leads to the next sample's position; find it by trying
      // the opponent targets on every legal move of mpos.
      const float* op = mirrored.opp_policy[i].data_ptr<float>();
      bool found = false;
      for (Move mv : legal) {
        Position after = mpos;
        after.do_move(mv);
        MoveList replies;
        generate_legal(after, replies);
        bool all = true;
        for (int k = 0; k < POLICY_SIZE && all; ++k)
          if (op[k] > 0) all = replies.contains(map.move(k, after));
        if (all) {
          found = true;
          break;
        }
      }
      EXPECT_TRUE(found) << "no mirrored move makes the opponent target legal, sample " << i;
      ++opp_checked;
    }
  }
  EXPECT_GT(opp_checked, 0);
  // Mirroring twice is the identity.
  std::vector<float> a(plain.input[0].data_ptr<float>(), plain.input[0].data_ptr<float>() + INPUT_SIZE), b = a;
  mirror_planes(b.data());
  EXPECT_NE(a, b);
  mirror_planes(b.data());
  EXPECT_EQ(a, b);
}

TEST(Batch, ValueTargetBlendsTheResultWithTheRootSearch) {
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  std::mt19937_64 rng(5);
  std::vector<ReplaySample> samples;
  ASSERT_EQ(buf.sample(rng, false, 64, samples), 64);
  TrainBatch plain, blended;
  make_batch(samples, {}, plain);
  make_batch(samples, {}, blended, 0.5f);
  int searched = 0;
  for (int i = 0; i < plain.size; ++i) {
    const ReplaySample& x = samples[size_t(i)];
    for (int k = 0; k < 3; ++k) {
      EXPECT_FLOAT_EQ(plain.wdl[i][k].item<float>(), x.result_wdl[k]);
      float want = x.ply_searched ? 0.5f * x.result_wdl[k] + 0.5f * x.root_wdl[k] : x.result_wdl[k];
      EXPECT_NEAR(blended.wdl[i][k].item<float>(), want, 1e-6);
    }
    EXPECT_NEAR(blended.wdl[i].sum().item<float>(), 1.0f, 1e-4);
    searched += x.ply_searched;
  }
  EXPECT_GT(searched, 32);  // most plies are searched; the random opening plies are not
  // A branch (GAME_FLAG_BRANCH) has no result: its searched plies' value target is the search's alone.
  for (ReplaySample& x : samples) x.has_result = false;
  make_batch(samples, {}, blended, 0.5f);
  for (int i = 0; i < blended.size; ++i) {
    const ReplaySample& x = samples[size_t(i)];
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(blended.wdl[i][k].item<float>(), x.ply_searched ? x.root_wdl[k] : x.result_wdl[k], 1e-6);
  }
}

TEST(Batch, SameSeedAndStepGiveTheSameBatch) {
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  TrainBatch a, b, c;
  ASSERT_TRUE(sample_batch(buf, 9, 17, 32, true, a));
  ASSERT_TRUE(sample_batch(buf, 9, 17, 32, true, b));
  ASSERT_TRUE(sample_batch(buf, 9, 18, 32, true, c));
  EXPECT_TRUE(torch::equal(a.input, b.input));
  EXPECT_TRUE(torch::equal(a.policy, b.policy));
  EXPECT_FALSE(torch::equal(a.input, c.input));
  int64_t mirrored = a.mirrored.sum().item<int64_t>();
  EXPECT_GT(mirrored, 0);
  EXPECT_LT(mirrored, 32);
  // Cheap plies are sampled for the value but are no policy targets.
  TrainBatch big;
  ASSERT_TRUE(sample_batch(buf, 9, 1, 256, false, big));
  float pw = big.policy_weight.sum().item<float>();
  EXPECT_GT(pw, 0);
  EXPECT_LT(pw, 256);
  auto rows = big.policy.sum(1);
  EXPECT_TRUE(torch::allclose(rows, big.policy_weight, 1e-4, 1e-4));
}

TEST(Trainer, LowersPolicyAndValueLossOnItsOwnPositions) {
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  TrainBatch held;
  ASSERT_TRUE(sample_batch(buf, 999, 0, 256, false, held));
  TrainOptions o = tiny_options();
  Trainer t(o, tiny_model());
  Losses before = t.evaluate(held);
  TrainBatch b;
  Losses last;
  for (int s = 0; s < 120; ++s) {
    ASSERT_TRUE(sample_batch(buf, o.seed, t.step(), o.batch_size, true, b));
    last = t.train_step(b);
    ASSERT_TRUE(std::isfinite(last.total));
  }
  Losses after = t.evaluate(held);
  std::printf("held-out loss: policy %.3f -> %.3f, value %.3f -> %.3f, margin %.4f -> %.4f, opp %.3f -> %.3f\n",
              before.policy, after.policy, before.value, after.value, before.margin, after.margin, before.opp_policy,
              after.opp_policy);
  EXPECT_EQ(t.step(), 120);
  EXPECT_EQ(t.samples_trained(), 120 * 64);
  EXPECT_LT(after.policy, before.policy - 0.1);
  EXPECT_LT(after.value, before.value - 0.05);
  EXPECT_LT(after.opp_policy, before.opp_policy);
  EXPECT_GT(after.policy_entropy, 0);
  EXPECT_GT(after.target_entropy, 0);
}

void expect_exact_resume(TrainOptions o) {
  SCOPED_TRACE(o.optimizer + " " + o.precision);
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  const std::string ckpt = TrainingData::dir + "/resume-" + o.optimizer + "-" + o.precision + ".jzckpt";
  std::vector<double> straight;
  TrainBatch b;
  {
    Trainer a(o, tiny_model());
    for (int s = 0; s < 9; ++s) {
      if (s == 5) a.save_checkpoint(ckpt, {{"positions_seen", "1234"}});
      ASSERT_TRUE(sample_batch(buf, o.seed, a.step(), o.batch_size, o.mirror, b));
      straight.push_back(a.train_step(b).total);
    }
  }
  o.seed += 0;  // same seed: batches come from (seed, step)
  Trainer r(o, tiny_model());
  std::vector<std::pair<std::string, std::string>> extra;
  r.load_checkpoint(ckpt, &extra);
  ASSERT_EQ(r.step(), 5);
  EXPECT_EQ(r.samples_trained(), 5 * o.batch_size);
  ASSERT_EQ(extra.size(), 1u);
  EXPECT_EQ(extra[0].second, "1234");
  for (int s = 5; s < 9; ++s) {
    ASSERT_TRUE(sample_batch(buf, o.seed, r.step(), o.batch_size, o.mirror, b));
    EXPECT_EQ(r.train_step(b).total, straight[s]) << "step " << s;
  }
}

TEST(Trainer, ResumeFromCheckpointTakesIdenticalSteps) {
  TrainOptions o = tiny_options();
  o.batch_size = 32;
  expect_exact_resume(o);  // SGD + Nesterov momentum
  o.optimizer = "adamw";
  o.lr = 1e-3;
  expect_exact_resume(o);
  o.optimizer = "sgd";
  o.precision = "bf16";
  o.lr = 0.02;
  expect_exact_resume(o);
}

TEST(Trainer, RefusesCorruptTruncatedAndForeignCheckpoints) {
  TrainOptions o = tiny_options();
  Trainer t(o, tiny_model());
  const std::string good = TrainingData::dir + "/good.jzckpt";
  t.save_checkpoint(good);
  std::string bytes, err;
  ASSERT_TRUE(read_file(good, bytes, &err));

  auto expect_refused = [&](const std::string& path, const std::string& needle) {
    Trainer x(o, tiny_model());
    try {
      x.load_checkpoint(path);
      ADD_FAILURE() << path << " was accepted";
    } catch (const std::runtime_error& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(path), std::string::npos) << msg;
      EXPECT_NE(msg.find(needle), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  };
  const std::string truncated = TrainingData::dir + "/truncated.jzckpt";
  ASSERT_TRUE(write_file_atomic(truncated, bytes.substr(0, bytes.size() / 2), &err));
  expect_refused(truncated, "");
  const std::string flipped = TrainingData::dir + "/flipped.jzckpt";
  std::string f = bytes;
  f[f.size() / 2] ^= 0x5A;
  ASSERT_TRUE(write_file_atomic(flipped, f, &err));
  expect_refused(flipped, "");
  const std::string empty = TrainingData::dir + "/empty.jzckpt";
  ASSERT_TRUE(write_file_atomic(empty, std::string(), &err));
  expect_refused(empty, "");
  expect_refused(TrainingData::dir + "/missing.jzckpt", "");
  const std::string model = TrainingData::dir + "/model.jzn";
  t.export_model(model);
  expect_refused(model, "not a trainer checkpoint");
  // Another architecture.
  ModelConfig other;
  ASSERT_TRUE(ModelConfig::parse("2x16", other, &err));
  Trainer small(o, other);
  const std::string small_ckpt = TrainingData::dir + "/small.jzckpt";
  small.save_checkpoint(small_ckpt);
  expect_refused(small_ckpt, "2x16");
  EXPECT_EQ(Trainer::checkpoint_model_config(small_ckpt), other);
  // Another optimizer.
  TrainOptions adam = o;
  adam.optimizer = "adamw";
  Trainer ta(adam, tiny_model());
  const std::string adam_ckpt = TrainingData::dir + "/adam.jzckpt";
  ta.save_checkpoint(adam_ckpt);
  expect_refused(adam_ckpt, "adamw");
}

// Checkpoints have their own extension; a run directory's checkpoints from before it (".jzc", the
// replay chunks' extension) are still found, in step order, and pruned with the rest.
TEST(RunDir, ListsNewAndLegacyCheckpointsByStepAndPrunesBoth) {
  const std::string dir = TrainingData::dir + "/ckpts";
  std::filesystem::create_directories(dir);
  for (const char* f : {"ckpt-00000005.jzc", "ckpt-00000010.jzckpt", "ckpt-00000007.jzckpt", "chunk-1.jzc",
                        "ckpt-x.jzckpt"})
    std::ofstream(dir + "/" + f) << "x";
  RunDir run(TrainingData::dir);
  EXPECT_EQ(std::filesystem::path(run.checkpoint_path(12)).filename(), "ckpt-00000012.jzckpt");
  auto all = list_checkpoints(dir);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].first, 5);
  EXPECT_EQ(all[1].first, 7);
  EXPECT_EQ(all[2].first, 10);
  prune_checkpoints(dir, 1);
  all = list_checkpoints(dir);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].first, 10);
  EXPECT_TRUE(std::filesystem::exists(dir + "/chunk-1.jzc"));
}

TEST(CheckpointHeader, RoundTripsAndRefusesWhatDoesNotFit) {
  CheckpointHeader h;
  h.config = tiny_model();
  h.optimizer = "adamw";
  h.seed = ~uint64_t(0);  // beyond int64: read as the u64 it is
  h.step = 7;
  h.samples = 448;
  h.optimizer_steps = 7;
  h.extra = {{"positions_seen", "1234"}};
  HeaderKV kv = make_checkpoint_header(h);
  CheckpointHeader back = check_checkpoint_header(kv, "c.jzc");
  EXPECT_EQ(back.config, h.config);
  EXPECT_EQ(back.optimizer, "adamw");
  EXPECT_EQ(back.seed, h.seed);
  EXPECT_EQ(back.step, 7);
  EXPECT_EQ(back.samples, 448);
  EXPECT_EQ(back.optimizer_steps, 7);
  EXPECT_EQ(back.extra, h.extra);

  auto refused = [&](const std::string& key, const std::string& value, const std::string& needle) {
    HeaderKV bad = kv;
    for (auto& f : bad)
      if (f.first == key) f.second = value;
    try {
      check_checkpoint_header(bad, "c.jzc");
      ADD_FAILURE() << key << "=" << value << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("blocks", "4294967300", "implausible architecture (blocks=4294967300)");  // not 4 after narrowing
  refused("filters", "100000", "implausible architecture");
  refused("step", "-1", "negative step");
  refused("seed", "18446744073709551616", "bad header field seed");
  refused("seed", "-1", "bad header field seed");
  refused("kind", "janggi-zero-model", "not a trainer checkpoint");
  h.extra = {{"step", "3"}};
  EXPECT_THROW(make_checkpoint_header(h), std::logic_error);
}

TEST(Trainer, FuzzSeedIsACurrentCheckpoint) {
  // fuzz/corpus/model/ holds real files so that fuzzing starts from deep inside the format; when the
  // format changes, regenerate them (fuzz/README.md).
  ModelConfig c;
  std::string err;
  ASSERT_TRUE(ModelConfig::parse("1x8", c, &err));
  Trainer t(tiny_options(), c);
  std::vector<std::pair<std::string, std::string>> extra;
  t.load_checkpoint(JZ_FUZZ_CORPUS "/model/checkpoint-1x8-sgd.jzc", &extra);
  EXPECT_EQ(t.step(), 1);
  EXPECT_EQ(extra, (std::vector<std::pair<std::string, std::string>>{{"positions_seen", "64"}}));
}

TEST(Trainer, ExportedNetworkMatchesTheTrainedWeights) {
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  TrainOptions o = tiny_options();
  Trainer t(o, tiny_model());
  TrainBatch b;
  for (int s = 0; s < 3; ++s) {
    ASSERT_TRUE(sample_batch(buf, o.seed, t.step(), 16, true, b));
    t.train_step(b);
  }
  const std::string path = TrainingData::dir + "/net-00000003.jzn";
  t.export_model(path, "test");
  ModelInfo info;
  JanggiNet net = load_model(path, &info);
  EXPECT_EQ(info.step, 3);
  EXPECT_EQ(info.config, tiny_model());
  torch::NoGradGuard ng;
  t.model()->eval();
  auto x = b.input;
  auto want = t.model()->forward(x, false), got = net->forward(x, false);
  EXPECT_TRUE(torch::allclose(want.policy, got.policy, 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(want.wdl, got.wdl, 1e-5, 1e-5));
  t.model()->train();
}

// Every parameter and float buffer of a network, flattened into one vector.
torch::Tensor flat_weights(JanggiNet& net) {
  std::vector<torch::Tensor> all;
  for (auto& p : net->parameters()) all.push_back(p.detach().flatten().to(torch::kFloat64));
  for (auto& b : net->buffers())
    if (b.is_floating_point()) all.push_back(b.detach().flatten().to(torch::kFloat64));
  return torch::cat(all);
}

TEST(Trainer, ExportsTheWeightAverageAndResumesIt) {
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  TrainOptions o = tiny_options();
  o.swa_every = 2;
  o.swa_max_n = 3;
  Trainer t(o, tiny_model());
  TrainBatch b;
  torch::Tensor want;  // the average by its definition: mean of the first 3 snapshots, then 1/3 on the newest
  int n = 0;
  const std::string ckpt = TrainingData::dir + "/swa.jzckpt";
  for (int s = 1; s <= 10; ++s) {
    ASSERT_TRUE(sample_batch(buf, o.seed, t.step(), 32, true, b));
    t.train_step(b);
    if (s % 2 == 0) {
      torch::Tensor w = flat_weights(t.model());
      want = n == 0 ? w : want * (double(std::min(n, 2)) / (std::min(n, 2) + 1)) + w / (std::min(n, 2) + 1);
      ++n;
    }
    if (s == 7) t.save_checkpoint(ckpt);
    EXPECT_EQ(t.averaged_snapshots(), std::min(s / 2, 3)) << "step " << s;
  }
  EXPECT_TRUE(torch::allclose(flat_weights(t.exported_model()), want, 1e-6, 1e-7));
  EXPECT_FALSE(torch::allclose(flat_weights(t.model()), want, 1e-3, 1e-3));  // the average is not the last weights

  // The exported file holds the average.
  const std::string path = TrainingData::dir + "/swa-net.jzn";
  t.export_model(path, "test");
  JanggiNet net = load_model(path, nullptr);
  EXPECT_TRUE(torch::allclose(flat_weights(net), want, 1e-6, 1e-7));

  // A resumed trainer continues the same average.
  Trainer r(o, tiny_model());
  r.load_checkpoint(ckpt);
  EXPECT_EQ(r.averaged_snapshots(), 3);
  for (int s = 8; s <= 10; ++s) {
    ASSERT_TRUE(sample_batch(buf, o.seed, r.step(), 32, true, b));
    r.train_step(b);
  }
  EXPECT_TRUE(torch::allclose(flat_weights(r.exported_model()), want, 1e-6, 1e-7));

  // A run without averaging exports its trained weights, and reads the checkpoint as before.
  TrainOptions plain = tiny_options();
  Trainer p(plain, tiny_model());
  p.load_checkpoint(ckpt);
  EXPECT_EQ(p.averaged_snapshots(), 0);
  EXPECT_TRUE(torch::equal(flat_weights(p.exported_model()), flat_weights(p.model())));
}

// Not a check: rewrites the real model and checkpoint seeds of fuzz/corpus/model/ after a format change
// (training_tests --gtest_also_run_disabled_tests --gtest_filter='*RegenerateFuzzSeeds').
TEST(Trainer, DISABLED_RegenerateFuzzSeeds) {
  ModelConfig c;
  std::string err;
  ASSERT_TRUE(ModelConfig::parse("1x8", c, &err));
  create_random_network(JZ_FUZZ_CORPUS "/model/model-1x8.jzn", c, 1);
  ReplayBuffer buf(games_dir(), 1 << 30);
  buf.refresh();
  TrainOptions o = tiny_options();
  Trainer t(o, c);
  TrainBatch b;
  ASSERT_TRUE(sample_batch(buf, o.seed, 0, o.batch_size, true, b));
  t.train_step(b);
  t.save_checkpoint(JZ_FUZZ_CORPUS "/model/checkpoint-1x8-sgd.jzc", {{"positions_seen", "64"}});
}

}  // namespace
}  // namespace jz
