// Reference perft counts and legal-move lists (depth <= 4 here; deeper rows: `janggi-zero bench perft --suite`).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rules.h"
#include "tests/support/fen.h"
#include "tests/support/tsv.h"

using namespace jz;

namespace {
Position load(const std::string& fen, Ruleset r = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, r, &err)) << err;
  return p;
}
Move uci(const char* text) {
  Move m;
  EXPECT_TRUE(parse_uci_move(text, m)) << text;
  return m;
}
}  // namespace

TEST(Perft, PublicVectorsUpToDepth4) {
  auto rows = test::read_tsv("perft_public.tsv");
  ASSERT_GE(rows.size(), 280u);
  int checked = 0;
  for (auto& r : rows) {
    int depth = std::stoi(r[1]);
    if (depth > 4) continue;
    Position p = load(r[0]);
    EXPECT_EQ(perft(p, depth), std::stoull(r[2])) << r[0] << " depth " << depth;
    ++checked;
  }
  EXPECT_EQ(checked, 280);
}

TEST(Perft, VariantVectorsUpToDepth4) {
  auto rows = test::read_tsv("perft_variants_public.tsv");
  ASSERT_EQ(rows.size(), 336u);
  for (auto& r : rows) {
    Ruleset rules;
    ASSERT_TRUE(parse_ruleset(r[0], rules)) << r[0];
    int depth = std::stoi(r[2]);
    if (depth > 4) continue;
    Position p = load(r[1], rules);
    EXPECT_EQ(perft(p, depth), std::stoull(r[3])) << r[0] << " " << r[1] << " depth " << depth;
  }
}

TEST(Perft, LegalMoveLists) {
  auto rows = test::read_tsv("legal_moves_public.tsv");
  ASSERT_EQ(rows.size(), 70u);
  for (auto& r : rows) {
    std::string expected = r.size() > 1 ? r[1] : "";
    EXPECT_EQ(test::sorted_legal_moves(load(r[0])), expected) << r[0];
  }
}

TEST(Perft, DivideSumsToPerftAndMakeUndoRestores) {
  Position p = load(Position::START_FEN);
  uint64_t key = p.key();
  std::string fen = p.fen();
  uint64_t total = 0;
  for (auto& [m, n] : perft_divide(p, 3, 2)) total += n;
  EXPECT_EQ(total, 33000u);
  EXPECT_EQ(perft(p, 3), 33000u);
  EXPECT_EQ(p.key(), key);
  EXPECT_EQ(p.fen(), fen);
}

// A soldier on a diagonal point of its own palace (only reachable from a FEN) may also step forward
// along the diagonal, as in the reference engine (RULES.md, soldier): Cho's on e2 goes to d3 and f3 too.
TEST(Perft, SoldierInOwnPalaceStepsForwardDiagonally) {
  Position cho = load("3k5/9/9/9/9/9/9/9/4P4/5K3 w - - 0 1");
  MoveList list;
  generate_legal(cho, list);
  for (const char* m : {"e2d3", "e2f3", "e2e3", "e2d2", "e2f2"}) EXPECT_TRUE(list.contains(uci(m))) << m;
  EXPECT_FALSE(list.contains(uci("e2d1")));  // never backward
  EXPECT_EQ(perft(cho, 1), 8u);
  EXPECT_EQ(perft(cho, 2), 32u);
  EXPECT_EQ(perft(cho, 3), 220u);
  // The same position mirrored top-bottom with the colors swapped: Han's soldier on e9.
  Position han = load("5k3/4p4/9/9/9/9/9/9/9/3K5 b - - 0 1");
  generate_legal(han, list);
  for (const char* m : {"e9d8", "e9f8", "e9e8", "e9d9", "e9f9"}) EXPECT_TRUE(list.contains(uci(m))) << m;
  EXPECT_EQ(perft(han, 1), 8u);
  EXPECT_EQ(perft(han, 2), 32u);
  EXPECT_EQ(perft(han, 3), 220u);
  // From a corner of its own palace forward to the centre (d1-e2); not from a side point (e1).
  Position corner = load("3k5/9/9/9/9/9/9/9/9/3P1K3 w - - 0 1");
  generate_legal(corner, list);
  EXPECT_TRUE(list.contains(uci("d1e2")));
  Position side = load("3k5/9/9/9/9/9/9/9/9/4PK3 w - - 0 1");
  generate_legal(side, list);
  EXPECT_FALSE(list.contains(uci("e1d2")));
  EXPECT_FALSE(list.contains(uci("e1f2")));
}

// Move generation skips the full legality test for moves that cannot expose the general (the
// geometry's danger map). The soldier's palace steps must not slip through it: a soldier pinned on e2
// by a chariot may only step along the pin.
TEST(Perft, LegalityShortcutKeepsPinnedPalaceSoldier) {
  Position p = load("3k5/9/9/9/4r4/9/9/9/4P4/4K4 w - - 0 1");
  MoveList list;
  generate_legal(p, list);
  EXPECT_TRUE(list.contains(uci("e2e3")));
  for (const char* m : {"e2d3", "e2f3", "e2d2", "e2f2"}) EXPECT_FALSE(list.contains(uci(m))) << m;
  // Every generated move passes the full test, over random games from positions with soldiers
  // in their own palaces (both colors).
  std::mt19937 rng(19);
  for (const char* fen : {"3k5/9/9/9/4r4/9/9/9/4P4/4K4 w - - 0 1", "3pkp3/4p4/9/9/2c3r2/9/9/9/4P4/R2PKP3 w - - 0 1",
                          "r2pkp3/4p4/9/9/9/2R3C2/9/9/4P4/3PKP3 b - - 0 1"}) {
    Position g = load(fen);
    for (int ply = 0; ply < 60; ++ply) {
      generate_legal(g, list);
      for (Move m : list) EXPECT_TRUE(g.legal_slow(m)) << g.fen() << " " << move_to_uci(m);
      if (list.size == 0 || game_result(g, list.size).over()) break;
      g.do_move(list[int(rng() % unsigned(list.size))]);
    }
  }
}
