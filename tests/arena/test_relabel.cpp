// Teacher labels on self-play positions (teacher/relabel.h): which plies get a label, what a
// relabelled game holds, and the run over a chunk folder (newest first, resumable, bounded).
#include <gtest/gtest.h>

#include <atomic>
#include <set>

#include "core/movegen.h"
#include "replay/chunk_reader.h"
#include "replay/chunk_writer.h"
#include "replay/game_record.h"
#include "replay/replay_buffer.h"
#include "teacher/relabel.h"
#include "tests/support/chunks.h"
#include "tests/support/random_games.h"
#include "tests/support/test_support.h"
#include "util/fileio.h"

using namespace jz;

namespace {

int legal_count(const GameRecord& g, int ply) {
  Position pos;
  std::string err;
  EXPECT_TRUE(replay_game(g, pos, ply, &err)) << err;
  MoveList legal;
  generate_legal(pos, legal);
  return legal.size;
}

// A quick alpha-beta teacher: depth 2, root moves scored at depth 1.
std::unique_ptr<Player> quick_teacher(TeacherOptions& o) {
  o.teacher = "alphabeta:depth=2";
  o.score_depth = 1;
  std::string err;
  auto teacher = make_player(teacher_spec(o), 1, &err);
  EXPECT_TRUE(teacher) << err;
  return teacher;
}

// A run over dir/games into dir/labels with a depth-1 teacher, no progress lines.
RelabelRunOptions run_options(const test::TempDir& dir) {
  RelabelRunOptions o;
  o.label.teacher = "alphabeta:depth=1";
  o.label.score_depth = 0;
  o.from = dir.file("games");
  o.out = dir.file("labels");
  o.progress_seconds = 0;
  return o;
}

}  // namespace

TEST(Relabel, ChoosesDistinctPliesWithAChoiceInPlyOrder) {
  std::mt19937_64 rng(5);
  GameRecord g = test::random_game(rng, Ruleset::JANGGI, 60);
  std::mt19937_64 a(1), b(1), c(2);
  std::vector<int> p = plies_to_label(g, 6, a);
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
  EXPECT_EQ(std::set<int>(p.begin(), p.end()).size(), p.size());
  for (int ply : p) EXPECT_GT(legal_count(g, ply), 1) << ply;
  EXPECT_EQ(plies_to_label(g, 6, b), p);  // the rng decides
  EXPECT_NE(plies_to_label(g, 6, c), p);
  std::mt19937_64 d(1);
  EXPECT_EQ(int(plies_to_label(g, 1000, d).size()), g.num_plies());  // every ply of a random game has a choice
}

TEST(Relabel, TheTeacherLabelsOnlyTheChosenPliesAndTheMovesStay) {
  std::mt19937_64 rng(9);
  GameRecord g = test::random_game(rng, Ruleset::JANGGI, 50);
  TeacherOptions o;
  auto teacher = quick_teacher(o);
  ASSERT_TRUE(teacher);
  std::string err;
  const std::vector<int> plies = {3, 10, 11, 40};
  GameRecord out;
  RelabelStats s;
  ASSERT_TRUE(relabel_game(g, plies, o, *teacher, "relabel:x#0", out, &s, &err)) << err;
  EXPECT_TRUE(validate_game(out, &err)) << err;
  EXPECT_EQ(out.source, GameSource::TEACHER);
  EXPECT_EQ(out.origin, "relabel:x#0");
  EXPECT_EQ(game_to_uci(out), game_to_uci(g));
  EXPECT_EQ(out.winner, g.winner);
  EXPECT_EQ(s.games, 1);
  EXPECT_EQ(s.labelled, 4);
  EXPECT_EQ(s.value_gap_n, 4);  // the random game's plies all carry a made-up search value
  EXPECT_GT(s.cpu.teacher, 0);
  for (int ply = 0; ply < out.num_plies(); ++ply) {
    const PlyRecord& p = out.plies[size_t(ply)];
    const bool chosen = std::count(plies.begin(), plies.end(), ply) > 0;
    EXPECT_EQ(p.full_search, chosen) << ply;
    if (!chosen) {
      EXPECT_EQ(p.policy_size, 0) << ply;
      EXPECT_EQ(p.wdl[1], 65535) << ply;  // the placeholder draw: not searched
      continue;
    }
    EXPECT_GT(p.policy_size, 0) << ply;
    EXPECT_NEAR(dequantize_prob(p.wdl[0]) + dequantize_prob(p.wdl[2]), 1.0f, 1e-3);
    // The target is the teacher's: the same position searched again gives its move the top weight.
    Position pos;
    ASSERT_TRUE(replay_game(g, pos, ply, &err)) << err;
    std::vector<Move> before(g.plies.size());
    for (int k = 0; k < ply; ++k) before[size_t(k)] = g.plies[size_t(k)].move;
    before.resize(size_t(ply));
    PlayerReply r = teacher->play(pos, g.start_fen, before);
    float best = 0, on_teacher = 0;
    for (int k = 0; k < p.policy_size; ++k) {
      const PolicyEntry& e = out.policy[p.policy_begin + k];
      best = std::max(best, dequantize_prob(e.prob));
      if (e.move == r.move) on_teacher = dequantize_prob(e.prob);
    }
    EXPECT_EQ(on_teacher, best) << ply;
  }
  // A game that does not replay is refused with the ply: the side to move plays the other side's
  // next move (its piece stands on that move's from-square).
  int k = 5;
  while (g.plies[size_t(k + 1)].move.is_pass()) ++k;
  GameRecord bad = g;
  bad.plies[size_t(k)].move = g.plies[size_t(k + 1)].move;
  EXPECT_FALSE(relabel_game(bad, plies, o, *teacher, "x", out, nullptr, &err));
  EXPECT_NE(err.find("ply " + std::to_string(k + 1)), std::string::npos) << err;
}

