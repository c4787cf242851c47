// Reference perft counts and legal-move lists (depth <= 4 here; deeper rows: `janggi-zero bench perft --suite`).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "tsv.h"

using namespace jz;

namespace {
Position load(const std::string& fen, Ruleset r = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, r, &err)) << err;
  return p;
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
    Position p = load(r[0]);
    MoveList list;
    generate_legal(p, list);
    std::vector<std::string> got;
    for (Move m : list) got.push_back(move_to_uci(m));
    std::sort(got.begin(), got.end());
    std::string joined;
    for (auto& s : got) joined += (joined.empty() ? "" : " ") + s;
    std::string expected = r.size() > 1 ? r[1] : "";
    EXPECT_EQ(joined, expected) << r[0];
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
