// The UCI client against our own binary (`janggi-zero uci`) and against broken engines: illegal
// replies, crashes, silence and non-engines all forfeit with a reason instead of hanging or crashing.
#include <gtest/gtest.h>

#include "arena/match.h"
#include "arena/player.h"
#include "core/movegen.h"

using namespace jz;

namespace {

const std::string SELF = std::string("uci:") + JZ_BINARY + " uci";
const std::string ENGINES = JZ_TEST_ENGINES;

MatchResult play(const std::string& p1, const std::string& p2, int games, int concurrency = 1) {
  MatchConfig cfg;
  cfg.player1 = p1;
  cfg.player2 = p2;
  cfg.games = games;
  cfg.concurrency = concurrency;
  cfg.max_plies = 80;
  MatchResult r;
  std::string err;
  EXPECT_TRUE(run_match(cfg, r, &err)) << err;
  return r;
}

}  // namespace

TEST(UciClient, PlaysOurBinary) {
  std::string err;
  auto p = make_player(SELF + ",movetime=50", 1, &err);
  ASSERT_TRUE(p) << err;
  ASSERT_TRUE(p->new_game(Ruleset::JANGGI, &err)) << err;
  Position pos;
  ASSERT_TRUE(pos.set_fen(Position::START_FEN, Ruleset::JANGGI, &err));
  std::vector<Move> moves;
  for (int i = 0; i < 10; ++i) {
    PlayerReply r = p->play(pos, Position::START_FEN, moves);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(is_legal(pos, r.move));
    pos.do_move(r.move);
    moves.push_back(r.move);
  }
  // A second game on the same process.
  ASSERT_TRUE(p->new_game(Ruleset::JANGGI, &err)) << err;
  EXPECT_TRUE(p->play(pos, Position::START_FEN, moves).error.empty());
}

TEST(UciClient, MatchAgainstRandomIsLegal) {
  MatchResult r = play(SELF + ",movetime=20", "random", 4, 2);
  ASSERT_EQ(r.games.size(), 4u);
  EXPECT_GE(r.nodes_per_move(1), 1.0);  // from the engine's "info ... nodes N"
  EXPECT_EQ(r.nodes_per_move(2), -1.0);
  for (auto& g : r.games) {
    EXPECT_TRUE(g.reason.empty()) << g.reason;
    GameResult fin;
    std::string err;
    EXPECT_TRUE(replay_record(g, fin, &err)) << err;
  }
}

TEST(UciClient, IllegalMoveLoses) {
  MatchResult r = play("uci:/bin/sh " + ENGINES + "/illegal.sh", "random", 2);
  ASSERT_EQ(r.games.size(), 2u);
  EXPECT_EQ(r.wdl.l, 2);
  for (auto& g : r.games) {
    EXPECT_EQ(g.result.ending, Ending::ILLEGAL_MOVE);
    EXPECT_NE(g.reason.find("illegal move 'a1a9'"), std::string::npos) << g.reason;
  }
  // Han moves first in neither game: the illegal player's first own turn ends the game.
  EXPECT_EQ(r.games[0].moves.size(), 0u);
  EXPECT_EQ(r.games[1].moves.size(), 1u);
}

TEST(UciClient, CrashLoses) {
  MatchResult r = play("random", "uci:/bin/sh " + ENGINES + "/crash.sh", 2);
  EXPECT_EQ(r.wdl.w, 2);
  for (auto& g : r.games) {
    EXPECT_EQ(g.result.ending, Ending::ILLEGAL_MOVE);
    EXPECT_NE(g.reason.find("engine died"), std::string::npos) << g.reason;
    EXPECT_NE(g.reason.find("exit code 3"), std::string::npos) << g.reason;
  }
}

TEST(UciClient, SilenceLosesOnTime) {
  std::string err;
  auto p = make_player("uci:/bin/sh " + ENGINES + "/silent.sh,timeout=300", 1, &err);
  ASSERT_TRUE(p) << err;
  ASSERT_TRUE(p->new_game(Ruleset::JANGGI, &err)) << err;
  Position pos;
  ASSERT_TRUE(pos.set_fen(Position::START_FEN, Ruleset::JANGGI, &err));
  PlayerReply r = p->play(pos, Position::START_FEN, {});
  EXPECT_EQ(r.forfeit, Ending::TIME);
  EXPECT_NE(r.error.find("no bestmove within 0.3 s"), std::string::npos) << r.error;
  // Once forfeited it stays dead rather than blocking again.
  EXPECT_FALSE(p->play(pos, Position::START_FEN, {}).error.empty());
}

TEST(UciClient, StartupFailuresAreClearErrors) {
  std::string err;
  auto p = make_player("uci:/bin/sh " + ENGINES + "/mute.sh", 1, &err);
  ASSERT_TRUE(p) << err;
  EXPECT_FALSE(p->new_game(Ruleset::JANGGI, &err));
  EXPECT_NE(err.find("no 'uciok'"), std::string::npos) << err;
  auto q = make_player("uci:/bin/sh " + ENGINES + "/illegal.sh,Threads=4", 1, &err);
  ASSERT_TRUE(q) << err;
  EXPECT_FALSE(q->new_game(Ruleset::JANGGI, &err));
  EXPECT_NE(err.find("has no option 'Threads'"), std::string::npos) << err;
  auto h = make_player("uci:/bin/sh " + ENGINES + "/illegal.sh,Hash=32", 1, &err);
  ASSERT_TRUE(h) << err;
  EXPECT_TRUE(h->new_game(Ruleset::JANGGI, &err)) << err;
  // In a match, an engine that cannot start stops the match with the reason.
  MatchConfig cfg;
  cfg.player1 = "uci:/bin/sh " + ENGINES + "/mute.sh";
  cfg.player2 = "random";
  MatchResult r;
  EXPECT_FALSE(run_match(cfg, r, &err));
  EXPECT_NE(err.find("no 'uciok'"), std::string::npos) << err;
}