TEST(Relabel, RunLabelsTheNewestChunkFirstAndGoesOnWhereItStopped) {
  test::TempDir dir("relabel");
  std::mt19937_64 rng(3);
  std::string err;
  {
    ChunkWriter w(dir.file("games"), "selfplay", 2);
    for (int i = 0; i < 6; ++i) ASSERT_TRUE(w.add(test::random_game(rng, Ruleset::JANGGI, 30), &err)) << err;
  }
  std::vector<std::string> inputs = list_chunk_files(dir.file("games"));
  ASSERT_EQ(inputs.size(), 3u);
  RelabelRunOptions o = run_options(dir);
  o.plies_per_game = 3;
  o.threads = 2;
  o.positions = 1;  // stops after the first chunk
  std::atomic<int> stop{0};
  RelabelStats s;
  ASSERT_TRUE(run_relabel(o, stop, s, &err)) << err;
  EXPECT_EQ(s.games, 2);
  EXPECT_EQ(s.labelled, 6);
  std::string done;
  ASSERT_TRUE(read_file(o.out + "/relabelled.txt", done, &err)) << err;
  const std::string newest = inputs.back().substr(o.from.size() + 1);
  EXPECT_EQ(done, newest + "\n");
  // A second run labels the other two and nothing twice.
  o.positions = 0;
  RelabelStats s2;
  ASSERT_TRUE(run_relabel(o, stop, s2, &err)) << err;
  EXPECT_EQ(s2.games, 4);
  std::vector<GameRecord> labelled = test::read_all_chunks(o.out);
  ASSERT_EQ(labelled.size(), 6u);
  std::set<std::string> origins;
  int full = 0;
  for (const GameRecord& g : labelled) {
    EXPECT_TRUE(validate_game(g, &err)) << err;
    origins.insert(g.origin);
    for (const PlyRecord& p : g.plies) full += p.full_search;
  }
  EXPECT_EQ(origins.size(), 6u);
  EXPECT_EQ(full, 18);
  std::string summary;
  ASSERT_TRUE(read_file(o.out + "/relabel.json", summary, &err)) << err;
  EXPECT_NE(summary.find("\"labelled_positions\": 12"), std::string::npos) << summary;
  // Labels inside the input folder would be read back as self-play games: refused.
  o.out = o.from + "/labels";
  EXPECT_FALSE(run_relabel(o, stop, s2, &err));
  EXPECT_NE(err.find("inside"), std::string::npos) << err;
}

