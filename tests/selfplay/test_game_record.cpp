#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/notation.h"
#include "replay/game_record.h"
#include "tests/support/random_games.h"

namespace jz {
namespace {

TEST(GameRecord, RandomGamesValidate) {
  std::mt19937_64 rng(20);
  for (int r = 0; r < RULESET_NB; ++r)
    for (int i = 0; i < 10; ++i) {
      GameRecord g = test::random_game(rng, Ruleset(r), 400);
      std::string err;
      EXPECT_TRUE(validate_game(g, &err)) << err;
    }
}

TEST(GameRecord, TamperedGamesFailValidation) {
  std::mt19937_64 rng(21);
  GameRecord g = test::random_game(rng, Ruleset::JANGGI, 40);
  ASSERT_EQ(g.ending, Ending::LENGTH_CAP);
  std::string err;
  GameRecord bad = g;
  bad.final_margin += 1;
  EXPECT_FALSE(validate_game(bad, &err));
  bad = g;
  bad.winner = bad.winner == Winner::CHO ? Winner::HAN : Winner::CHO;
  EXPECT_FALSE(validate_game(bad, &err));
  bad = g;
  bad.ending = Ending::CHECKMATE;
  EXPECT_FALSE(validate_game(bad, &err));
  bad = g;
  std::swap(bad.plies[4].move, bad.plies[5].move);
  EXPECT_FALSE(validate_game(bad, &err));
  bad = g;
  bad.start_fen = "not a fen";
  EXPECT_FALSE(validate_game(bad, &err));
  EXPECT_NE(err.find("FEN"), std::string::npos);
  bad = g;
  for (auto& p : bad.plies)
    if (p.policy_size > 1) {
      bad.policy[p.policy_begin].prob += 2000;
      break;
    }
  EXPECT_FALSE(validate_game(bad, &err));
  // Resigning is consistent only while the game is on and with a winner.
  bad = g;
  bad.ending = Ending::RESIGNATION;
  bad.winner = Winner::DRAW;
  bad.flags = 0;
  EXPECT_FALSE(validate_game(bad, &err));
  bad.winner = Winner::HAN;
  EXPECT_TRUE(validate_game(bad, &err)) << err;
}

// The UCI export is a command that replays the game: parse it as `janggi-zero uci` would.
TEST(GameRecord, UciExportReplaysTheGame) {
  std::mt19937_64 rng(22);
  GameRecord g = test::random_game(rng, Ruleset::MODERN, 120);
  std::istringstream is(game_to_uci(g));
  std::string tok, fen;
  is >> tok;
  EXPECT_EQ(tok, "position");
  is >> tok;
  EXPECT_EQ(tok, "fen");
  while (is >> tok && tok != "moves") fen += (fen.empty() ? "" : " ") + tok;
  EXPECT_EQ(fen, g.start_fen);
  Position pos;
  std::string err;
  ASSERT_TRUE(pos.set_fen(fen, g.ruleset, &err));
  int n = 0;
  while (is >> tok) {
    Move m;
    ASSERT_TRUE(parse_legal_uci_move(pos, tok, m, &err)) << err;
    EXPECT_EQ(m, g.plies[n].move);
    pos.do_move(m);
    ++n;
  }
  EXPECT_EQ(n, g.num_plies());
}

TEST(GameRecord, JsonAndTextExports) {
  std::mt19937_64 rng(23);
  GameRecord g = test::random_game(rng, Ruleset::JANGGI, 30);
  auto j = nlohmann::json::parse(game_to_json(g));
  EXPECT_EQ(j["fen"], g.start_fen);
  EXPECT_EQ(j["rules"], "janggi");
  EXPECT_EQ(j["moves"].size(), size_t(g.num_plies()));
  EXPECT_EQ(j["moves"][0], move_to_uci(g.plies[0].move));
  EXPECT_EQ(j["ending"], "length cap");
  EXPECT_EQ(j["margin"], g.final_margin);
  std::string text = game_to_text(g);
  EXPECT_NE(text.find("[Rules \"janggi\"]"), std::string::npos);
  EXPECT_NE(text.find("1. " + move_to_uci(g.plies[0].move)), std::string::npos);
  EXPECT_EQ(game_to_json(g).find('\n'), std::string::npos);
}

}  // namespace
}  // namespace jz
