// Teacher games (teacher/): soft policy targets from root scores, evaluation -> W/D/L, whole games
// that replay through the rules, and the parallel run into chunks.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>

#include "core/notation.h"
#include "replay/chunk_reader.h"
#include "replay/game_record.h"
#include "teacher/teacher_run.h"
#include "tests/support/test_support.h"
#include "util/fileio.h"

using namespace jz;

namespace {
Move mv(const char* uci) {
  Position pos;
  pos.set_fen(Position::START_FEN, Ruleset::JANGGI, nullptr);
  Move m;
  std::string err;
  EXPECT_TRUE(parse_legal_uci_move(pos, uci, m, &err)) << err;
  return m;
}
float prob(const std::vector<std::pair<Move, float>>& t, Move m) {
  for (auto& [x, p] : t)
    if (x == m) return p;
  return 0;
}
}  // namespace

TEST(Teacher, PolicyIsASoftmaxOverScoresPlusThePlayedMove) {
  Move a = mv("a4b4"), b = mv("c4d4"), c = mv("e4f4");
  std::vector<std::pair<Move, int>> scores = {{a, 50}, {b, 30}, {c, -900}};
  auto t = teacher_policy(scores, b, 80, 0.5);
  double sum = 0;
  for (auto& e : t) sum += e.second;
  EXPECT_NEAR(sum, 1.0, 1e-5);
  // softmax: a gets exp(0) / (1 + exp(-20/80) + ~0), b the rest; b also gets the played-move half.
  double za = 1 + std::exp(-20.0 / 80) + std::exp(-950.0 / 80);
  EXPECT_NEAR(prob(t, a), 0.5 / za, 1e-4);
  EXPECT_NEAR(prob(t, b), 0.5 + 0.5 * std::exp(-20.0 / 80) / za, 1e-4);
  EXPECT_EQ(prob(t, c), 0.0f);  // under 1e-4: dropped
  EXPECT_EQ(t.front().first, b);  // sorted, most likely first
  // A colder softmax moves weight to the best score; no scores leave the played move alone.
  EXPECT_GT(prob(teacher_policy(scores, b, 5, 0.0), a), 0.98f);
  auto one = teacher_policy({}, c, 80, 0.5);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].first, c);
  EXPECT_EQ(one[0].second, 1.0f);
}

TEST(Teacher, ScoresBecomeWdlForTheSideToMove) {
  float w[3];
  score_to_wdl(0, 0, 400, w);
  EXPECT_FLOAT_EQ(w[0], 0.5f);
  EXPECT_FLOAT_EQ(w[1], 0.0f);
  score_to_wdl(400, 0, 400, w);
  EXPECT_NEAR(w[0], 1 / (1 + std::exp(-1.0)), 1e-6);
  EXPECT_NEAR(w[0] + w[2], 1.0, 1e-6);
  score_to_wdl(-1300, 0, 400, w);
  EXPECT_LT(w[0], 0.05f);
  score_to_wdl(0, 3, 400, w);  // we mate in 3
  EXPECT_EQ(w[0], 1.0f);
  score_to_wdl(0, -2, 400, w);
  EXPECT_EQ(w[2], 1.0f);
  score_to_wdl(19990, 0, 400, w);  // a decisive engine score (counting win)
  EXPECT_EQ(w[0], 1.0f);
}

TEST(Teacher, SpecGetsRootScoresOnlyForAlphaBeta) {
  TeacherOptions o;
  o.teacher = "alphabeta:level=normal";
  o.score_depth = 2;
  EXPECT_EQ(teacher_spec(o), "alphabeta:level=normal,scores=2");
  o.teacher = "alphabeta:depth=3,scores=1";
  EXPECT_EQ(teacher_spec(o), "alphabeta:depth=3,scores=1");
  o.teacher = "uci:/bin/engine";
  EXPECT_EQ(teacher_spec(o), "uci:/bin/engine");
  o.teacher = "alphabeta:depth=2";
  o.score_depth = 0;
  EXPECT_EQ(teacher_spec(o), "alphabeta:depth=2");
}