TEST(Relabel, ABranchIsTheGameToAPlyThenAnotherMoveThenTheTeachersLabelledReply) {
  std::mt19937_64 rng(21);
  GameRecord g = test::random_game(rng, Ruleset::JANGGI, 50);
  TeacherOptions o;
  auto teacher = quick_teacher(o);
  ASSERT_TRUE(teacher);
  std::string err;
  const int ply = 12;
  // The deviation follows the ply's search target; a ply without one draws uniformly.
  GameRecord focused = g, untargeted = g;
  Position at;
  ASSERT_TRUE(replay_game(g, at, ply, &err)) << err;
  MoveList legal;
  generate_legal(at, legal);
  Move favourite = Move::none();
  for (int i = 0; i < legal.size && favourite.is_none(); ++i)
    if (legal[i] != g.plies[ply].move && !legal[i].is_pass()) favourite = legal[i];
  ASSERT_FALSE(favourite.is_none());
  for (int k = 0; k < g.plies[ply].policy_size; ++k) {
    PolicyEntry& e = focused.policy[g.plies[ply].policy_begin + k];
    e.prob = e.move == favourite ? 65535 : 0;
  }
  untargeted.plies[ply].policy_size = 0;
  std::set<uint16_t> drawn;
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(branch_move(focused, ply, rng), favourite);
    const Move m = branch_move(untargeted, ply, rng);
    ASSERT_FALSE(m.is_none());
    EXPECT_NE(m, g.plies[ply].move);
    EXPECT_FALSE(m.is_pass());
    drawn.insert(m.raw);
  }
  EXPECT_GT(drawn.size(), 5u);  // uniform over many moves, not one
  const Move m = branch_move(g, ply, rng);
  GameRecord b;
  RelabelStats s;
  ASSERT_TRUE(branch_game(g, ply, m, o, *teacher, "relabel:x#0@13", b, &s, &err)) << err;
  EXPECT_TRUE(validate_game(b, &err)) << err;
  EXPECT_EQ(s.branches, 1);
  EXPECT_EQ(s.labelled, 0);
  EXPECT_TRUE(b.flags & GAME_FLAG_BRANCH);
  EXPECT_EQ(b.source, GameSource::TEACHER);
  ASSERT_EQ(b.num_plies(), ply + 2);
  for (int k = 0; k < ply; ++k) EXPECT_EQ(b.plies[size_t(k)].move, g.plies[size_t(k)].move) << k;
  EXPECT_EQ(b.plies[ply].move, m);
  for (int k = 0; k <= ply; ++k) EXPECT_FALSE(b.plies[size_t(k)].full_search) << k;
  ASSERT_TRUE(b.plies[ply + 1].full_search);
  // The labelled reply is the teacher's move in the branched position.
  Position pos;
  ASSERT_TRUE(replay_game(b, pos, ply + 1, &err)) << err;
  std::vector<Move> before;
  for (int k = 0; k <= ply; ++k) before.push_back(b.plies[size_t(k)].move);
  EXPECT_EQ(teacher->play(pos, g.start_fen, before).move, b.plies[ply + 1].move);
  // The game's own move is no branch.
  EXPECT_FALSE(branch_game(g, ply, g.plies[ply].move, o, *teacher, "x", b, nullptr, &err));
  EXPECT_NE(err.find("not another legal move"), std::string::npos) << err;

  // The replay buffer samples a branch at its labelled ply only, without a result.
  test::TempDir dir("branch");
  ASSERT_TRUE(branch_game(g, ply, m, o, *teacher, "relabel:x#0@13", b, nullptr, &err)) << err;
  {
    ChunkWriter w(dir.path, "relabel", 8);
    ASSERT_TRUE(w.add(b, &err)) << err;
    ASSERT_TRUE(w.flush(&err)) << err;
  }
  ReplayBuffer buf(dir.path, 1 << 30);
  buf.refresh();
  std::mt19937_64 pick(4);
  for (int i = 0; i < 20; ++i) {
    ReplaySample x;
    ASSERT_TRUE(buf.sample(pick, false, x));
    EXPECT_EQ(x.ply, ply + 1);
    EXPECT_FALSE(x.has_result);
    EXPECT_TRUE(x.ply_searched);
  }
}

TEST(Relabel, RunWritesBranchesAlone) {
  test::TempDir dir("relabel-branches");
  std::mt19937_64 rng(8);
  std::string err;
  {
    ChunkWriter w(dir.file("games"), "selfplay", 4);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(w.add(test::random_game(rng, Ruleset::JANGGI, 30), &err)) << err;
  }
  RelabelRunOptions o = run_options(dir);
  o.plies_per_game = 0;
  o.branches_per_game = 2;
  std::atomic<int> stop{0};
  RelabelStats s;
  ASSERT_TRUE(run_relabel(o, stop, s, &err)) << err;
  EXPECT_EQ(s.games, 3);
  EXPECT_EQ(s.labelled, 0);
  EXPECT_EQ(s.branches, 6);
  std::vector<GameRecord> out = test::read_all_chunks(o.out);
  ASSERT_EQ(out.size(), 6u);
  for (const GameRecord& b : out) {
    EXPECT_TRUE(validate_game(b, &err)) << err;
    EXPECT_TRUE(b.flags & GAME_FLAG_BRANCH);
    EXPECT_NE(b.origin.find('@'), std::string::npos) << b.origin;
  }
  o.branches_per_game = 0;  // nothing to label
  EXPECT_FALSE(run_relabel(o, stop, s, &err));
}
