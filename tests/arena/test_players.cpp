// Player specs: parsing, clear errors for bad specs, the random and alpha-beta players.
#include <gtest/gtest.h>

#include <set>

#include "arena/player.h"
#include "core/movegen.h"

using namespace jz;

namespace {
std::string spec_error(const std::string& spec) {
  std::string err;
  EXPECT_FALSE(check_player_spec(spec, &err)) << spec;
  EXPECT_FALSE(make_player(spec, 1, &err)) << spec;
  EXPECT_EQ(err.find('\n'), std::string::npos) << "one-line error: " << err;
  return err;
}
}  // namespace

TEST(PlayerSpec, Parses) {
  PlayerSpec s;
  std::string err;
  ASSERT_TRUE(parse_player_spec("uci:/usr/bin/engine uci, Hash=64 ,movetime=50,name=fs", s, &err)) << err;
  EXPECT_EQ(s.kind, "uci");
  EXPECT_EQ(s.arg, "/usr/bin/engine uci");
  ASSERT_EQ(s.options.size(), 3u);
  EXPECT_EQ(s.options[0].first, "Hash");
  EXPECT_EQ(s.options[0].second, "64");
  EXPECT_EQ(s.name(), "fs");
  ASSERT_TRUE(parse_player_spec("alphabeta:level=easy", s, &err));
  EXPECT_EQ(s.kind, "alphabeta");
  EXPECT_TRUE(s.arg.empty());
  EXPECT_EQ(*s.find("level"), "easy");
  EXPECT_EQ(s.name(), "alphabeta:level=easy");
  ASSERT_TRUE(parse_player_spec("random", s, &err));
  EXPECT_EQ(s.kind, "random");
  EXPECT_TRUE(s.options.empty());
}

TEST(PlayerSpec, BadSpecsGiveClearErrors) {
  EXPECT_NE(spec_error("").find("empty player spec"), std::string::npos);
  EXPECT_NE(spec_error("magic").find("unknown kind 'magic'"), std::string::npos);
  EXPECT_NE(spec_error("greedy,name=g").find("options follow a colon: 'greedy:name=g'"), std::string::npos);
  EXPECT_NE(spec_error("random:bogus=1").find("unknown option 'bogus'"), std::string::npos);
  EXPECT_NE(spec_error("random:seed=-4").find("seed must be an integer"), std::string::npos);
  EXPECT_NE(spec_error("random:/some/path").find("takes no path"), std::string::npos);
  EXPECT_NE(spec_error("random:seed=1,oops").find("expected key=value"), std::string::npos);
  EXPECT_NE(spec_error("random:=3").find("empty key"), std::string::npos);
  EXPECT_NE(spec_error("uci:").find("needs a program"), std::string::npos);
  EXPECT_NE(spec_error("uci:/no/such/engine").find("no executable program"), std::string::npos);
  EXPECT_NE(spec_error("uci:/bin/sh,movetime=abc").find("movetime must be an integer"), std::string::npos);
  EXPECT_NE(spec_error("uci:/bin/sh,movetime=10,nodes=5").find("at most one of"), std::string::npos);
  EXPECT_NE(spec_error("uci:/bin/sh,Hash=").find("needs a value"), std::string::npos);
  EXPECT_FALSE(spec_error("net:/no/such/model.pt").empty());
  EXPECT_FALSE(spec_error("alphabeta:level=godlike").empty());
  EXPECT_FALSE(spec_error("alphabeta").empty());
  EXPECT_FALSE(spec_error("alphabeta:depth=x").empty());
  EXPECT_NE(spec_error("alphabeta:color=red").find("unknown option 'color'"), std::string::npos);
}

TEST(Players, RandomIsSeededAndLegal) {
  std::string err;
  Position pos;
  ASSERT_TRUE(pos.set_fen(Position::START_FEN, Ruleset::JANGGI, &err));
  auto a = make_player("random", 7, &err), b = make_player("random", 7, &err), c = make_player("random", 8, &err);
  ASSERT_TRUE(a && b && c) << err;
  std::vector<Move> none;
  bool differs = false;
  for (int i = 0; i < 20; ++i) {
    PlayerReply ra = a->play(pos, Position::START_FEN, none), rb = b->play(pos, Position::START_FEN, none),
                rc = c->play(pos, Position::START_FEN, none);
    EXPECT_TRUE(ra.error.empty());
    EXPECT_TRUE(is_legal(pos, ra.move));
    EXPECT_EQ(ra.move, rb.move);
    differs |= ra.move != rc.move;
  }
  EXPECT_TRUE(differs);
}

TEST(Players, GreedyTakesTheMostMaterial) {
  std::string err;
  Position pos;
  // Cho's chariot on a1 can take Han's chariot on a6 (13 points) or the soldier on e1 (2).
  ASSERT_TRUE(pos.set_fen("9/3k5/9/9/r8/9/9/9/4K4/R3p4 w - - 0 1", Ruleset::JANGGI, &err)) << err;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    auto g = make_player("greedy", seed, &err);
    ASSERT_TRUE(g) << err;
    PlayerReply r = g->play(pos, "", {});
    EXPECT_TRUE(r.error.empty());
    EXPECT_EQ(r.move, Move(make_square(0, 0), make_square(0, 5)));
  }
  // No capture: a random non-pass move, varying with the seed.
  Position start;
  ASSERT_TRUE(start.set_fen(Position::START_FEN, Ruleset::JANGGI, &err));
  std::set<uint16_t> seen;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    PlayerReply r = make_player("greedy", seed, &err)->play(start, "", {});
    EXPECT_TRUE(is_legal(start, r.move));
    EXPECT_FALSE(r.move.is_pass());
    seen.insert(r.move.raw);
  }
  EXPECT_GT(seen.size(), 1u);
  EXPECT_FALSE(check_player_spec("greedy:some/path", &err));
  EXPECT_FALSE(check_player_spec("greedy:depth=2", &err));
}

TEST(Players, AlphaBetaPlaysLegalMoves) {
  std::string err;
  auto p = make_player("alphabeta:depth=2", 1, &err);
  ASSERT_TRUE(p) << err;
  ASSERT_TRUE(p->new_game(Ruleset::JANGGI, &err)) << err;
  Position pos;
  ASSERT_TRUE(pos.set_fen(Position::START_FEN, Ruleset::JANGGI, &err));
  std::vector<Move> moves;
  for (int i = 0; i < 6; ++i) {
    PlayerReply r = p->play(pos, Position::START_FEN, moves);
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_TRUE(is_legal(pos, r.move));
    pos.do_move(r.move);
    moves.push_back(r.move);
  }
  for (const char* spec : {"alphabeta:level=easy", "alphabeta:level=normal", "alphabeta:level=expert",
                           "alphabeta:nodes=1000", "alphabeta:movetime=20,name=ab20"})
    EXPECT_TRUE(check_player_spec(spec, &err)) << spec << ": " << err;
}
