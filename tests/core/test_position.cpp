// FEN reading/writing, validation of bad input, make/undo and incremental hashing.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/movegen.h"
#include "core/position.h"
#include "core/setups.h"
#include "tests/support/tsv.h"

using namespace jz;

namespace {
bool accepts(const std::string& fen, std::string* err = nullptr) {
  Position p;
  std::string e;
  bool ok = p.set_fen(fen, Ruleset::JANGGI, &e);
  if (err) *err = e;
  return ok;
}
}  // namespace

TEST(Fen, RoundTripsAllTestPositions) {
  for (auto& r : test::read_tsv("legal_moves_public.tsv")) {
    Position p;
    std::string err;
    ASSERT_TRUE(p.set_fen(r[0], Ruleset::JANGGI, &err)) << err;
    EXPECT_EQ(p.fen(), r[0]);
  }
}

TEST(Fen, AcceptsHorseAndElephantAliases) {
  Position a, b;
  std::string err;
  ASSERT_TRUE(
      a.set_fen("rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1", Ruleset::JANGGI, &err))
      << err;
  ASSERT_TRUE(
      b.set_fen("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", Ruleset::JANGGI, &err));
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.fen(), b.fen());
}

TEST(Fen, RejectsMalformedAndImpossiblePositions) {
  std::string err;
  EXPECT_FALSE(accepts("", &err));
  EXPECT_FALSE(accepts("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4 w - - 0 1", &err));  // 9 ranks
  EXPECT_NE(err.find("10 ranks"), std::string::npos) << err;
  EXPECT_FALSE(accepts("rnba1abnr/4k5/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", &err));
  EXPECT_NE(err.find("more than 9 files"), std::string::npos) << err;
  EXPECT_FALSE(accepts("rnba1abnr/4k3/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", &err));
  EXPECT_FALSE(accepts("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBX1ABNR w - - 0 1", &err));
  EXPECT_NE(err.find("unknown piece letter 'X'"), std::string::npos) << err;
  EXPECT_FALSE(accepts("3k1k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &err));
  EXPECT_NE(err.find("two generals"), std::string::npos) << err;
  EXPECT_FALSE(accepts("9/9/9/4k4/9/9/9/9/9/4K4 w - - 0 1", &err));
  EXPECT_NE(err.find("outside its palace"), std::string::npos) << err;
  EXPECT_FALSE(accepts("4k4/9/9/9/9/9/9/9/9/9 w - - 0 1", &err));
  EXPECT_NE(err.find("one general"), std::string::npos) << err;
  EXPECT_FALSE(accepts("4k4/9/9/9/9/9/9/9/9/4K4 x - - 0 1", &err));
  EXPECT_FALSE(accepts("4k4/9/9/9/9/9/9/9/9/4K4 w - - abc 1", &err));
  // Cho to move while Han's general is attacked by Cho's chariot: the side to move gives check.
  EXPECT_FALSE(accepts("3k5/9/9/9/3R5/9/9/9/9/5K3 w - - 0 1", &err));
  EXPECT_NE(err.find("gives check"), std::string::npos) << err;
  EXPECT_TRUE(accepts("3k5/9/9/9/3R5/9/9/9/9/5K3 b - - 0 1", &err)) << err;
}

TEST(Position, MakeUndoRestoresAndKeysAreIncremental) {
  std::mt19937 rng(7);
  for (int s = 0; s < SETUP_NB; ++s) {
    Position p;
    std::string err;
    ASSERT_TRUE(p.set_fen(setup_fen(s), Ruleset::JANGGI, &err));
    std::vector<std::string> fens{p.fen()};
    std::vector<uint64_t> keys{p.key()};
    for (int ply = 0; ply < 120; ++ply) {
      MoveList list;
      generate_legal(p, list);
      if (list.size == 0 || p.pass_ended()) break;
      p.do_move(list[int(rng() % list.size)]);
      // The incrementally updated key equals the key of the same position loaded from scratch.
      Position fresh;
      ASSERT_TRUE(fresh.set_fen(p.fen(), Ruleset::JANGGI, &err)) << err << " " << p.fen();
      EXPECT_EQ(fresh.key(), p.key());
      EXPECT_EQ(fresh.material(CHO), p.material(CHO));
      EXPECT_EQ(fresh.in_check(), p.in_check());
      fens.push_back(p.fen());
      keys.push_back(p.key());
    }
    while (p.history_size() > 0) {
      p.undo_move();
      fens.pop_back();
      keys.pop_back();
      EXPECT_EQ(p.fen(), fens.back());
      EXPECT_EQ(p.key(), keys.back());
    }
  }
}

TEST(Position, SetupsAreTheSixteenReferenceStarts) {
  auto rows = test::read_tsv("perft_public.tsv");
  std::set<std::string> reference;
  for (auto& r : rows) reference.insert(r[0]);
  std::set<std::string> ours;
  for (int i = 0; i < SETUP_NB; ++i) {
    ours.insert(setup_fen(i));
    EXPECT_TRUE(reference.count(setup_fen(i))) << setup_name(i) << " " << setup_fen(i);
    int back;
    ASSERT_TRUE(parse_setup(setup_name(i), back));
    EXPECT_EQ(back, i);
  }
  EXPECT_EQ(ours.size(), 16u);
  EXPECT_EQ(setup_fen(WingSetup::INNER, WingSetup::INNER), Position::START_FEN);
  int idx;
  EXPECT_TRUE(parse_setup("바깥상-안상", idx));
  EXPECT_EQ(idx, 4);
  EXPECT_FALSE(parse_setup("sideways-inner", idx));
}

TEST(Position, CheckersAreReported) {
  Position p;
  std::string err;
  // fsf_perft_sh_1 style position: Han in check from a cannon on f8 (reference metadata).
  ASSERT_TRUE(
      p.set_fen("1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1", Ruleset::JANGGI, &err));
  Square cs[16];
  ASSERT_EQ(p.checkers(cs), 1);
  EXPECT_EQ(cs[0], make_square(5, 7));
  // Cannon checking along a palace diagonal through a screen on e9.
  ASSERT_TRUE(p.set_fen("3k5/4P4/5C3/9/9/9/9/9/4K4/9 b - - 0 1", Ruleset::JANGGI, &err));
  EXPECT_TRUE(p.in_check());
  EXPECT_EQ(p.checkers(cs), 2);
}