TEST(Teacher, GamesReplayThroughTheRulesWithTargetsOnTeacherPlies) {
  TeacherOptions o;
  o.teacher = "alphabeta:depth=2";
  o.score_depth = 1;
  o.random_plies = 6;
  o.max_plies = 80;
  o.seed = 3;
  std::string err;
  auto teacher = make_player(teacher_spec(o), 1, &err);
  ASSERT_TRUE(teacher) << err;
  GameRecord g, again, other;
  TeacherTimes times;
  ASSERT_TRUE(play_teacher_game(o, *teacher, 7, g, &times, &err)) << err;
  EXPECT_TRUE(validate_game(g, &err)) << err;
  EXPECT_EQ(g.source, GameSource::TEACHER);
  EXPECT_EQ(g.origin, "alphabeta:depth=2");
  EXPECT_LE(g.num_plies(), 80);
  EXPECT_NE(g.winner, Winner::NONE);
  int opening = 0, searched = 0;
  for (const PlyRecord& p : g.plies) {
    if (!p.full_search) {
      EXPECT_EQ(searched, 0) << "random plies come first";
      EXPECT_EQ(p.policy_size, 0);
      ++opening;
      continue;
    }
    ++searched;
    ASSERT_GT(p.policy_size, 0);
    float on_played = 0;
    for (int k = 0; k < p.policy_size; ++k)
      if (g.policy[p.policy_begin + k].move == p.move) on_played = dequantize_prob(g.policy[p.policy_begin + k].prob);
    EXPECT_GE(on_played, 0.49f);  // best_move_weight 0.5
    EXPECT_NEAR(dequantize_prob(p.wdl[0]) + dequantize_prob(p.wdl[2]), 1.0f, 1e-3);
  }
  EXPECT_LE(opening, 6);
  EXPECT_GT(searched, 10);
  EXPECT_GT(times.teacher, 0);
  // The game follows from (seed, index): the same index replays it, another index differs.
  ASSERT_TRUE(play_teacher_game(o, *teacher, 7, again, nullptr, &err)) << err;
  ASSERT_TRUE(play_teacher_game(o, *teacher, 8, other, nullptr, &err)) << err;
  EXPECT_EQ(game_to_uci(g), game_to_uci(again));
  EXPECT_NE(game_to_uci(g), game_to_uci(other));
}

TEST(Teacher, RunWritesChunksAndASummaryAndRefusesBadTeachers) {
  test::TempDir dir("teach");
  TeachRunOptions o;
  o.game.teacher = "alphabeta:depth=1";
  o.game.max_plies = 60;
  o.out = dir.file("games");
  o.games = 5;
  o.threads = 2;
  o.games_per_chunk = 2;
  o.progress_seconds = 0.2;
  std::atomic<int> stop{0};
  TeachRunStats s;
  std::string err;
  ASSERT_TRUE(run_teacher(o, stop, s, &err)) << err;
  EXPECT_EQ(s.games, 5);
  EXPECT_EQ(s.failed, 0);
  EXPECT_EQ(s.wins[0] + s.wins[1] + s.wins[2], 5);
  int64_t games = 0, positions = 0;
  for (const std::string& f : list_chunk_files(o.out)) {
    std::string bytes;
    ASSERT_TRUE(read_file(f, bytes, &err)) << err;
    ChunkHeader h;
    std::vector<GameRecord> gs;
    ASSERT_TRUE(decode_chunk(bytes, h, gs, &err)) << err;
    for (const GameRecord& g : gs) {
      EXPECT_TRUE(validate_game(g, &err)) << err;
      ++games, positions += g.num_plies();
    }
  }
  EXPECT_EQ(games, 5);
  EXPECT_EQ(positions, s.positions);
  std::string summary;
  ASSERT_TRUE(read_file(o.out + "/teach.json", summary, &err)) << err;
  EXPECT_NE(summary.find("\"games\": 5"), std::string::npos) << summary;

  o.game.teacher = "alphabeta:level=grandmaster";
  EXPECT_FALSE(run_teacher(o, stop, s, &err));
  EXPECT_NE(err.find("grandmaster"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
}
