// Rule options (docs/rules.md "Rule options"): hand-derived perft counts on small positions and the
// game endings they add. Every option is off by default, so the reference vectors are untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rules.h"
#include "core/setups.h"

using namespace jz;

namespace {

RuleOptions opts(const std::string& list) {
  RuleOptions o;
  std::string err;
  EXPECT_TRUE(parse_rule_options(list, o, &err)) << err;
  return o;
}

Position at(const std::string& fen, RuleOptions o, const std::string& moves = "", Ruleset r = Ruleset::JANGGI) {
  Position p;
  std::string err;
  EXPECT_TRUE(p.set_fen(fen, r, o, &err)) << err;
  std::istringstream in(moves);
  for (std::string tok; in >> tok;) {
    Move m;
    EXPECT_TRUE(parse_legal_uci_move(p, tok, m, &err)) << err;
    p.do_move(m);
  }
  return p;
}

std::vector<std::string> legal(const Position& p) {
  MoveList list;
  generate_legal(p, list);
  std::vector<std::string> out;
  for (Move m : list) out.push_back(move_to_uci(m));
  std::sort(out.begin(), out.end());
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST(RuleOptions, NamesParseAndPrint) {
  RuleOptions o;
  std::string err;
  EXPECT_TRUE(parse_rule_options("", o, &err));
  EXPECT_FALSE(o.any());
  ASSERT_TRUE(parse_rule_options("same-piece-check,elephant-chariot", o, &err));
  EXPECT_TRUE(o.has(RuleOptions::ELEPHANT_CHARIOT) && o.has(RuleOptions::SAME_PIECE_CHECK));
  EXPECT_FALSE(o.has(RuleOptions::PROMOTION));
  EXPECT_EQ(rule_options_str(o), "elephant-chariot,same-piece-check");
  EXPECT_FALSE(parse_rule_options("elephant-chariot,flying-general", o, &err));
  EXPECT_NE(err.find("unknown rule option 'flying-general'"), std::string::npos) << err;
  EXPECT_FALSE(Position().options().any());  // off by default
}

// --- Mobile-chariot setup -------------------------------------------------------------------------

TEST(RuleOptions, ElephantChariotSetupIsANamedSetupForEitherSide) {
  WingSetup c, h;
  ASSERT_TRUE(parse_setup_sides("elephant-chariot-inner", c, h));
  EXPECT_EQ(c, WingSetup::ELEPHANT_CHARIOT);
  EXPECT_EQ(h, WingSetup::INNER);
  ASSERT_TRUE(parse_setup_sides("outer-elephant-chariot", c, h));
  EXPECT_EQ(c, WingSetup::OUTER);
  EXPECT_EQ(h, WingSetup::ELEPHANT_CHARIOT);
  EXPECT_EQ(setup_name(c, h), "outer-elephant-chariot");
  // Han's row is Cho's mirrored through the centre: both read B N R from their owner's left.
  EXPECT_EQ(setup_fen(WingSetup::ELEPHANT_CHARIOT, WingSetup::ELEPHANT_CHARIOT),
            "bnra1arnb/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/BNRA1ARNB w - - 0 1");
  EXPECT_EQ(setup_fen(WingSetup::INNER, WingSetup::ELEPHANT_CHARIOT),
            "bnra1arnb/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
  int index;  // the 16 indexed setups stay the standard ones
  EXPECT_FALSE(parse_setup("elephant-chariot-inner", index));
  EXPECT_TRUE(parse_setup_sides("inner-outer", c, h));
  EXPECT_EQ(int(c) * 4 + int(h), 1);
}

TEST(RuleOptions, ElephantChariotPerftByHand) {
  // Cho's back rank B N R A . A R N B, general e2, cannons b3 h3, soldiers a4 c4 e4 g4 i4:
  //   soldiers: a4 {a5 b4} c4 {c5 b4 d4} e4 {e5 d4 f4} g4 {g5 f4 h4} i4 {i5 h4}      = 13
  //   cannons: b3 sees b1 (horse) below with nothing beyond, b8 (a cannon) above, h3 (a cannon)
  //            along rank 3; h3 the same                                              =  0
  //   general e2: e1 d2 f2 d3 e3 f3 (d1, f1 hold guards)                              =  6
  //   guards: d1 {d2 e1}, f1 {f2 e1}                                                  =  4
  //   elephants a1: a2-b3 runs into the cannon, b1 holds the horse; i1 the same        =  0
  //   horses b1: b2 then a3 or c3 (a1, c1 occupied); h1: g3 i3                        =  4
  //   chariots c1: c2 c3 (c4 own soldier, b1 d1 own); g1: g2 g3                       =  4
  //   pass                                                                            =  1
  // = 32, and Han's mirrored army has the same 32 whatever Cho played (no first move reaches
  // a point that a Han piece could move to or through), so depth 2 = 32 * 32.
  std::string fen = setup_fen(WingSetup::ELEPHANT_CHARIOT, WingSetup::ELEPHANT_CHARIOT);
  Position p = at(fen, opts("elephant-chariot"));
  EXPECT_EQ(perft(p, 1), 32u);
  EXPECT_EQ(perft(p, 2), 1024u);
  auto moves = legal(p);
  for (const char* m : {"c1c2", "c1c3", "g1g2", "g1g3", "b1a3", "b1c3", "h1g3", "h1i3"})
    EXPECT_TRUE(has(moves, m)) << m;
  for (const auto& m : moves) EXPECT_TRUE(m.rfind("a1", 0) && m.rfind("i1", 0)) << "elephant moved: " << m;
}

// --- Soldier promotion -----------------------------------------------------------------------------

TEST(RuleOptions, PromotionPerftByHand) {
  // Cho: general d1, soldier c9; Han: general f8. Cho has lost both chariots, cannons, horses and
  // elephants, so every type is on offer. Depth 1:
  //   soldier c9: c10 plain + c10r c10c c10n c10b (far rank) = 5; b9 d9 sideways (rank 9)  = 7
  //   general d1: d2 e1 e2                                                             = 3
  //   pass                                                                             = 1  -> 11
  // Depth 2, Han's general f8 has e8 f9 e9 and pass (4) unless Cho's move attacks them:
  //   c10, c10r, c10c (no screen), b9, d2, e1, e2, pass: nothing reaches e8 f9 e9  = 8 x 4 = 32
  //   c10n: the horse jumps d10-e9, so e9 is covered                                = 3
  //   c10b: the elephant's d10-e9-f8 gives check: e8 f9 e9, no pass                 = 3
  //   d9: the soldier covers e9 (and c9, d10)                                       = 3  -> 41
  // Without the option c10 is one move: 11 - 4 = 7 at depth 1, 41 - (4 + 4 + 3 + 3) = 27 at depth 2.
  const std::string fen = "9/2P6/5k3/9/9/9/9/9/9/3K5 w - - 0 1";
  Position p = at(fen, opts("soldier-promotion"));
  EXPECT_EQ(perft(p, 1), 11u);
  EXPECT_EQ(perft(p, 2), 41u);
  Position off = at(fen, RuleOptions{});
  EXPECT_EQ(perft(off, 1), 7u);
  EXPECT_EQ(perft(off, 2), 27u);
  EXPECT_TRUE(has(legal(p), "c9c10b"));
  EXPECT_FALSE(has(legal(off), "c9c10b"));
}

TEST(RuleOptions, PromotionOffersOnlyLostTypesAndSidewaysAgain) {
  // Cho keeps one chariot (a1) and both horses (g1 h1): it may take a chariot, cannon or elephant,
  // never a horse, a guard or a general. The soldier on c10 already stands on the far rank without
  // having promoted: its sideways moves b10 and d10 may promote again.
  Position p = at("2P6/9/5k3/9/9/9/9/9/9/R2K2NN1 w - - 0 1", opts("soldier-promotion"));
  auto moves = legal(p);
  for (const char* m : {"c10b10", "c10b10r", "c10b10c", "c10b10b", "c10d10", "c10d10r", "c10d10c", "c10d10b"})
    EXPECT_TRUE(has(moves, m)) << m;
  for (const auto& m : moves) {
    EXPECT_NE(m.back(), 'n') << m;
    if (std::isalpha(static_cast<unsigned char>(m.back()))) {
      EXPECT_EQ(m.rfind("c10", 0), 0u) << m;  // only the soldier promotes
    }
  }
  // Make / unmake: the chariot appears, material and key follow, undo restores the soldier.
  std::string before = p.fen();
  uint64_t key = p.key();
  int material = p.material(CHO);
  Move m;
  std::string err;
  ASSERT_TRUE(parse_legal_uci_move(p, "c10d10r", m, &err)) << err;
  EXPECT_EQ(m.promotion(), CHARIOT);
  p.do_move(m);
  EXPECT_EQ(p.piece_on(make_square(3, 9)), make_piece(CHO, CHARIOT));
  EXPECT_EQ(p.material(CHO), material - 2 + 13);
  EXPECT_TRUE(p.in_check());  // the new chariot on d10 slides along the palace diagonal d10-e9-f8
  Position fresh;
  ASSERT_TRUE(fresh.set_fen(p.fen(), Ruleset::JANGGI, &err)) << err;
  EXPECT_EQ(fresh.key(), p.key());
  p.undo_move();
  EXPECT_EQ(p.fen(), before);
  EXPECT_EQ(p.key(), key);
  // Without the option a promotion suffix is syntax the rules reject.
  Position off = at("2P6/9/5k3/9/9/9/9/9/9/R2K2NN1 w - - 0 1", RuleOptions{});
  EXPECT_FALSE(parse_legal_uci_move(off, "c10d10r", m, &err));
  EXPECT_TRUE(parse_legal_uci_move(off, "c10d10", m, &err)) << err;
}

// --- Same-piece perpetual check --------------------------------------------------------------------

namespace {
// Cho: general f1, chariot a1; Han: general d10. 1. a1a10+ d10d9 2. a10a9+ d9d10: Cho's chariot has
// checked twice in a row.
const std::string CHECKS_FEN = "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1";
const std::string TWO_CHECKS = "a1a10 d10d9 a10a9 d9d10";
}  // namespace

TEST(RuleOptions, SamePieceCheckPerftByHand) {
  // After the two checks, Cho (general f1, chariot a9) has at depth 1:
  //   chariot: a10, a8..a1 (8), b9..i9 (8)  = 17; general: f2 e1 e2 = 3; pass = 1        -> 21
  // Three of the chariot moves check d10 again: a10 (rank 10), d9 (file d), e9 (palace
  // diagonal e9-d10). Each is the chariot's third check in a row: a draw, 0 moves below.
  // The other 18, against Han's general d10 (d9 e10 e9, pass = 4 unless covered):
  //   a8..a1: rank 8 and below cover nothing                        8 x 4 = 32
  //   b9 c9 f9 g9 h9 i9: rank 9 covers d9 e9 -> e10, pass            6 x 2 = 12
  //   general f2 e1 e2, pass: the chariot on a9 still covers d9 e9   4 x 2 =  8  -> 52
  // Without the option the three checks have replies: a10+: d9 e9 (e10 on rank 10) = 2;
  // d9+: Kxd9 e10 (e9 on rank 9) = 2; e9+: Kxe9 only = 1  -> 52 + 5 = 57.
  Position p = at(CHECKS_FEN, opts("same-piece-check"), TWO_CHECKS);
  EXPECT_EQ(perft(p, 1), 21u);
  EXPECT_EQ(perft(p, 2), 52u);
  Position off = at(CHECKS_FEN, RuleOptions{}, TWO_CHECKS);
  EXPECT_EQ(perft(off, 1), 21u);
  EXPECT_EQ(perft(off, 2), 57u);
}

TEST(RuleOptions, ThirdCheckBySamePieceIsADraw) {
  Position p = at(CHECKS_FEN, opts("same-piece-check"), TWO_CHECKS);
  EXPECT_FALSE(game_result(p).over());
  Move m;
  std::string err;
  ASSERT_TRUE(parse_legal_uci_move(p, "a9a10", m, &err));
  p.do_move(m);
  GameResult r = game_result(p);
  EXPECT_EQ(r.winner, Winner::DRAW);
  EXPECT_EQ(r.ending, Ending::SAME_PIECE_CHECK);
  EXPECT_EQ(r.str(), "1/2-1/2 (same-piece check)");
  Ending e;
  EXPECT_TRUE(parse_ending("same-piece check", e) && e == Ending::SAME_PIECE_CHECK);
  // Off by default: the same game goes on.
  Position off = at(CHECKS_FEN, RuleOptions{}, TWO_CHECKS + " a9a10");
  EXPECT_FALSE(game_result(off).over());
}

TEST(RuleOptions, ChecksByDifferentPiecesOrWithABreakDoNotDraw) {
  // Two chariots take turns (Cho: chariots a1 b1, general f1; Han general d10): the a-chariot checks
  // on rank 10, the b-chariot on rank 9, the a-chariot from d10 down the d-file: no piece thrice (e8 is free).
  const std::string fen = "3k5/9/9/9/9/9/9/9/9/RR3K3 w - - 0 1";
  Position p = at(fen, opts("same-piece-check"), "a1a10 d10d9 b1b9 d9d8 a10d10");
  EXPECT_TRUE(p.in_check());
  EXPECT_FALSE(game_result(p).over());
  // A quiet move between checks breaks the run: check, quiet, check, check by the same chariot.
  Position q = at(CHECKS_FEN, opts("same-piece-check"), "a1a10 d10d9 a10a8 d9d10 a8a10 d10d9 a10a9");
  EXPECT_TRUE(q.in_check());
  EXPECT_FALSE(game_result(q).over());
  // A third check that also mates is checkmate: the mate test comes first.
  Position d = at(CHECKS_FEN, opts("same-piece-check"), TWO_CHECKS + " a9a10");
  EXPECT_EQ(game_result(d, 0).ending, Ending::CHECKMATE);
}

TEST(RuleOptions, DefaultsLeaveRandomGamesUnchanged) {
  // With every option on but nothing to trigger them in the opening, the move lists agree.
  std::mt19937 rng(3);
  Position a = at(Position::START_FEN, RuleOptions{}), b = at(Position::START_FEN, opts("same-piece-check"));
  for (int ply = 0; ply < 40; ++ply) {
    MoveList la, lb;
    generate_legal(a, la);
    generate_legal(b, lb);
    ASSERT_EQ(la.size, lb.size);
    if (!la.size) break;
    Move m = la[int(rng() % la.size)];
    a.do_move(m);
    b.do_move(m);
  }
}

TEST(RuleOptions, FacingGeneralsDrawAtOnce) {
  // janggicasual has no bikjang: generals may face each other there. With facing-draw (the simplified
  // rules of casual play sites) the move that opens the file ends the game in a draw.
  const std::string fen = "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1";
  Position p = at(fen, opts("facing-draw"), "", Ruleset::CASUAL);
  EXPECT_FALSE(game_result(p).over());
  Position moved = at(fen, opts("facing-draw"), "e5c6", Ruleset::CASUAL);
  GameResult r = game_result(moved);
  EXPECT_EQ(r.winner, Winner::DRAW);
  EXPECT_EQ(r.ending, Ending::BIKJANG);
  EXPECT_EQ(perft(moved, 1), 0u);  // over: no moves below
  Position off = at(fen, RuleOptions{}, "e5c6", Ruleset::CASUAL);
  EXPECT_FALSE(game_result(off).over());
  EXPECT_GT(perft(off, 1), 0u);
}
